"""ldsopt-inthread-transpose end to end: matmul programs run on lavapipe with the pass and
without it, both checked against llvm-cpu; and a gfx942 compile with the default pipeline and
without the pass, whose ISA must show the transposed operand's LDS reads widened.

Lavapipe has no matrix cores: its FMA kernels' fragment reads gain no width from the transpose,
so the default pipeline leaves them (test_matmul_lds.py runs that). Here the pass runs there
with `force=true`, in the default pipeline's place, so that the transposed staging (raked
reads, register transpose, swizzled K-contiguous LDS, tails) is checked against values.

Programs run two at a time (this machine has 2 cores and each run mostly waits on
iree-compile / iree-run-module): a module fixture starts the selected runs in a pool and each
test waits for its own.
"""

from __future__ import annotations

import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys

import pytest

from ldsopt import target
from ldsopt.run import driver
from ldsopt.measure import isa
from ldsopt.run.driver import DEFAULT_PIPELINE

HERE = pathlib.Path(__file__).parent
MATMUL = HERE / "programs" / "matmul"
I8 = HERE / "programs" / "matmul_i8"
LDS_RUN = os.path.join(os.path.dirname(sys.executable), "lds-run")
PASS = "ldsopt-inthread-transpose"
WITHOUT = DEFAULT_PIPELINE.replace(f"{PASS}, ", "")
assert WITHOUT != DEFAULT_PIPELINE, "the default pipeline no longer runs the pass"
FORCED = DEFAULT_PIPELINE.replace(PASS, PASS + "{force=true}")
# test_matmul_lds.py's: f32 accumulation in another order than llvm-cpu's.
TOLERANCE = ("--atol", "1e-3", "--rtol", "1e-3")

# (program, whether the forced pass restages an operand on lavapipe: 64x64 tiles, 256 threads).
PROGRAMS = [
    ("nn_f16_96x160x64", True),         # NN: B (K x N)
    ("nn_bf16_128x256x64", True),
    ("nn_f32_257x129x65_acc", True),    # f32 (rake 2), tails on M, N and K, loaded init
    ("nn_f32_40x50x30_fill", True),
    ("batch_nn_f32_3x33x17x70", True),  # batch dim outside the tile; odd sizes, 1-wide reads
    ("tn_f16_64x96x48", True),          # TN: A (K x M) and B (K x N)
    ("tn_f32_257x129x65", True),
    ("tt_bf16_96x160x64", True),        # TT: A (K x M)
    ("tt_f32_33x17x70", True),
    ("swapped_inputs_f16_48x72x40", True),
    ("nt_bf16_33x17x70_acc", False),    # both operands K-contiguous
    ("nn_f32_64x64x64", False),         # B's K tile gives each thread one row: too small
]
RUNS = [(name, with_pass) for name, _ in PROGRAMS for with_pass in (True, False)]


def _run(program: pathlib.Path, pipeline: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([LDS_RUN, str(program), "--require-ldsopt", "--pipeline", pipeline, *extra],
                          capture_output=True, text=True, timeout=600)


def _tiled(pipeline: str, tiles: str, k_bytes: int = 0) -> str:
    """`pipeline` with the planning passes' tiling (and K step, unless 0) pinned, beside their
    other options: the tests here are about the staging of one tiling (which operands a tiling
    lets the pass restage), not about the plan's choice of tiling."""
    pinned = f"tiles={tiles}" + (f" k-bytes={k_bytes}" if k_bytes else "")
    return re.sub(rf"({PASS}|ldsopt-matmul-lds)(?:\{{([^}}]*)\}})?",
                  lambda m: f"{m.group(1)}{{{m.group(2) + ' ' if m.group(2) else ''}{pinned}}}", pipeline)


def _run_on_lavapipe(name: str, with_pass: bool) -> tuple[bool, str]:
    proc = _run(MATMUL / f"{name}.mlir", _tiled(FORCED if with_pass else WITHOUT, "64x64x4x4"), "--target", "lavapipe",
                *TOLERANCE)
    lines = proc.stdout.strip().splitlines()
    return proc.returncode == 0 and bool(lines) and lines[-1].startswith("PASS"), proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def results(request):
    """Starts every selected run in a pool of two; {(program, with pass): future of (ok, report)}."""
    selected = {(item.callspec.params["name"], item.callspec.params["with_pass"]) for item in request.session.items
                if getattr(item, "originalname", None) == "test_lavapipe_with_and_without"}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    yield {run: pool.submit(_run_on_lavapipe, *run) for run in RUNS if run in selected}
    pool.shutdown(cancel_futures=True)


@pytest.mark.parametrize("name, with_pass", RUNS, ids=[f"{n}-{'with' if w else 'without'}" for n, w in RUNS])
def test_lavapipe_with_and_without(name, with_pass, results):
    ok, report = results[(name, with_pass)].result()
    assert ok, report
    restaged = dict(PROGRAMS)[name] and with_pass
    assert (f"ldsopt: {PASS}, ldsopt-matmul-lds" in report) == restaged, report
    assert "ldsopt-matmul-lds" in report


# Layouts forced by the pass's options (the bank model picks others on lavapipe), on programs
# with tails: the row XOR under a swizzle with threads along M/N, threads down K with a forced
# pad and with a swizzle (257x129x65: 1-wide columns), 8-row (128-bit) rakes.
LAYOUTS = [
    ("tn_f16_64x96x48", "lanes=cols row-xor=2"),
    ("nn_f32_257x129x65_acc", "lanes=rows row-xor=0 pad=8 swizzle=0"),
    ("tt_bf16_96x160x64", "rake-bits=128"),
    ("tn_f32_257x129x65", "lanes=rows swizzle=4,1,4"),
]


@pytest.mark.parametrize("name, options", LAYOUTS, ids=[f"{n}-{o.replace(' ', '-')}" for n, o in LAYOUTS])
def test_lavapipe_forced_layouts(name, options):
    pipeline = DEFAULT_PIPELINE.replace(PASS, PASS + "{force=true " + options + "}")
    proc = _run(MATMUL / f"{name}.mlir", pipeline, "--target", "lavapipe", *TOLERANCE)
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines and lines[-1].startswith("PASS"), proc.stdout + proc.stderr
    assert f"ldsopt: {PASS}, ldsopt-matmul-lds" in proc.stdout, proc.stdout


# The tilings the plan's cost rule takes besides 64x64 (ldsopt-matmul-lds's TILINGS): a
# 128-row tile, a 32x32 one and the 64-thread skinny ones, each restaged by the forced pass.
TILINGS = [
    ("nn_f16_96x160x64", "128x64x8x4"),
    ("tn_f32_257x129x65", "32x32x2x2"),
    ("nn_f16_96x160x64", "16x64x4x4"),
    ("tn_f32_257x129x65", "64x16x4x4"),
]


@pytest.mark.parametrize("name, tiles", TILINGS, ids=[f"{n}-{t}" for n, t in TILINGS])
def test_lavapipe_forced_at_other_tilings(name, tiles):
    proc = _run(MATMUL / f"{name}.mlir", _tiled(FORCED, tiles), "--target", "lavapipe", *TOLERANCE)
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines and lines[-1].startswith("PASS"), proc.stdout + proc.stderr
    assert f"ldsopt: {PASS}, ldsopt-matmul-lds" in proc.stdout, proc.stdout


# The tilings and K steps (bytes) that the default gfx942 plans of these programs took when the
# plan began to cost narrow MFMA fragment reads, and with them the transpose (attention's P x V,
# which test_gfx942_isa_attention_pv asserts; TN f16; TT bf16), run on lavapipe with the forced
# pass: the raked reads and register transposes of those tiles checked against llvm-cpu
# (lavapipe's products are FMA, and its LDS maps the bank model's for them).
GFX942_PLANS = [
    (HERE / "programs" / "inthread_transpose" / "pv_f16_12x512x64x512.mlir", "32x64x2x4", 128),
    (MATMUL / "tn_f16_64x96x48.mlir", "16x32x2x4", 128),
    (MATMUL / "tt_bf16_96x160x64.mlir", "32x16x4x2", 64),
]


@pytest.mark.parametrize("program, tiles, k_bytes", GFX942_PLANS, ids=[f"{p.stem}-{t}" for p, t, _ in GFX942_PLANS])
def test_lavapipe_forced_at_gfx942_plans(program, tiles, k_bytes):
    proc = _run(program, _tiled(FORCED, tiles, k_bytes), "--target", "lavapipe")
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines and lines[-1].startswith("PASS"), proc.stdout + proc.stderr
    assert f"ldsopt: {PASS}, ldsopt-matmul-lds" in proc.stdout, proc.stdout


NARROW_READS = ("ds_read_u16", "ds_read_i16", "ds_read_u8", "ds_read_i8")
WIDE_READS = ("ds_read_b64", "ds_read2_b64", "ds_read2st64_b64", "ds_read_b128")


def _gfx942_kernel(tmp_path: pathlib.Path, with_pass: bool,
                   program: pathlib.Path = HERE / "programs" / "inthread_transpose" / "nn_f16_256x256x256.mlir"
                   ) -> isa.KernelIsa:
    folder = tmp_path / ("with" if with_pass else "without")
    proc = _run(program, _tiled(DEFAULT_PIPELINE if with_pass else WITHOUT, "128x128x8x8"), "--target", "gfx942",
                "--emit-dir", str(folder))
    assert proc.returncode == 0 and "COMPILED" in proc.stdout, proc.stdout + proc.stderr
    assert (f"{PASS}, ldsopt-matmul-lds" in proc.stdout) == with_pass, proc.stdout
    (kernel,) = isa.from_dump_dir(str(folder / "executables"))
    return kernel


def test_gfx942_isa_reads_transposed_operand_wide(tmp_path):
    """NN f16 256x256x256 in 128x128 tiles: without the pass B's MFMA fragments are 16-bit LDS reads (four per
    fragment); with it B is staged K-contiguous, transposed in registers (v_perm_b32 packs the
    f16 columns) and the fragments of two K steps are one 128-bit read (ds_read_b128)."""
    with_pass, without = _gfx942_kernel(tmp_path, True), _gfx942_kernel(tmp_path, False)

    def count(kernel, ops):
        return sum(kernel.ds_count(op) for op in ops)

    assert count(without, NARROW_READS) > 0, without.summary()
    assert count(with_pass, NARROW_READS) == 0, with_pass.summary()
    assert count(with_pass, WIDE_READS) > count(without, WIDE_READS), (with_pass.summary(), without.summary())
    assert with_pass.ds_count("ds_read") < without.ds_count("ds_read"), (with_pass.summary(), without.summary())
    assert with_pass.ds_count("ds_read_b128") > 0, with_pass.summary()
    assert with_pass.ds_count("ds_write_b64") > 0, with_pass.summary()  # the 4-f16 K columns
    assert with_pass.v_perm > 0, with_pass.summary()
    assert with_pass.vgpr_spills == 0 and with_pass.mfma > 0, with_pass.summary()


def test_gfx942_isa_reads_transposed_i8_operand_wide(tmp_path):
    """NN i8 128x256x128 (into i32) in 128x128 tiles: without the pass B's MFMA i8 fragments are
    byte reads (eight per fragment); with it B is raked 8 K rows deep, transposed in registers
    (v_perm_b32 packs the bytes) and written as 8-byte K columns, and the fragments of two K
    steps are one 128-bit read."""
    program = I8 / "nn_i8_128x256x128.mlir"
    with_pass, without = _gfx942_kernel(tmp_path, True, program), _gfx942_kernel(tmp_path, False, program)
    assert without.ds_count("ds_read_u8") + without.ds_count("ds_read_i8") > 0, without.summary()
    assert sum(with_pass.ds_count(op) for op in NARROW_READS) == 0, with_pass.summary()
    assert with_pass.ds_count("ds_read_b128") > without.ds_count("ds_read_b128"), (with_pass.summary(),
                                                                                 without.summary())
    assert with_pass.ds_count("ds_write_b64") > 0 and with_pass.v_perm > 0, with_pass.summary()
    assert with_pass.vgpr_spills == 0 and with_pass.mfma > 0, with_pass.summary()


def test_gfx942_isa_attention_pv(tmp_path):
    """Attention's P x V at BERT-base's sizes on gfx942, the default pipeline: the plan, costed
    as the pass restages it, takes 32x64 tiles of 64 K a step (128 bytes), which give each
    thread 2 K rows of V (K x N per head); the pass takes V, transposes it in registers
    (v_perm_b32) and the MFMA fragments are 128-bit LDS reads, no 16-bit ones, no spills.
    ldsopt-matmul-lds alone (64x32 tiles of 32 K) reads V 16 bits at a time (its output stage
    off here: the stage's copies are 128-bit reads too)."""
    program = HERE / "programs" / "inthread_transpose" / "pv_f16_12x512x64x512.mlir"
    alone = WITHOUT.replace("ldsopt-matmul-lds,", "ldsopt-matmul-lds{output-lds=false},")
    assert alone != WITHOUT
    kernels = {}
    for pipeline, folder in ((DEFAULT_PIPELINE, "default"), (alone, "alone")):
        proc = _run(program, pipeline, "--target", "gfx942", "--emit-dir", str(tmp_path / folder))
        assert proc.returncode == 0 and "COMPILED" in proc.stdout, proc.stdout + proc.stderr
        assert (f"{PASS}, ldsopt-matmul-lds" in proc.stdout) == (folder == "default"), proc.stdout
        (kernels[folder],) = isa.from_dump_dir(str(tmp_path / folder / "executables"))
    default, alone = kernels["default"], kernels["alone"]
    assert sum(alone.ds_count(op) for op in NARROW_READS) > 0 and alone.ds_count("ds_read_b128") == 0, alone.summary()
    assert sum(default.ds_count(op) for op in NARROW_READS) == 0, default.summary()
    assert default.ds_count("ds_read_b128") > 0 and default.v_perm > 0 and default.mfma > 0, default.summary()
    assert default.vgpr_spills == 0 and default.sgpr_spills == 0, default.summary()


# i8 x i8 -> i32 on lavapipe with the forced pass (8-row rakes of bytes, 64 K a tile): NN and
# TN, tails on M, N and K.
I8_FORCED = ["nn_i8_33x17x70", "nn_i8_128x256x128", "tn_m1_i8_1x40x70", "batch_nn_i8_3x33x17x70_acc"]


@pytest.mark.parametrize("name", I8_FORCED)
def test_lavapipe_forced_i8(name):
    proc = _run(I8 / f"{name}.mlir", _tiled(FORCED, "64x64x4x4"), "--target", "lavapipe")
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines and lines[-1].startswith("PASS"), proc.stdout + proc.stderr
    assert f"ldsopt: {PASS}, ldsopt-matmul-lds" in proc.stdout, proc.stdout


@pytest.mark.parametrize("prefetch", [True, False])
def test_cuda_rake_prefetched_into_l1(prefetch, tmp_path):
    """sm_89 PTX of NN bf16 128x256x64 (128x128 tiles), the pass forced (by default CUDA reads
    this B by ldmatrix.trans): the raked B's global reads are prefetched into L1 two K steps
    ahead (`prefetch.global.L1`, one per raked row, in the K loop); with prefetch=0 there is
    none. Running it needs the H200 (the results README)."""
    # Its 128x128 tiles given, without ldsopt-dtl-layout (a K of 64 bf16 would take the short-K
    # plan, staged by cp.async).
    options = "{force=true tiles=128x128x8x8}" if prefetch else "{force=true prefetch=0 tiles=128x128x8x8}"
    pipeline = re.sub(r"ldsopt-dtl-layout\{[^}]*\}, ", "", DEFAULT_PIPELINE).replace(PASS, PASS + options)
    assert "dtl" not in pipeline
    configured = driver.configure((MATMUL / "nn_bf16_128x256x64.mlir").read_text(), target.known("cuda"), str(tmp_path))
    lowered, report = driver.apply_ldsopt(configured, pipeline)
    assert PASS in str(report), report
    driver.compile_module(lowered, str(tmp_path), "nn", dump=True)
    (ptx,) = (tmp_path / "executables").glob("*.ptx")
    text = ptx.read_text()
    assert (text.count("prefetch.global.L1") > 0) == prefetch, text[:2000]
