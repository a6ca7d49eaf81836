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
- The two forms around erf in GELU by erf (0.5 y (1 + erf(y / sqrt 2))), in f32 (`Erf`):
  - `erf(c * x)` and `erf(x / c)`, c a constant within [1/64, 64] in magnitude (so that its
    powers stay normal f32 numbers; others, inf and NaN among them, are left as they are): c
    goes into the coefficients (P_i c^(2i+1),
    Q_i c^(2i), the clamp at CLAMP / |c|) instead of a multiply (or an exact division) an
    element. It skips the rounding of c * x to f32: at most 6e-8 of erf more or less.
  - `1 + erf(x)` and `1 - erf(x)` as one quotient, (Q + x P) / Q and (Q - x P) / Q: a
    multiply-add instead of a multiply and an add.
- f16 and bf16 `math.erf`: in f32 (`extf`, the expansion, `truncf`), as IREE computes it.

Anything else is cloned as it is (ldsopt/elementwise.py, `clone_body`).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from iree.compiler import ir
from iree.compiler.dialects import arith, math

from ldsopt.ir_types import scalar_type

ERF_CLAMP = 3.92
ERF_P = (1.128378987312317, 0.20303182303905487, 0.050984494388103485, 0.0038376376032829285,
         0.00014542779535986483, -1.975817895072396e-06, 1.9915688653782126e-08)
ERF_Q = (1.0, 0.5132623910903931, 0.11628466844558716, 0.014621250331401825, 0.0009902054443955421)
_AFN = "#arith.fastmath<afn>"


def _const(t: ir.Type, c: float) -> ir.Value:
    """`c` as a value of type `t` (a float type or a vector of one)."""
    attr = ir.FloatAttr.get(scalar_type(t), c)
    return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr) if isinstance(t, ir.VectorType) else attr)


@dataclasses.dataclass(frozen=True)
class Erf:
    """erf(scale * x) of an f32 value (or vector) as the pieces of its quotient: xc P / Q,
    xc being x clamped to [-CLAMP / |scale|, CLAMP / |scale|] and P, Q its polynomials
    (scale folded into their coefficients)."""

    xc: ir.Value
    p: ir.Value
    q: ir.Value

    @classmethod
    def of(cls, x: ir.Value, scale: float = 1.0) -> Erf:
        t = x.type

        def horner(coeffs: list[float], s: ir.Value) -> ir.Value:
            acc = _const(t, coeffs[-1])
            for c in reversed(coeffs[:-1]):
                acc = math.fma(acc, s, _const(t, c))
            return acc

        bound = ERF_CLAMP / abs(scale)
        xc = arith.maximumf(arith.minimumf(x, _const(t, bound)), _const(t, -bound))
        s = arith.mulf(xc, xc)
        p = horner([c * scale ** (2 * i + 1) for i, c in enumerate(ERF_P)], s)
        return cls(xc, p, horner([c * scale ** (2 * i) for i, c in enumerate(ERF_Q)], s))

    def value(self) -> ir.Value:
        """erf."""
        return arith.divf(arith.mulf(self.xc, self.p), self.q, fastmath=ir.Attribute.parse(_AFN))

    def one_plus(self, sign: int) -> ir.Value:
        """1 + sign * erf (sign +1 or -1): (Q + sign xc P) / Q."""
        xc = self.xc if sign > 0 else arith.negf(self.xc)
        return arith.divf(math.fma(xc, self.p, self.q), self.q, fastmath=ir.Attribute.parse(_AFN))


def erf(x: ir.Value) -> ir.Value:
    """erf of `x` (f32 or a vector of f32) as the module docstring states."""
    return Erf.of(x).value()


def float_constant(v: ir.Value) -> float | None:
    """The value of `v` if an `arith.constant` defines it as a float (or a splat of one)."""
    owner = v.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)) or owner.operation.name != "arith.constant":
        return None
    attr = owner.operation.attributes["value"]
    if isinstance(attr, ir.DenseFPElementsAttr) and attr.is_splat:
        attr = attr.get_splat_value()
    return ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else None


def is_f32(t: ir.Type) -> bool:
    return isinstance(scalar_type(t), ir.F32Type)


def _is_16_bit_float(t: ir.Type) -> bool:
    return isinstance(scalar_type(t), (ir.F16Type, ir.BF16Type))


def _users(v: ir.Value) -> list[ir.Operation]:
    return [u.owner.operation for u in v.uses]


def _scale(op: ir.Operation) -> tuple[ir.Value, float] | None:
    """(x, c) if `op` is an f32 multiply of x by a constant c, or a division of x by 1 / c,
    with 1/64 <= |c| <= 64 (its powers in the coefficients stay normal f32 numbers); else None."""
    if op.name not in ("arith.mulf", "arith.divf") or not is_f32(op.results[0].type):
        return None
    sides = ((0, 1), (1, 0)) if op.name == "arith.mulf" else ((0, 1),)
    for mine, other in sides:
        c = float_constant(op.operands[other])
        if c is not None and 1 / 64 <= abs(c) <= 64:
            return op.operands[mine], c if op.name == "arith.mulf" else 1.0 / c
    return None


def _erf_argument(erf_op: ir.Operation) -> tuple[ir.Value, float]:
    """An f32 erf's argument as (x, c), argument = c * x, where a constant scale defines it."""
    arg = erf_op.operands[0]
    if isinstance(arg.owner, (ir.Operation, ir.OpView)) and (folded := _scale(arg.owner.operation)):
        return folded
    return arg, 1.0


def _one_plus(op: ir.Operation, erf: ir.Value) -> int | None:
    """+1 if `op` is an f32 `1 + erf` or `erf + 1` of `erf`, -1 if `1 - erf`; else None."""
    if op.name not in ("arith.addf", "arith.subf") or not is_f32(op.results[0].type):
        return None
    a, b = op.operands
    if op.name == "arith.subf":
        return -1 if b == erf and a != erf and float_constant(a) == 1.0 else None
    other = b if a == erf else a if b == erf else None
    return 1 if other is not None and other != erf and float_constant(other) == 1.0 else None


def expand(op: ir.Operation, get: Callable[[ir.Value], ir.Value], mapping: dict, erfs: dict) -> bool:
    """Expands a scalar body's `op` where this module does (`math.erf` of f32, f16 or bf16;
    an f32 `1 + erf`, `erf + 1` or `1 - erf` of an erf expanded before; an f32 multiply or
    division by a constant whose one user is an f32 erf, which folds it), at the insertion
    point, on the values `get` gives for its operands; records the new values of its results
    that other ops read in `mapping` (body value -> new value). False, doing nothing, for any
    other op. `erfs` (body value -> Erf) carries the f32 erfs from one call to the next."""
    res = op.results[0] if len(op.results) == 1 else None
    if res is None:
        return False
    if op.name == "math.erf" and is_f32(res.type):
        x, scale = _erf_argument(op)
        erfs[res] = e = Erf.of(get(x), scale)
        if any(_one_plus(user, res) is None for user in _users(res)):
            mapping[res] = e.value()
        return True
    if op.name == "math.erf" and _is_16_bit_float(res.type):
        x = get(op.operands[0])
        wide = ir.VectorType.get(x.type.shape, ir.F32Type.get()) if isinstance(x.type, ir.VectorType) \
            else ir.F32Type.get()
        mapping[res] = arith.truncf(x.type, erf(arith.extf(wide, x)))
        return True
    for erf_value, e in erfs.items():
        if (sign := _one_plus(op, erf_value)) is not None:
            mapping[res] = e.one_plus(sign)
            return True
    users = _users(res)
    return _scale(op) is not None and len(users) == 1 and users[0].name == "math.erf" and \
        is_f32(users[0].results[0].type)
