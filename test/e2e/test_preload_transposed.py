"""End-to-end tests of ldsopt-preload-transposed: transposed pointwise programs compiled
through the default pipeline, run on lavapipe and compared with llvm-cpu; one compiled for
gfx942 to check that the ISA really stages through LDS."""

from __future__ import annotations

import glob
import os
import re
import subprocess
import sys

import pytest

from ldsopt.measure import isa

HERE = os.path.dirname(__file__)
PROGRAMS = sorted(glob.glob(os.path.join(HERE, "programs", "transpose", "*.mlir")))
# Transposes of slices of a binding: eager BERT's K^T, an unaligned offset, prime extents, a tail;
# and slices at a row or column read at run time: the input that holds it, and values that
# keep the rows aligned to the vectors and that do not (the last that fits among them).
RUN_TIME = {"column_at_run_time_f32_37x64": ("1", (0, 8, 13, 40)),
            "rows_at_run_time_f16_64x6x16": ("1", (0, 7, 51))}
SLICES = sorted(p for p in glob.glob(os.path.join(HERE, "programs", "transpose_slice", "*.mlir"))
                if os.path.basename(p)[:-5] not in RUN_TIME)
LDS_RUN = os.path.join(os.path.dirname(sys.executable), "lds-run")


def lds_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LDS_RUN, *args], capture_output=True, text=True, timeout=300)


def assert_passed(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("PASS"), proc.stdout
    assert "ldsopt-preload-transposed" in proc.stdout, proc.stdout


def test_enough_programs():
    assert len(PROGRAMS) >= 20


@pytest.mark.parametrize("program", PROGRAMS, ids=[os.path.basename(p)[:-5] for p in PROGRAMS])
def test_program_on_lavapipe(program):
    assert_passed(lds_run(program, "--target", "lavapipe", "--require-ldsopt"))


def test_grid_stride_over_tiles():
    """Fewer workgroups than tiles: each workgroup loops, with a barrier before reusing LDS."""
    program = os.path.join(HERE, "programs", "transpose", "nhwc_nchw_add_prime_f32.mlir")
    pipeline = "builtin.module(ldsopt-preload-transposed{max-workgroups=3}, canonicalize, cse)"
    assert_passed(lds_run(program, "--target", "lavapipe", "--require-ldsopt", "--pipeline", pipeline))


def test_gfx942_isa_uses_lds(tmp_path):
    program = os.path.join(HERE, "programs", "transpose", "nhwc_nchw_add_hw49_f32.mlir")
    proc = lds_run(program, "--target", "gfx942", "--require-ldsopt", "--emit-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ldsopt: ldsopt-preload-transposed" in proc.stdout
    summary = next(line for line in proc.stdout.splitlines() if ": LDS " in line)
    assert int(re.search(r"LDS (\d+) B", summary).group(1)) > 0, summary
    assert re.search(r"ds_write\w*=[1-9]", summary), summary
    assert re.search(r"ds_read\w*=[1-9]", summary), summary
    assert int(re.search(r"s_barrier (\d+)", summary).group(1)) >= 1, summary


@pytest.mark.parametrize("program", SLICES, ids=[os.path.basename(p)[:-5] for p in SLICES])
def test_slice_on_lavapipe(program):
    """A transposed slice of a binding, against IREE's llvm-cpu on the original program."""
    assert_passed(lds_run(program, "--target", "lavapipe", "--require-ldsopt", "--reference", "llvm-cpu"))


@pytest.mark.parametrize("name, value", [(n, v) for n, (_, vs) in RUN_TIME.items() for v in vs])
def test_slice_at_run_time_offset_on_lavapipe(name, value):
    arg, _ = RUN_TIME[name]
    program = os.path.join(HERE, "programs", "transpose_slice", f"{name}.mlir")
    assert_passed(lds_run(program, "--target", "lavapipe", "--require-ldsopt", "--reference", "llvm-cpu",
                          "--input", f"{arg}=i32={value}"))


@pytest.mark.parametrize("name, loads", [("k_slice_heads_f32_7x6x16", {"buffer_load_dwordx4"}),
                                         ("unaligned_prime_f32_13x5x37", {"buffer_load_dword"}),
                                         ("rows_at_run_time_f16_64x6x16", {"buffer_load_dwordx4"}),
                                         ("column_at_run_time_f32_37x64", {"buffer_load_dword"})])
def test_slice_gfx942_loads_as_aligned_as_the_slice(name, loads, tmp_path):
    """gfx942: BERT's K slice (rows 96 floats apart, 32 in) is read 16 bytes a lane, and so is
    a slice at a run-time row (rows of 192 bytes); a slice 40 floats in with rows 37 apart, or
    at a run-time column, one float a lane, as its offset allows and nothing wider."""
    program = os.path.join(HERE, "programs", "transpose_slice", f"{name}.mlir")
    given = ("--input", f"{RUN_TIME[name][0]}=i32=1") if name in RUN_TIME else ()
    proc = lds_run(program, "--target", "gfx942", "--require-ldsopt", "--emit-dir", str(tmp_path), *given)
    assert proc.returncode == 0 and "COMPILED" in proc.stdout, proc.stdout + proc.stderr
    assert "ldsopt: ldsopt-preload-transposed" in proc.stdout, proc.stdout
    (kernel,) = isa.from_dump_dir(str(tmp_path / "executables"))
    assert {op for op in kernel.global_ops if "load" in op} == loads, kernel.global_ops


@pytest.mark.parametrize("program", SLICES, ids=[os.path.basename(p)[:-5] for p in SLICES])
def test_slice_compiles_for_cuda(program, tmp_path):
    proc = lds_run(program, "--target", "cuda", "--require-ldsopt", "--emit-dir", str(tmp_path))
    assert proc.returncode == 0 and "PREPARED" in proc.stdout, proc.stdout + proc.stderr
    assert "ldsopt: ldsopt-preload-transposed" in proc.stdout, proc.stdout
    assert (tmp_path / "ldsopt.vmfb").stat().st_size > 0
