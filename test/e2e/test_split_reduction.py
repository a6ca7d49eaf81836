"""End-to-end tests of ldsopt-split-reduction: programs whose reductions the program pipeline
splits in two run on lavapipe as two dispatches, both lowered by ldsopt-vector-distribute,
and are checked against the unsplit program on llvm-cpu; one compiles for gfx942.

The selected programs start at once, two at a time (conftest.py's `start_runs`).
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

LDS_RUN = os.path.join(os.path.dirname(sys.executable), "lds-run")
PROGRAMS = pathlib.Path(__file__).parent / "programs" / "split_reduction"
SMALL = "builtin.module(ldsopt-split-reduction{min-reduced=4096})"
# llvm-cpu sums in another order: long f32 sums differ by rounding.
TOLERANCE = ("--atol", "1e-2", "--rtol", "1e-4")
DISPATCH = re.compile(r"^dispatch \S+: (.*)$", re.M)

# (program, --program-pipeline or None for the default)
CASES = [
    ("sum_all_f32_1048576", None),
    ("row_sum_f32_8x65536", None),
    ("sum_f16_to_f32_4x131072", None),
    ("max_middle_f32_2x262144x2", None),
    ("addi_init_i32_2x12288", SMALL),
]


def _run(name: str, program_pipeline: str | None, *extra: str) -> tuple[int, str]:
    args = [LDS_RUN, str(PROGRAMS / f"{name}.mlir"), "--require-ldsopt", *TOLERANCE, *extra]
    if program_pipeline is not None:
        args += ["--program-pipeline", program_pipeline]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def results(start_runs):
    return start_runs("test_split_on_lavapipe", {name: (PROGRAMS / f"{name}.mlir", pp, ("--require-ldsopt", *TOLERANCE,
                                                                                         "--target", "lavapipe"))
                                                 for name, pp in CASES})


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_split_on_lavapipe(case, results):
    rc, report = results[case[0]].result()
    assert rc == 0 and "\nPASS" in report, report
    assert DISPATCH.findall(report) == ["ldsopt: ldsopt-vector-distribute"] * 2, report


def test_split_disabled_keeps_one_dispatch():
    rc, report = _run("sum_all_f32_1048576", "", "--target", "lavapipe")
    assert rc == 0 and "\nPASS" in report, report
    assert DISPATCH.findall(report) == ["ldsopt: ldsopt-vector-distribute"], report


def test_split_compiles_for_gfx942():
    rc, report = _run("sum_all_f32_1048576", None, "--target", "gfx942")
    assert rc == 0 and "COMPILED" in report and "(2 kernels;" in report, report
    assert DISPATCH.findall(report) == ["ldsopt: ldsopt-vector-distribute"] * 2, report
