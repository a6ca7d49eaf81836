"""Branch-free expansions of math functions that ldsopt's kernels apply per element, each within
a stated distance of the function in f32.

- `erf(x)` (f32, scalar or vector) = x P(x^2) / Q(x^2) on x clamped to [-CLAMP, CLAMP], P of
  degree 6 and Q of degree 4 in x^2 (ERF_P, ERF_Q, lowest degree first), the quotient
  approximate (`fastmath<afn>`: PTX `div.approx.f32`, within 2 ulp; Q is at least 1). Within
  5e-7 of erf over every f32 (test/unit/test_fast_math.py evaluates it in f32 against
  math.erf), a few ulp of values at most 1 (it may pass 1 by 2 ulp); 2 min/max, 12
  multiply-adds and a division an element. What it replaces: IREE 3.13 lowers `math.erf` by
  MLIR's polynomial approximation, which picks its coefficients by interval (selects an
  element) and divides exactly (PTX `div.rn.f32`); what that cost a GELU epilogue is in
  bench/results/cuda-bert/ldmatrix/README.md.
  The coefficients are a weighted least-squares fit of erf(x) / x on 4000 Chebyshev points of
  [0, CLAMP], iterated on the denominator (Sanathanan-Koerner), rounded to f32; CLAMP is where
  1 - erf falls below half an ulp of 1.

Anything else is cloned as it is (ldsopt/elementwise.py, `clone_body`).
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, math

from ldsopt.ir_types import scalar_type

ERF_CLAMP = 3.92
ERF_P = (1.128378987312317, 0.20303182303905487, 0.050984494388103485, 0.0038376376032829285,
         0.00014542779535986483, -1.975817895072396e-06, 1.9915688653782126e-08)
ERF_Q = (1.0, 0.5132623910903931, 0.11628466844558716, 0.014621250331401825, 0.0009902054443955421)


def erf(x: ir.Value) -> ir.Value:
    """erf of `x` (f32 or a vector of f32) as the module docstring states."""
    t = x.type
    elem = scalar_type(t)

    def const(c: float) -> ir.Value:
        attr = ir.FloatAttr.get(elem, c)
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr) if isinstance(t, ir.VectorType) else attr)

    def horner(coeffs: tuple[float, ...], s: ir.Value) -> ir.Value:
        acc = const(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            acc = math.fma(acc, s, const(c))
        return acc

    xc = arith.maximumf(arith.minimumf(x, const(ERF_CLAMP)), const(-ERF_CLAMP))
    s = arith.mulf(xc, xc)
    num = arith.mulf(xc, horner(ERF_P, s))
    return arith.divf(num, horner(ERF_Q, s), fastmath=ir.Attribute.parse("#arith.fastmath<afn>"))


def is_f32(t: ir.Type) -> bool:
    return isinstance(scalar_type(t), ir.F32Type)
