"""ldsopt/fast_math.py: the erf expansion, evaluated in f32 as the kernels evaluate it (each
multiply-add rounded once, the quotient rounded once), against math.erf."""

import math

import numpy as np

from ldsopt import fast_math


def _f32(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def _erf_in_f32(x: np.ndarray) -> np.ndarray:
    xc = np.maximum(np.minimum(x, np.float32(fast_math.ERF_CLAMP)), np.float32(-fast_math.ERF_CLAMP))
    s = _f32(xc.astype(np.float64) ** 2)

    def horner(coeffs):
        acc = np.full_like(s, np.float32(coeffs[-1]))
        for c in reversed(coeffs[:-1]):  # fma: exact product and sum in f64, one rounding to f32
            acc = _f32(acc.astype(np.float64) * s + np.float64(np.float32(c)))
        return acc

    num = _f32(xc.astype(np.float64) * horner(fast_math.ERF_P))
    return _f32(num.astype(np.float64) / horner(fast_math.ERF_Q))


def test_erf_within_its_bound_over_f32():
    """4e-7 with a correctly rounded quotient; PTX's div.approx (2 ulp of a value at most 1,
    1.2e-7) keeps it within the 5e-7 the module states."""
    x = np.concatenate([np.linspace(-6, 6, 400001, dtype=np.float32),
                        np.float32([0.0, -0.0, 1e-30, -1e-30, 1e-6, 3.9199, 3.92, 3.9201, 20.0, -20.0])])
    got = _erf_in_f32(x).astype(np.float64)
    want = np.array([math.erf(float(v)) for v in x])
    assert np.abs(got - want).max() < 4e-7
    assert (got[x > 0] > 0).all() and (got[x < 0] < 0).all() and (np.abs(got) <= 1 + 2 * 2 ** -23).all()  # at most 2 ulp past 1
    small = (np.abs(x) < 1e-3) & (x != 0)  # relative near 0, where erf(x) ~ 2x / sqrt(pi)
    assert (np.abs(got[small] - want[small]) / np.abs(want[small])).max() < 4e-7


def test_erf_saturates_past_the_clamp_and_keeps_nan():
    got = _erf_in_f32(np.float32([4.0, 100.0, np.inf, -np.inf, np.nan]))
    assert np.allclose(got[:4], [1, 1, 1, -1], atol=4e-7) and np.isnan(got[4])
