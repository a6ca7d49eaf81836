"""bench/fit_cost_model.py: the committed sweeps it reads, and its fit on data its model made."""

import importlib.util
import itertools
import pathlib

import pytest

from ldsopt.matmul import planner

_PATH = pathlib.Path(__file__).parents[2] / "bench" / "fit_cost_model.py"
_SPEC = importlib.util.spec_from_file_location("fit_cost_model", _PATH)
fit = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(fit)


def test_the_sweeps_parse_into_products_of_several_tilings():
    rows = fit.rows()
    products = {(r[0], r[1]) for r in rows}
    assert len(rows) >= 104 and len({r[0] for r in rows}) == 6
    assert all(us > 0 for *_, us in rows)
    assert sum(len({r[2] for r in rows if (r[0], r[1]) == p}) > 1 for p in products) >= 23
    # a default row takes the tiling of its commit: the large products 128x256
    assert ("a9506f5", "matmul_NN_4096x4096x4096_f16", (128, 256), 226.5) in rows
    # a side-by-side summary gives a row a round, under the run's tiling
    h100 = [r for r in rows if r[:3] == ("cost-model-fit-h100", "matmul_NN_512x6144x768_f16_cast", (128, 256))]
    assert sorted(r[3] for r in h100) == [14.03, 14.35]


def test_the_wgmma_constants_pick_the_measured_best_of_the_multi_wave_products():
    """WGMMA_COSTS (the fit adopted) picks each H100 product's fastest tiling, where COSTS did not."""
    rows = [r for r in fit.rows() if r[0] == "cost-model-fit-h100"]
    picks = {case: pick for _, case, pick, *_ in fit.picks(planner.WGMMA_COSTS, rows)}
    best = {case: min((r for r in rows if r[1] == case), key=lambda r: r[3])[2] for case in picks}
    assert len(picks) == 3 and picks == best
    assert all(us > best_us for *_, us, best_us in fit.picks(planner.COSTS, rows))


def test_the_fit_recovers_the_constants_that_made_the_times():
    """Times made by a model of the grid (with a floor and a scale of each call) are fitted
    without error by it, and the grid's least error is that model's; another model's is not 0."""
    truth = planner.CostModel(load=24, step=8192, epilogue_op=32, share=0.7)
    data = []
    for (call, floor, scale), (case, tiling) in itertools.product(
            (("x", 4.0, 1e-6), ("y", 2.0, 3e-6)),
            itertools.product(("matmul_NN_512x768x3072_f16_bias_residual", "matmul_NN_2048x2304x768_f16_bias",
                               "matmul_NN_4096x4096x4096_f16"), ((64, 64), (64, 128), (128, 128), (128, 256)))):
        data.append((call, case, tiling, floor + scale * fit.model_time(truth, case, tiling)))
    assert fit.error(truth, data) == pytest.approx(0, abs=1e-9)
    assert fit.error(planner.COSTS, data) > 1e-3
    best = min((planner.CostModel(*c) for c in itertools.product(*fit.GRID.values())), key=lambda c: fit.error(c, data))
    assert best == truth
