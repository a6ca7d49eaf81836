"""End-to-end tests of lds-run's check (ldsopt/run/reference.py, ldsopt/run/numpy_reference.py,
ldsopt/run/replay.py): programs whose old reference was wrong or missing run on lavapipe and pass
against the f64 reference, computed by numpy and (`--reference llvm-cpu`) by llvm-cpu; a
program that cannot be promoted runs against itself as written on llvm-cpu; special values
reach the kernels and come out as the reference says.

Programs run two at a time (this machine has 2 cores and each run mostly waits on
iree-compile / iree-run-module): a module fixture starts the selected ones in a pool.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from ldsopt.run.tensor_file import FLOATS

LDS_RUN = os.path.join(os.path.dirname(sys.executable), "lds-run")
PROGRAMS = pathlib.Path(__file__).parent / "programs"
PROMOTED = "reference: numpy, the program with its float arithmetic in f64"
ON_LLVM_CPU = ("--reference", "llvm-cpu")
PROMOTED_ON_LLVM_CPU = "reference: llvm-cpu, the program with its float arithmetic in f64"

# (id, program, extra lds-run arguments, the reference line the report must hold)
CASES = [
    # IREE's large_reduction test: a sequential f16 sum stalls at 4.0, ldsopt's tree sum gives
    # the 4.098 IREE's test expects; the old reference (the f16 program on llvm-cpu) failed it.
    ("large_reduction_f16", "reference/large_reduction_f16_2x4096.mlir", ("--require-ldsopt",), PROMOTED),
    ("large_reduction_f16_llvm_cpu", "reference/large_reduction_f16_2x4096.mlir", ("--require-ldsopt", *ON_LLVM_CPU),
     PROMOTED_ON_LLVM_CPU),
    ("large_reduction_f32", "reference/large_reduction_f32_2x40960.mlir", ("--require-ldsopt",), PROMOTED),
    ("sum_f16_acc_f16", "reference/sum_f16_acc_f16_8x4096.mlir", ("--require-ldsopt",), PROMOTED),
    ("sum_f16_acc_f16_seed4", "reference/sum_f16_acc_f16_8x4096.mlir", ("--require-ldsopt", "--seed", "4"), PROMOTED),
    # f64 used to meet a module IREE had demoted to f32.
    ("mul_add_f64", "reference/mul_add_f64_37x65.mlir", ("--require-ldsopt",), PROMOTED),
    ("row_sum_f64", "reference/row_sum_f64_6x1000.mlir", ("--require-ldsopt",), PROMOTED),
    ("softmax_f16", "reference/softmax_f16_24x1000.mlir", (), PROMOTED),
    ("matmul_f16", "reference/matmul_f16_acc_f32_33x40x70.mlir", ("--require-ldsopt",), PROMOTED),
    ("matmul_f16_llvm_cpu", "reference/matmul_f16_acc_f32_33x40x70.mlir", ("--require-ldsopt", *ON_LLVM_CPU),
     PROMOTED_ON_LLVM_CPU),
    ("quantize_f32_to_i32", "reference/quantize_f32_to_i32_8x300.mlir", ("--require-ldsopt",),
     "reference: llvm-cpu, the program as written (arith.fptosi at line 19 converts floats to integers"),
    # numpy computes erf in f64; llvm-cpu lowers math.erf in f32 only.
    ("gelu_erf_f32", "reference/gelu_erf_f32_16x300.mlir", ("--require-ldsopt",), PROMOTED),
    ("gelu_erf_f32_llvm_cpu", "reference/gelu_erf_f32_16x300.mlir", ("--require-ldsopt", *ON_LLVM_CPU),
     "reference: llvm-cpu, the program as written (llvm-cpu cannot compile it in f64: failed to legalize operation "
     "'math.erf'"),
    ("exp_f16_to_f32", "reference/exp_f16_to_f32_2x2.mlir", ("--require-ldsopt",), PROMOTED),
    # numpy leaves a convolution's (d0 + d1) indexing to llvm-cpu.
    ("conv1d_f32", "reference/conv1d_f32_40x5.mlir", (), PROMOTED_ON_LLVM_CPU),
    # f32 overflows (and underflows to flushed subnormals) where f64 does not: judged against
    # the program as written, and reported as such.
    ("exp_overflow_f32", "reference/exp_overflow_f32_4x64.mlir", ("--require-ldsopt",), PROMOTED),
    ("special_sum_f32", "reduction/row_sum_f32_13x1000.mlir", ("--require-ldsopt", "--special-values"), PROMOTED),
    ("special_max_f16", "reduction/max_f16_32x300.mlir", ("--require-ldsopt", "--special-values"), PROMOTED),
    ("special_exp_f16", "elementwise/f16_mul_exp.mlir", ("--require-ldsopt", "--special-values"), PROMOTED),
]


def _run_case(program: pathlib.Path, extra: tuple[str, ...], folder: pathlib.Path) -> tuple[bool, str]:
    proc = subprocess.run([LDS_RUN, str(program), "--target", "lavapipe", "--emit-dir", str(folder), *extra],
                          capture_output=True, text=True, timeout=600)
    lines = proc.stdout.strip().splitlines()
    return proc.returncode == 0 and bool(lines) and lines[-1].startswith("PASS"), proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def results(request, tmp_path_factory):
    """Starts every selected case in a pool of two; {case id: (folder, future of (ok, report))}."""
    selected = {item.callspec.params["case"][0] for item in request.session.items
                if getattr(item, "originalname", None) == "test_passes_against_the_reference"}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    futures = {}
    for cid, prog, extra, _ in CASES:
        if cid in selected:
            folder = tmp_path_factory.mktemp(cid)
            futures[cid] = (folder, pool.submit(_run_case, PROGRAMS / prog, extra, folder))
    yield futures
    pool.shutdown(cancel_futures=True)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_passes_against_the_reference(case, results):
    cid, _, extra, reference_line = case
    folder, future = results[cid]
    ok, report = future.result()
    assert ok, report
    assert reference_line in report, report
    manifest = json.loads((folder / "manifest.json").read_text())
    result = json.loads((folder / "result.json").read_text())
    assert manifest["special_values"] == ("--special-values" in extra)
    engine = "numpy" if reference_line.startswith("reference: numpy") else "llvm-cpu"
    assert manifest["reference"]["engine"] == engine
    assert (folder / "reference.vmfb").exists() == (engine == "llvm-cpu")
    if cid == "conv1d_f32":
        assert "has an indexing map numpy does not evaluate" in manifest["reference"]["numpy_refused"]
    # the tolerances used are recorded, in the manifest and in the result
    for tol, out in zip(manifest["tolerances"], result["outputs"]):
        assert tol["atol"] is not None and (tol["atol"], tol["rtol"]) == (out["atol"], out["rtol"])
    if cid.startswith("large_reduction_f16"):
        exact = 4096 * float(np.float16(0.001))
        assert np.allclose(np.fromfile(folder / "expected0.bin", np.float64), exact, rtol=1e-12, atol=0)
        assert np.all(np.fromfile(folder / "output0.bin", np.float16) == np.float16(exact))
    if cid == "quantize_f32_to_i32":  # f32 output 1 of a 300-term sum: tolerances 300/64 ** 0.5 times wider
        assert manifest["tolerances"][1]["atol"] == pytest.approx(1e-4 * (300 / 64) ** 0.5)
    # each float output of a program with float inputs has its sensitivity, the scale its
    # elements are judged at (IREE's large reductions sum constants: each element at its own size)
    moved = any(t["dtype"] in FLOATS for t in manifest["inputs"])
    assert [t and t["file"] for t in manifest["sensitivity"]] == [
        f"sensitivity{i}.bin" if moved and out["dtype"] in FLOATS else None
        for i, out in enumerate(manifest["outputs"])]
    if cid == "exp_overflow_f32":
        assert "the f64 reference is finite where the program's own arithmetic overflows" in report, report
        assert manifest["as_written"][0] and result["outputs"][0]["overflow"] > 0
    if cid.startswith("special_"):
        expected = np.fromfile(folder / "expected0.bin", np.float64)
        assert not np.isfinite(expected).all(), "the special values reached no output"


def test_a_folder_compiled_for_a_device_not_here_holds_its_reference(tmp_path):
    """lds-run --target cuda without a CUDA device says to replay the folder elsewhere: the
    folder must hold the reference that replay compares with."""
    proc = subprocess.run([LDS_RUN, str(PROGRAMS / "reference" / "row_sum_f64_6x1000.mlir"), "--target", "cuda",
                           "--emit-dir", str(tmp_path)], capture_output=True, text=True, timeout=600)
    if "PREPARED" not in proc.stdout:
        pytest.skip("a CUDA device is present: lds-run ran the program here")
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert len(manifest["expected"]) == 1 and (tmp_path / manifest["expected"][0]["file"]).exists()
    assert manifest["reference"]["precision"] == "f64"


def test_replay_fails_a_kernel_the_reference_disagrees_with(tmp_path):
    """The same kernel against references it does not match: off by 0.098 (the stalled
    sequential f16 sum, 4.0) and +inf where it gives a finite value."""
    folder = tmp_path / "lr"
    program = PROGRAMS / "reference" / "large_reduction_f16_2x4096.mlir"
    subprocess.run([LDS_RUN, str(program), "--target", "lavapipe", "--prepare", str(folder)], check=True,
                   capture_output=True, timeout=600)
    for wrong, why in (([4.0, 4.0977], "1 elements out of tolerance"),
                       ([np.inf, 4.0977], "1 elements out of tolerance (1 of them inf/NaN")):
        np.array(wrong, np.float64).tofile(folder / "expected0.bin")
        proc = subprocess.run([LDS_RUN, "--replay", str(folder)], capture_output=True, text=True, timeout=600)
        assert proc.returncode == 1 and why in proc.stdout, proc.stdout + proc.stderr
        assert proc.stdout.strip().splitlines()[-1].startswith("FAIL")
