"""ldsopt/codegen/fast_math.py: the erf expansion and the forms around it (a scaled argument, 1 +- erf,
a product of erf such as GELU), evaluated in f32 as the kernels evaluate them (each
multiply-add rounded once, the quotient rounded once, 2^x rounded once) against math.erf; and
what `Expander` takes from a body."""

import math

import numpy as np
import pytest
from iree.compiler import ir

from ldsopt.codegen import fast_math


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


def _erfc_in_f32(x: np.ndarray, scale: float, factor: float, narrow: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(u, factor * erfc(scale * u)) of erfc_of_magnitude in f32, 2^x exact and rounded."""
    u = np.minimum(np.abs(x), np.float32(fast_math.ERF_CLAMP / scale))
    coeffs = [c * scale ** i for i, c in enumerate(fast_math.ERFC_LOG2_16 if narrow else fast_math.ERFC_LOG2)]
    coeffs[0] += math.log2(factor)
    acc = np.full_like(u, np.float32(coeffs[-1]))
    for c in reversed(coeffs[:-1]):
        acc = _fma(acc, u, np.float32(c))
    return u, _f32(np.exp2(acc.astype(np.float64)))


def _one_plus_in_f32(x: np.ndarray, sign: int, scale: float, narrow: bool = False) -> np.ndarray:
    _, e = _erfc_in_f32(x, abs(scale), 1.0, narrow)
    above = x >= 0 if sign * scale > 0 else x < 0
    return np.where(above, _f32(2 - e.astype(np.float64)), e)


def _product_in_f32(x: np.ndarray, sign: int, scale: float, k: float, narrow: bool = False) -> np.ndarray:
    s = sign * (1 if scale > 0 else -1)
    u, e = _erfc_in_f32(x, abs(scale), abs(k), narrow)
    relu = np.maximum(x, np.float32(0)) if s > 0 else np.minimum(x, np.float32(0))
    if 2 * k != 1:
        relu = _f32(relu.astype(np.float64) * np.float32(2 * k))
    return _fma(u if -s * k > 0 else -u, e, relu)


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


SCALES = [1.0, float(np.float32(1 / math.sqrt(2))), -0.5, 3.0]


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("scale", SCALES)
def test_one_plus_erf_from_erfc(sign, scale):
    """2 - erfc or erfc against 1 + sign erf(c x): within 1.9e-7 with an exact 2^x (the
    module's 4.5e-7 leaves CUDA's ex2.approx its 2 ulp of erfc)."""
    got = _one_plus_in_f32(X, sign, scale).astype(np.float64)
    want = np.array([1 + sign * math.erf(scale * float(v)) for v in X])
    assert np.abs(got - want).max() < 1.9e-7
    assert (got >= 0).all() and (got <= 2).all()


@pytest.mark.parametrize("k", [0.5, -3.0])
@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("scale", SCALES)
def test_product_of_erf_as_relu_and_erfc(k, sign, scale):
    """2k relu(x) - s k u erfc(|c| u) against k x (1 + sign erf(c x)) in f64: within k u
    1.5e-7 (erfc's error times its factor) and the roundings of 2k relu(x) and of the
    multiply-add (half an ulp of each)."""
    got = _product_in_f32(X, sign, scale, k).astype(np.float64)
    want = np.array([k * float(v) * (1 + sign * math.erf(scale * float(v))) for v in X])
    u = np.minimum(np.abs(X), np.float32(fast_math.ERF_CLAMP / abs(scale))).astype(np.float64)
    bound = abs(k) * u * 1.5e-7 + (np.abs(want) + np.abs(2 * k * X.astype(np.float64))) * 2 ** -24
    assert (np.abs(got - want) <= bound).all()


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("scale", SCALES)
def test_forms_rounded_to_16_bits_are_relatively_close(sign, scale):
    """By ERFC_LOG2_16, 1 + sign erf(c x) and 0.5 x (1 + sign erf(c x)) within 3e-5 of
    their value relatively (and the roundings of f32) wherever |x| is within the clamp: an
    eighth of f16's half ulp, small values included."""
    inside = X[np.abs(X) < fast_math.ERF_CLAMP / abs(scale)]
    exact = np.array([1 + sign * math.erf(scale * float(v)) for v in inside])
    got = _one_plus_in_f32(inside, sign, scale, narrow=True).astype(np.float64)
    assert (np.abs(got - exact) <= exact * (3e-5 + 2 ** -23)).all()
    got = _product_in_f32(inside, sign, scale, 0.5, narrow=True).astype(np.float64)
    want = 0.5 * inside.astype(np.float64) * exact
    assert (np.abs(got - want) <= np.abs(want) * 3e-5 + (np.abs(want) + np.abs(inside)) * 2 ** -24).all()


def test_product_keeps_inf_and_nan():
    """GELU (k = 0.5, c = 1/sqrt 2) of +inf is +inf, of NaN NaN; of -inf a tiny negative
    (the clamp's erfc times its u) where IREE's 0.5 x (1 + erf) computes -inf * 0 = NaN."""
    got = _product_in_f32(np.float32([np.inf, np.nan, -np.inf]), 1, float(np.float32(1 / math.sqrt(2))), 0.5)
    assert got[0] == np.inf and np.isnan(got[1]) and -1e-7 < got[2] < 0


BODY = """
func.func @f(%x: f32, %y: f32, %h: f16) -> (f32, f32, f32, f16, f32, f16) {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %c = arith.constant 0.70710678 : f32
  %s = arith.mulf %x, %c : f32
  %e = math.erf %s : f32
  %p = arith.addf %one, %e : f32
  %hx = arith.mulf %x, %half : f32
  %g = arith.mulf %hx, %p : f32
  %t = arith.divf %y, %c : f32
  %v = math.erf %t : f32
  %m = arith.subf %one, %v : f32
  %n = arith.mulf %y, %m : f32
  %w = arith.addf %n, %v : f32
  %e3 = math.erf %x : f32
  %p3 = arith.addf %e3, %one : f32
  %z = arith.mulf %p3, %y : f32
  %w16 = math.erf %h : f16
  %inf = arith.constant 0x7F800000 : f32
  %big = arith.mulf %x, %inf : f32
  %zz = math.erf %big : f32
  %half16 = arith.constant 0.5 : f16
  %one16 = arith.constant 1.0 : f16
  %sqrt2 = arith.constant 1.4140625 : f16
  %d16 = arith.divf %h, %sqrt2 : f16
  %e16 = math.erf %d16 : f16
  %p16 = arith.addf %e16, %one16 : f16
  %m16 = arith.mulf %h, %p16 : f16
  %g16 = arith.mulf %m16, %half16 : f16
  return %g, %w, %z, %w16, %zz, %g16 : f32, f32, f32, f16, f32, f16
}
"""


def _expand_body(backend, body: str = BODY):
    """Each op of `body` through one Expander: {name: taken}, {name: mapped}, the mapping, the
    ops by name, the module and the Expander."""
    module = ir.Module.parse(body)
    func = module.body.operations[0]
    block = func.regions[0].blocks[0]
    names = [line.split("=")[0].strip() for line in body.splitlines() if " = " in line]
    ops = dict(zip(names, (op.operation for op in block.operations if len(op.results) == 1)))
    expander = fast_math.Expander(block, backend)
    mapping = {}
    with ir.InsertionPoint(block.operations[0]):
        get = lambda v: mapping.get(v, v)  # noqa: E731
        took = {name: expander.expand(op, get, mapping) for name, op in ops.items()}
    mapped = {name for name, op in ops.items() if op.results[0] in mapping}
    return took, mapped, mapping, ops, module, expander


def test_expander_plans_products_of_erf_and_the_ops_they_stand_for():
    """GELU (0.5 x times 1 + erf(x c)) and y (1 - erf(y / c)) are products: their roots map,
    their inner multiplies and sums map nothing, and so does the erf read only by one. The
    erf of y is read as itself too: it maps its quotient. (1 + erf(x)) y is no product of
    erf (y is not erf's argument): the sum maps, the multiply is cloned. A multiply by inf
    is no scale to fold: it stays, and its erf reads it. An f16 GELU (as an f16 ONNX graph
    has it) is a product too, computed in f32 between extf and truncf."""
    with ir.Context(), ir.Location.unknown():
        took, mapped, mapping, ops, _, expander = _expand_body(None)
        assert {n for n, t in took.items() if t} == {"%s", "%e", "%p", "%hx", "%g", "%t", "%v", "%m", "%n", "%e3",
                                                     "%p3", "%w16", "%zz", "%d16", "%e16", "%p16", "%m16", "%g16"}
        assert mapped == {"%g", "%v", "%n", "%p3", "%w16", "%zz", "%g16"}
        assert str(mapping[ops["%w16"].results[0]].type) == "f16"
        assert mapping[ops["%g"].results[0]].owner.name == "math.fma"
        g16 = mapping[ops["%g16"].results[0]].owner
        assert g16.name == "arith.truncf" and g16.operands[0].owner.name == "math.fma"
        # The f16 product is rounded to 16 bits (its erfc is ERFC_LOG2_16); the f32 ones are not.
        assert {n: p.narrow for n, p in ((n, expander.products.get(ops[n].results[0])) for n in ops) if p} == \
            {"%g": False, "%n": False, "%g16": True}


@pytest.mark.parametrize("backend, exp2", [("cuda", "llvm.nvvm.ex2.approx.ftz.f"), ("rocm", "llvm.amdgcn.exp2"),
                                           ("vulkan", "math.exp2"), (None, "math.exp2")])
def test_exp2_by_backend(backend, exp2):
    """erfc's 2^x: the hardware's instruction where IREE would expand math.exp2 (CUDA) or
    handle subnormal results erfc never has (ROCm); math.exp2 elsewhere."""
    with ir.Context(), ir.Location.unknown():
        *_, module, _ = _expand_body(backend)
        text = str(module)
        assert exp2 in text and ("math.exp2" in text) == (exp2 == "math.exp2")


def _one_plus_tanh_in_f32(x: np.ndarray, sign: int, scale: float) -> np.ndarray:
    """one_plus_tanh in f32: the exponent's product rounded once, 2^x rounded once, the sum
    and the quotient each rounded once."""
    a = _f32(x.astype(np.float64) * np.float32(-2.0 * sign * scale / math.log(2.0)))
    with np.errstate(over="ignore"):
        e = _f32(np.exp2(a.astype(np.float64)))
        return _f32(2.0 / _f32(1.0 + e.astype(np.float64)).astype(np.float64))


@pytest.mark.parametrize("sign, scale", [(1, 1.0), (-1, 1.0), (1, float(np.float32(math.sqrt(2 / math.pi)))),
                                         (1, -0.5)])
def test_one_plus_tanh_as_a_sigmoid(sign, scale):
    """1 +- tanh(c x) as 2 / (1 + 2^(-+2 c log2(e) x)), in f32, against the same identity in
    f64 (1 + tanh in f64 cancels to 0 past |x| = 19): within 1e-6 relatively for |x| <= 6,
    within 3e-6 far out (the exponent's rounding grows with it: 1 + tanh(-20) = 8.5e-18), 0
    where the value is below f32's range; inf and NaN follow tanh."""
    want = lambda x: 2.0 / (1.0 + np.exp(-2.0 * sign * scale * x.astype(np.float64)))  # noqa: E731
    with np.errstate(over="ignore"):
        near, far = X[np.abs(X) <= 6], np.float32([-20.0, 20.0, 12.5, -12.5])
        for x, bound in ((near, 1e-6), (far, 3e-6)):
            assert np.max(np.abs(_one_plus_tanh_in_f32(x, sign, scale) - want(x)) / want(x)) < bound
        tail = np.float32([60.0, -60.0, 1e4, -1e4]) / np.float32(abs(scale))
        assert np.all(np.abs(_one_plus_tanh_in_f32(tail, sign, scale) - want(tail)) < np.finfo(np.float32).tiny)
    special = _one_plus_tanh_in_f32(np.float32([np.inf, -np.inf, np.nan]), 1, 1.0)
    assert special[0] == 2.0 and special[1] == 0.0 and np.isnan(special[2])


TANH_BODY = """
func.func @f(%x: f32, %h: f16) -> (f32, f16, f32) {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %c = arith.constant 0.797884583 : f32
  %s = arith.mulf %x, %c : f32
  %t = math.tanh %s : f32
  %p = arith.addf %t, %one : f32
  %g = arith.mulf %p, %half : f32
  %one16 = arith.constant 1.0 : f16
  %c16 = arith.constant 0.7978 : f16
  %s16 = arith.mulf %h, %c16 : f16
  %t16 = math.tanh %s16 : f16
  %p16 = arith.subf %one16, %t16 : f16
  %t2 = math.tanh %x : f32
  %p2 = arith.addf %one, %t2 : f32
  %r = arith.mulf %p2, %t2 : f32
  return %g, %p16, %r : f32, f16, f32
}
"""


def test_expander_takes_sums_with_tanh():
    """`1 + tanh(c x)` maps to the sigmoid form with c folded (its multiply and the tanh map
    nothing), in f32 between extf and truncf for f16; a tanh also read elsewhere is cloned for
    that reader (expand says False) and its sum still takes the form."""
    with ir.Context(), ir.Location.unknown():
        took, mapped, mapping, ops, module, _ = _expand_body("cuda", TANH_BODY)
        assert {n for n, t in took.items() if t} == {"%s", "%t", "%p", "%s16", "%t16", "%p16", "%p2"}
        assert mapped == {"%p", "%p16", "%p2"}
        p16 = mapping[ops["%p16"].results[0]].owner
        assert p16.name == "arith.truncf" and p16.operands[0].owner.name == "arith.divf"
        text = str(module)
        assert "llvm.nvvm.ex2.approx.ftz.f" in text and "afn" in text
