"""ldsopt-vector-distribute where the default plans find no plan (a planner gap, simulated by
making `default_plan` fail): the dispatch stays IREE's with the reason as a remark, and the
program still compiles, rather than the whole pipeline failing."""

import pathlib

import pytest

from ldsopt import target
from ldsopt.reduction import plan as reduction_plan
from ldsopt.run import driver

PROGRAMS = pathlib.Path(__file__).parents[1] / "e2e" / "programs"


# one reduction (the single-op kernels), and a softmax (fused rows)
@pytest.mark.parametrize("program", ["reduction/row_sum_f32_13x1000.mlir", "fused/softmax_f32_5x4099.mlir"])
def test_no_default_plan_leaves_the_dispatch(program, monkeypatch, tmp_path):
    configured = driver.configure((PROGRAMS / program).read_text(), target.known("lavapipe"), str(tmp_path))

    def no_plan(*args, **kwargs):
        raise reduction_plan.PlanError("lanes count 5 is not a power of two")
    monkeypatch.setattr(reduction_plan, "default_plan", no_plan)
    _, report = driver.apply_ldsopt(configured, "builtin.module(ldsopt-vector-distribute)")
    assert [(d["passes"], d["missed"]["ldsopt-vector-distribute"]) for d in report] == \
        [([], "no plan: lanes count 5 is not a power of two")], report
