"""ldsopt-lower-scan end to end: each program in programs/scan (prefix sums of f32, i32 and
i64 along the last, the middle and the first dim, rows of 9 to 1000 (a prime of 517), and a
prefix product, each with its rows' totals) compiled through IREE, run on lavapipe and checked
against the reference; the grid-stride loop over rows and threads of many elements each; an
exclusive scan left to IREE; the LDS partials and barriers in gfx942's ISA and CUDA's PTX."""

import pathlib
import re

import pytest

from ldsopt.measure import isa

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "scan"


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert re.search(r"^dispatch \w+_scan_\w+: ldsopt: ldsopt-lower-scan$", out, re.M), out


def test_few_threads_and_workgroups(run_program):
    """8 threads of 125 elements each over rows of 1000, 2 workgroups for 3 rows: the partials
    scanned in 3 steps, the rows' loop taking a second turn."""
    run_program((PROGRAMS / "cumsum_rows_f32_3x1000.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                "--pipeline", "builtin.module(ldsopt-lower-scan{workgroup-size=8 max-workgroups=2}, canonicalize, cse)")


def test_exclusive_scan_left_to_iree(run_program):
    """An exclusive scan is not taken (the remark says why); IREE's kernel runs it."""
    text = (PROGRAMS / "cumsum_i64_1x9.mlir").read_text().replace("inclusive(true)", "inclusive(false)")
    out = run_program(text, "--target", "lavapipe", name="exclusive")
    assert "ldsopt-lower-scan: an exclusive scan; this pass takes inclusive ones" in out, out


def test_gfx942_partials_meet_in_lds(run_program, tmp_path):
    """gfx942: the partials written to and read from LDS between barriers, no spills."""
    out = run_program((PROGRAMS / "cumsum_rows_f32_3x1000.mlir").read_text(), "--target", "gfx942",
                      "--require-ldsopt", "--emit-dir", str(tmp_path / "emit"))
    assert "COMPILED" in out
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.ds_ops.get("ds_write_b32") and kernel.ds_ops.get("ds_read_b32"), kernel.ds_ops
    assert kernel.barriers >= 9 and kernel.vgpr_spills == kernel.sgpr_spills == 0, kernel


def test_cuda_ptx(ptx_of, tmp_path):
    """sm_89: shared-memory partials and barriers."""
    ptx, report = ptx_of((PROGRAMS / "cumsum_middle_i32_2x517x3.mlir").read_text(), "cuda", tmp_path)
    assert "ldsopt-lower-scan" in str(report), report
    assert re.search(r"st\.shared\.u32|st\.shared\.b32", ptx) and "bar.sync" in ptx, ptx[:2000]


def test_rows_of_one_element(run_program):
    """Rows of one element: the scan is the input (ldsopt's); with the totals stored it is left to
    IREE, whose scan leaves them at the accumulator's start there, and the remark says so."""
    text = (PROGRAMS / "cumsum_i64_1x9.mlir").read_text().replace("1x9", "6x1")
    text = text.replace("tensor<1xi64>", "tensor<6xi64>")
    out = run_program(text, "--target", "lavapipe", name="one_with_totals")
    assert "a scan of one element a row whose total is stored" in out, out
    alone = text.replace("-> (tensor<6x1xi64>, tensor<6xi64>)", "-> tensor<6x1xi64>").replace(
        "return %r#0, %r#1 : tensor<6x1xi64>, tensor<6xi64>", "return %r#0 : tensor<6x1xi64>")
    out = run_program(alone, "--target", "lavapipe", "--require-ldsopt", name="one_alone")
    assert "ldsopt: ldsopt-lower-scan" in out, out
