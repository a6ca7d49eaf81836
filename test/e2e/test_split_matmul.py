"""End-to-end tests of ldsopt-split-matmul: programs whose matmul the program pipeline splits
over chunks of K run on lavapipe as two dispatches, the partial products lowered by
ldsopt-matmul-lds and their sum (with the matmul's bias, GELU, residual or cast) by
ldsopt-vector-distribute, and are checked against the unsplit program (numpy or llvm-cpu, in
f64); a batch matmul's partials have two batch dims (chunk, batch); a prime K is left alone; one
split compiles for gfx942.

On lavapipe (4 CPU threads) the tiles of most of these small products fill the machine, so
that the default choice leaves them whole: those runs force the chunks (`splits=S`); the bf16
one is split by the cost model's own choice. Programs run two at a time (this machine has 2
cores: conftest.py's `start_runs`).
"""

from __future__ import annotations

import pathlib
import re

import pytest


PROGRAMS = pathlib.Path(__file__).parent / "programs" / "split_matmul"
DISPATCH = re.compile(r"^dispatch \S+: (.*)$", re.M)
MATMUL = r"ldsopt: (ldsopt-dtl-layout, |ldsopt-inthread-transpose, )?ldsopt-matmul-lds"
SPLIT = [MATMUL, r"ldsopt: ldsopt-vector-distribute"]


def _forced(splits: int) -> str:
    return f"builtin.module(ldsopt-split-matmul{{splits={splits}}})"


# (program, --program-pipeline (None: the default one), the dispatches' lowerings in order)
CASES = [
    ("nn_f16_bias_cast_64x64x8190", _forced(5), SPLIT),
    ("nt_i8_init_37x50x4095", _forced(13), SPLIT),
    ("tn_f32_33x17x4369", _forced(17), SPLIT),
    ("nn_f16_residual_cast_48x40x6144", _forced(8), SPLIT),
    ("batch_nn_f16_bias_cast_3x33x40x4104", _forced(8), SPLIT),
    ("nt_bf16_bias_gelu_40x24x3003", None, SPLIT),
    ("nn_f32_prime_k_64x64x8191", None, [MATMUL]),
]


@pytest.fixture(scope="module")
def results(start_runs):
    return start_runs("test_split_on_lavapipe", {name: (PROGRAMS / f"{name}.mlir", pp, ("--require-ldsopt", "--target",
                                                                                         "lavapipe"))
                                                 for name, pp, _ in CASES})


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_split_on_lavapipe(case, results):
    rc, report = results[case[0]].result()
    assert rc == 0 and "\nPASS" in report, report
    lowered = DISPATCH.findall(report)
    assert len(lowered) == len(case[2]) and all(re.fullmatch(p, x) for p, x in zip(case[2], lowered)), report


# The partials' operands staged in their storage order (ldsopt-dtl-layout, as cp.async does on
# CUDA: on lavapipe through registers with the same maps), three LDS tiles deep, A's chunk dim
# inside its rows (and a second batch dim).
DTL = ("builtin.module(ldsopt-vector-distribute, ldsopt-dtl-layout{layout=auto stages=3}, "
       "ldsopt-matmul-lds{stages=3})")


@pytest.mark.parametrize("name, splits", [("nn_f16_bias_cast_64x64x8190", 5),
                                          ("batch_nn_f16_bias_cast_3x33x40x4104", 8)])
def test_split_staged_by_dtl_layout(name, splits, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      "--pipeline", DTL, "--program-pipeline", _forced(splits), name=name)
    assert DISPATCH.findall(out) == ["ldsopt: ldsopt-dtl-layout, ldsopt-matmul-lds", "ldsopt: ldsopt-vector-distribute"], \
        out


def test_split_compiles_for_gfx942(lds_run):
    proc = lds_run(str(PROGRAMS / "nn_f16_bias_cast_64x64x8190.mlir"), "--require-ldsopt", "--target", "gfx942")
    rc, report = proc.returncode, proc.stdout + proc.stderr
    assert rc == 0 and "COMPILED" in report and "(2 kernels;" in report, report
    lowered = DISPATCH.findall(report)
    assert len(lowered) == 2 and re.fullmatch(MATMUL, lowered[0]) and lowered[1] == "ldsopt: ldsopt-vector-distribute", \
        report
