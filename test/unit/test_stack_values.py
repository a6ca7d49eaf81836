"""stack_values.judge: a stacked block's output against the f32 twin, bounded by the 16-bit twin."""

import numpy as np

from ldsopt.measure import stack_values


def _outputs(seed=0):
    rng = np.random.default_rng(seed)
    ref = rng.standard_normal((8, 64))
    low = (ref + 1e-3 * rng.standard_normal(ref.shape)).astype(np.float16)
    return ref, low


def test_rounding_like_pytorchs_passes():
    ref, low = _outputs()
    ours = (ref + 2e-3 * np.random.default_rng(1).standard_normal(ref.shape)).astype(np.float16)
    r = stack_values.judge(ours, low, ref)
    assert r["passed"] and r["twin_relative_error"] < r["relative_error"] <= r["bound"], r
    assert r["bound"] == stack_values.RATIO * r["twin_relative_error"]


def test_a_layer_too_few_or_a_wrong_statistic_fails():
    ref, low = _outputs()
    for wrong in (0.9 * ref, ref + 0.05, np.roll(ref, 1, axis=0)):
        r = stack_values.judge(wrong.astype(np.float16), low, ref)
        assert not r["passed"] and r["relative_error"] > 10 * r["bound"], r


def test_a_nan_fails_and_is_reported():
    ref, low = _outputs()
    ours = low.copy()
    ours[3, 5] = np.nan
    r = stack_values.judge(ours, low, ref)
    assert not r["passed"] and np.isnan(r["relative_error"])
    assert stack_values.line({"layers": 12, **r}).startswith("values of the 12 layers: FAIL")


def test_the_bound_never_falls_below_the_floor():
    ref = np.ones((4, 4))
    r = stack_values.judge(ref.astype(np.float16), ref.astype(np.float16), ref)
    assert r["twin_relative_error"] == 0 and r["bound"] == stack_values.FLOOR and r["passed"]
    # A twin that overflowed leaves the floor as the bound, not NaN (which would pass nothing
    # silently, or everything where a comparison were written the other way round).
    r = stack_values.judge(ref.astype(np.float16), np.full((4, 4), np.inf, np.float16), ref)
    assert r["bound"] == stack_values.FLOOR and r["passed"]


def test_a_failed_run_is_reported_as_an_error():
    assert stack_values.line({"layers": 12, "error": "RuntimeError: iree-run-module failed"}) == \
        "values of the 12 layers: error: RuntimeError: iree-run-module failed"
