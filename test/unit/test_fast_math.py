"""ldsopt/fast_math.py: the erf expansion and its GELU forms (a scaled argument, 1 +- erf),
evaluated in f32 as the kernels evaluate them (each multiply-add rounded once, the quotient
rounded once), against math.erf; and which body ops `expand` takes."""

import math

import numpy as np
import pytest
from iree.compiler import ir

from ldsopt import fast_math


def _f32(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def _fma(a, b, c):  # exact product and sum in f64, one rounding to f32
    return _f32(a.astype(np.float64) * b + np.float64(c) if np.isscalar(c) else
                a.astype(np.float64) * b + c.astype(np.float64))


def _pieces(x: np.ndarray, scale: float = 1.0):
    """xc, P and Q of Erf.of(x, scale) in f32."""
    bound = np.float32(fast_math.ERF_CLAMP / abs(scale))
    xc = np.maximum(np.minimum(x, bound), -bound)
    s = _f32(xc.astype(np.float64) ** 2)

    def horner(coeffs):
        acc = np.full_like(s, np.float32(coeffs[-1]))
        for c in reversed(coeffs[:-1]):
            acc = _fma(acc, s, np.float32(c))
        return acc

    return (xc, horner([c * scale ** (2 * i + 1) for i, c in enumerate(fast_math.ERF_P)]),
            horner([c * scale ** (2 * i) for i, c in enumerate(fast_math.ERF_Q)]))


def _erf_in_f32(x: np.ndarray, scale: float = 1.0) -> np.ndarray:
    xc, p, q = _pieces(x, scale)
    return _f32(_f32(xc.astype(np.float64) * p).astype(np.float64) / q)


def _one_plus_in_f32(x: np.ndarray, sign: int, scale: float = 1.0) -> np.ndarray:
    xc, p, q = _pieces(x, scale)
    return _f32(_fma(sign * xc, p, q).astype(np.float64) / q)


X = np.concatenate([np.linspace(-6, 6, 400001, dtype=np.float32),
                    np.float32([0.0, -0.0, 1e-30, -1e-30, 1e-6, 3.9199, 3.92, 3.9201, 20.0, -20.0])])


def test_erf_within_its_bound_over_f32():
    """4e-7 with a correctly rounded quotient; PTX's div.approx (2 ulp of a value at most 1,
    1.2e-7) keeps it within the 5e-7 the module states."""
    got = _erf_in_f32(X).astype(np.float64)
    want = np.array([math.erf(float(v)) for v in X])
    assert np.abs(got - want).max() < 4e-7
    assert (got[X > 0] > 0).all() and (got[X < 0] < 0).all() and (np.abs(got) <= 1 + 2 * 2 ** -23).all()  # at most 2 ulp past 1
    small = (np.abs(X) < 1e-3) & (X != 0)  # relative near 0, where erf(x) ~ 2x / sqrt(pi)
    assert (np.abs(got[small] - want[small]) / np.abs(want[small])).max() < 4e-7


def test_erf_saturates_past_the_clamp_and_keeps_nan():
    got = _erf_in_f32(np.float32([4.0, 100.0, np.inf, -np.inf, np.nan]))
    assert np.allclose(got[:4], [1, 1, 1, -1], atol=4e-7) and np.isnan(got[4])


@pytest.mark.parametrize("scale", [float(np.float32(1 / math.sqrt(2))), 1 / float(np.float32(math.sqrt(2))), -0.5, 3.0])
def test_scale_in_the_coefficients_keeps_the_bound(scale):
    """erf(c x) with c folded into P, Q and the clamp, against erf of the exact product."""
    got = _erf_in_f32(X, scale).astype(np.float64)
    want = np.array([math.erf(scale * float(v)) for v in X])
    assert np.abs(got - want).max() < 4e-7
    assert np.array_equal(np.sign(got), np.sign(scale) * np.sign(X.astype(np.float64)))


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("scale", [1.0, float(np.float32(1 / math.sqrt(2)))])
def test_one_plus_erf_as_one_quotient(sign, scale):
    """(Q + sign x P) / Q against 1 + sign erf(c x): within 4.5e-7 (a correctly rounded
    quotient), so that div.approx keeps it within 5e-7 too."""
    got = _one_plus_in_f32(X, sign, scale).astype(np.float64)
    want = np.array([1 + sign * math.erf(scale * float(v)) for v in X])
    assert np.abs(got - want).max() < 4.5e-7


BODY = """
func.func @f(%x: f32, %h: f16) -> (f32, f32, f16, f32) {
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.70710678 : f32
  %s = arith.mulf %x, %c : f32
  %e = math.erf %s : f32
  %p = arith.addf %one, %e : f32
  %m = arith.subf %one, %e : f32
  %q = arith.mulf %p, %m : f32
  %t = arith.divf %x, %c : f32
  %u = arith.addf %t, %t : f32
  %v = math.erf %t : f32
  %w = math.erf %h : f16
  %inf = arith.constant 0x7F800000 : f32
  %big = arith.mulf %x, %inf : f32
  %z = math.erf %big : f32
  return %q, %v, %w, %z : f32, f32, f16, f32
}
"""


def test_expand_takes_the_erf_forms_and_folds_a_lone_scale():
    """The multiply read only by an erf folds (nothing mapped); a division read elsewhere
    too stays for those; an erf read only through 1 +- erf maps no quotient of its own; a
    scale outside [1/64, 64] (inf) is not folded."""
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(BODY)
        func = module.body.operations[0]
        names = ("%one", "%c", "%s", "%e", "%p", "%m", "%q", "%t", "%u", "%v", "%w", "%inf", "%big", "%z")
        ops = dict(zip(names, (op.operation for op in func.regions[0].blocks[0].operations if len(op.results) == 1)))
        mapping, erfs = {}, {}
        with ir.InsertionPoint(func.regions[0].blocks[0].operations[0]):
            get = lambda v: mapping.get(v, v)  # noqa: E731
            took = {name: fast_math.expand(op, get, mapping, erfs) for name, op in ops.items()}
        # A multiply by inf is no scale to fold: it stays, and the erf reads it.
        assert {n for n, t in took.items() if t} == {"%s", "%e", "%p", "%m", "%v", "%w", "%z"}
        assert ops["%e"].results[0] not in mapping and ops["%s"].results[0] not in mapping
        assert all(ops[n].results[0] in mapping for n in ("%p", "%m", "%v", "%w"))
        assert str(mapping[ops["%w"].results[0]].type) == "f16"
