"""`sensitivity`: each element's own scale, estimated by moving the inputs. On functions whose
sensitivity is known: a sum keeps the size of its terms when it cancels, an element no input
reaches has none, other elements do not matter."""

import numpy as np
import pytest

from ldsopt.run import sensitivity

rng = np.random.default_rng(0)


def _estimate(f, x, draws=sensitivity.DRAWS, dtype="f64"):
    step = sensitivity.delta([dtype])
    base = f(x)
    moved = [f(sensitivity.perturbed([x], [dtype], 7, d, step)[0]) for d in range(draws)]
    return sensitivity.estimate(base, moved, step)


def test_a_sum_is_judged_at_the_size_of_its_terms_even_where_it_cancels():
    """Rows of 4096 terms, the last summing to about 0: the expected c is sqrt(sum of x^2)."""
    x = rng.standard_normal((3, 4096))
    x[2, 2048:] = -x[2, :2048]  # cancels exactly
    c = _estimate(lambda a: a.sum(axis=1), x, draws=400)
    expected = np.sqrt((x**2).sum(axis=1))
    assert np.allclose(c, expected, rtol=0.15)
    assert abs(x[2].sum()) < 1e-9 and c[2] > 50


def test_an_element_is_judged_at_its_own_size_not_the_output_size():
    """999 ones and one 1e6, each an input passed through: each element's c is its value."""
    x = np.array([1.0] * 999 + [1e6])
    c = _estimate(lambda a: a * 1.0, x)
    assert np.allclose(c, x, rtol=1e-6)


def test_an_element_no_input_reaches_has_no_scale():
    c = _estimate(lambda a: np.concatenate([a, [40.96]]), np.ones(3))
    assert c[-1] == 0 and np.allclose(c[:3], 1.0)


def test_a_draw_that_changes_the_class_counts_as_zero():
    c = sensitivity.estimate(np.array([1.0, np.inf]), [np.array([1.0 + 2**-20, np.inf]), np.array([np.inf, 5.0])],
                             2**-20)
    assert np.isfinite(c).all() and c[1] == 0 and c[0] == pytest.approx(np.sqrt(0.5))


def test_moves_keep_types_and_leave_integers_alone():
    f16 = np.array([1.0, -2.0, 0.5], np.float16)
    bf16 = np.array([0x3F80, 0xC000], np.uint16)  # 1.0, -2.0
    i32 = np.array([3, 4], np.int32)
    step = sensitivity.delta(["f16", "bf16", "i32"])
    assert step == sensitivity.DELTA["bf16"]
    a, b, i = sensitivity.perturbed([f16, bf16, i32], ["f16", "bf16", "i32"], 0, 0, step)
    assert a.dtype == np.float16 and b.dtype == np.uint16 and i is i32
    assert np.allclose(np.abs(a.astype(np.float64) / f16 - 1), step, rtol=0.01)
    values = (b.astype(np.uint32) << 16).view(np.float32)
    assert np.allclose(np.abs(values / np.array([1.0, -2.0]) - 1), step)
    again = sensitivity.perturbed([f16, bf16, i32], ["f16", "bf16", "i32"], 0, 0, step)
    assert all(np.array_equal(p, q) for p, q in zip((a, b, i), again))  # seeded
