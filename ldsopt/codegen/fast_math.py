"""Branch-free expansions of the math functions that ldsopt's kernels apply per element, each
within a stated distance of the function in f32; `Expander` picks them for a scalar body.

- `erf(x)` (f32, scalar or vector) = x P(x^2) / Q(x^2) on x clamped to [-CLAMP, CLAMP], P of
  degree 6 and Q of degree 4 in x^2 (ERF_P, ERF_Q, lowest degree first), the quotient
  approximate (`fastmath<afn>`: PTX `div.approx.f32`, within 2 ulp; Q is at least 1). Within
  5e-7 of erf over every f32 (test/unit/test_fast_math.py evaluates it in f32 against
  math.erf), a few ulp of values at most 1 (it may pass 1 by 2 ulp); 2 min/max, 12
  multiply-adds and a division an element. What it replaces: IREE 3.13 lowers `math.erf` by
  MLIR's polynomial approximation, which picks its coefficients by interval (selects an
  element) and divides exactly (PTX `div.rn.f32`).
  The coefficients are a weighted least-squares fit of erf(x) / x on 4000 Chebyshev points of
  [0, CLAMP], iterated on the denominator (Sanathanan-Koerner), rounded to f32; CLAMP is where
  1 - erf falls below half an ulp of 1.
- `erfc(u)` for u >= 0, the piece of the forms around erf, = 2^L(u) on u clamped to CLAMP, L a
  polynomial of degree 7 (ERFC_LOG2): 1 min, 7 multiply-adds and one 2^x an element, no
  division. L is the minimax fit, in the absolute error of erfc, of log2 erfc on [0, CLAMP]
  (Lawson's iteration on 20000 Chebyshev points, log2 erfc's error weighted by erfc, rounded
  to f32): in f32 within 1.3e-7 of erfc, plus the 2^x's own error (CUDA:
  `ex2.approx.ftz.f32`, 2 ulp of a value at most 1).
  A form whose result is rounded to 16 bits (it is f16 or bf16, or only truncf to one reads
  it) takes ERFC_LOG2_16 instead: degree 6, the minimax fit in erfc's relative error
  (Lawson's iteration on 8000 Chebyshev points, log2 erfc's error unweighted), within 2.9e-5
  of erfc relatively (f16's half ulp is 2.4e-4); so its result, before that rounding, is
  within 2.9e-5 of the exact value relatively, small values included, up to the clamp. One
  multiply-add fewer.
  2^x is the hardware's instruction where the backend would not give it: on CUDA IREE 3.13
  expands `math.exp2` into MLIR's polynomial for exp (about 20 operations), so it is PTX's
  `ex2.approx.ftz`; on ROCm `math.exp2` scales for subnormal results (3 operations more), so
  it is `llvm.amdgcn.exp2` (v_exp_f32). Its input is at least L(CLAMP) = -26.3: no result
  is subnormal. Elsewhere (SPIR-V) it is `math.exp2`.
- The forms around erf in GELU by erf (0.5 y (1 + erf(y / sqrt 2))):
  - `erf(c * x)` and `erf(x / c)`, c a constant within [1/64, 64] in magnitude (so that its
    powers stay normal f32 numbers; others, inf and NaN among them, are left as they are): c
    goes into the coefficients (P_i c^(2i+1), Q_i c^(2i), L_i |c|^i, the clamp at
    CLAMP / |c|) instead of a multiply (or an exact division) an element. It skips the
    rounding of c * x to f32: at most 6e-8 of erf more or less.
  - `1 + erf(x)`, `erf(x) + 1` and `1 - erf(x)`: 2 - erfc(|x|) or erfc(|x|) as the sign of x
    selects; within 1.9e-7 with an exact 2^x, 4.5e-7 with CUDA's.
  - A product of constants, x and `1 +- erf(c * x)` (GELU: 0.5 * x * (1 + erf(x / sqrt 2)),
    in any order and grouping of its multiplies, each read only by the next): with s the
    sign of the sum times that of c and k the constants' product,
        k x (1 + s erf(|c| x)) = 2k relu_s(x) - s k |x| erfc(|c| |x|),
    relu_+ = max(x, 0), relu_- = min(x, 0), |x| clamped as erfc's argument is (past it the
    second term is below half an ulp of the first, or below 5e-8 |k| / |c| where the first
    is 0), and k folded into L's constant term: a max and a multiply-add on top of erfc, no
    select. GELU by erf is 11 operations an element.
- `1 + tanh(x)`, `tanh(x) + 1` and `1 - tanh(x)` (GELU by tanh: 0.5 y (1 + tanh(c (y +
  0.044715 y^3))), as GPT-2 writes it) are 2 sigmoid(+-2x) = 2 / (1 + 2^(-+2 log2(e) x)):
  one 2^x and one approximate division (`fastmath<afn>`), where IREE 3.13 lowers `math.tanh`
  by MLIR's rational approximation (9 multiply-adds, 3 selects and an exact division). In
  f32 within 1e-6 of 1 + tanh relatively for |x| <= 6, small values included, and 3e-6 out
  to |x| = 20 (the exponent's rounding grows with x), plus CUDA's 2^x and division (2 ulp
  each); a sum that falls below f32's range is a 2^x that overflows (2 / inf = 0). A constant
  scale of the argument, `tanh(c * x)` or `tanh(x / c)` (c as for erf), goes into the
  exponent's factor. A `math.tanh` read by anything else is cloned for those readers.
- Each of these on f16 or bf16 (an f16 ONNX graph's GELU): in f32, between one `extf` and one
  `truncf`, as IREE computes an f16 `math.erf`; a form that stands for several ops skips
  their 16-bit roundings in between, so its result is the exact value's rounding to 16 bits
  or next to it.

Anything else is cloned as it is (ldsopt/codegen/elementwise.py, `clone_body`).
"""

from __future__ import annotations

import dataclasses
import math as pymath
from typing import Callable

from iree.compiler import ir
from iree.compiler.dialects import arith, llvm, math, vector

from ldsopt.ir_types import scalar_type

ERF_CLAMP = 3.92
ERF_P = (1.128378987312317, 0.20303182303905487, 0.050984494388103485, 0.0038376376032829285,
         0.00014542779535986483, -1.975817895072396e-06, 1.9915688653782126e-08)
ERF_Q = (1.0, 0.5132623910903931, 0.11628466844558716, 0.014621250331401825, 0.0009902054443955421)
ERFC_LOG2 = (1.035927255088609e-07, -1.627916693687439, -0.918306291103363, -0.14903296530246735,
             0.029557092115283012, -0.002382872626185417, -0.0004312286910135299, 9.582875645719469e-05)
ERFC_LOG2_16 = (-3.812973227468319e-05, -1.6271283626556396, -0.9208045601844788, -0.14681638777256012,
                0.029855655506253242, -0.0037146422546356916, 0.0002069533074973151)
_AFN = "#arith.fastmath<afn>"


def _const(t: ir.Type, c: float) -> ir.Value:
    """`c` as a value of type `t` (a float type or a vector of one)."""
    attr = ir.FloatAttr.get(scalar_type(t), c)
    return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr) if isinstance(t, ir.VectorType) else attr)


def _horner(coeffs: list[float], s: ir.Value) -> ir.Value:
    acc = _const(s.type, coeffs[-1])
    for c in reversed(coeffs[:-1]):
        acc = math.fma(acc, s, _const(s.type, c))
    return acc


# The hardware's 2^x of an f32, without its library's handling of results below the normal
# range (which erfc's 2^x never reaches), by backend.
_EXP2_INTRINSIC = {"cuda": "llvm.nvvm.ex2.approx.ftz.f", "rocm": "llvm.amdgcn.exp2"}


def exp2(x: ir.Value, backend: str | None) -> ir.Value:
    """2^x of an f32 value or vector by the hardware's instruction, for results that are normal
    f32 numbers or may be flushed to zero (an attention's softmax weights; see the module
    docstring)."""
    intrinsic = _EXP2_INTRINSIC.get(backend)
    if intrinsic is None:
        return math.exp2(x, fastmath=ir.Attribute.parse(_AFN))

    def ex2(s: ir.Value) -> ir.Value:
        return llvm.call_intrinsic(s.type, intrinsic, [s], [], [])

    if not isinstance(x.type, ir.VectorType):
        return ex2(x)
    out = x
    for i in range(x.type.shape[0]):
        out = vector.insert(ex2(vector.extract(x, [], [i])), out, [], [i])
    return out


@dataclasses.dataclass(frozen=True)
class Erf:
    """erf(scale * x) of an f32 value (or vector) as its quotient xc P / Q, xc being x clamped
    to [-CLAMP / |scale|, CLAMP / |scale|] and P, Q its polynomials (scale folded into their
    coefficients)."""

    xc: ir.Value
    p: ir.Value
    q: ir.Value

    @classmethod
    def of(cls, x: ir.Value, scale: float = 1.0) -> Erf:
        t = x.type
        bound = ERF_CLAMP / abs(scale)
        xc = arith.maximumf(arith.minimumf(x, _const(t, bound)), _const(t, -bound))
        s = arith.mulf(xc, xc)
        p = _horner([c * scale ** (2 * i + 1) for i, c in enumerate(ERF_P)], s)
        return cls(xc, p, _horner([c * scale ** (2 * i) for i, c in enumerate(ERF_Q)], s))

    def value(self) -> ir.Value:
        """erf."""
        return arith.divf(arith.mulf(self.xc, self.p), self.q, fastmath=ir.Attribute.parse(_AFN))


def erfc_of_magnitude(x: ir.Value, scale: float, factor: float, backend: str | None,
                      narrow: bool = False) -> tuple[ir.Value, ir.Value]:
    """(u, factor * erfc(scale * u)) with u = |x| clamped to CLAMP / scale (scale > 0,
    factor > 0), by ERFC_LOG2_16 where `narrow` (a result rounded to 16 bits), else by
    ERFC_LOG2; NaN stays NaN (the clamp is `minimumf`)."""
    u = arith.minimumf(math.absf(x), _const(x.type, ERF_CLAMP / scale))
    coeffs = [c * scale ** i for i, c in enumerate(ERFC_LOG2_16 if narrow else ERFC_LOG2)]
    coeffs[0] += pymath.log2(factor)
    return u, exp2(_horner(coeffs, u), backend)


def one_plus_erf(x: ir.Value, scale: float, sign: int, backend: str | None, narrow: bool = False) -> ir.Value:
    """1 + sign * erf(scale * x): 2 - erfc(|scale x|) where sign * scale * x >= 0, else erfc."""
    _, e = erfc_of_magnitude(x, abs(scale), 1.0, backend, narrow)
    s = sign * (1 if scale > 0 else -1)
    zero = _const(x.type, 0.0)
    above = arith.cmpf(arith.CmpFPredicate.OGE if s > 0 else arith.CmpFPredicate.OLT, x, zero)
    return arith.select(above, arith.subf(_const(x.type, 2.0), e), e)


def one_plus_tanh(x: ir.Value, scale: float, sign: int, backend: str | None) -> ir.Value:
    """1 + sign * tanh(scale * x) = 2 / (1 + 2^(-2 sign scale log2(e) x))."""
    e = exp2(arith.mulf(x, _const(x.type, -2.0 * sign * scale / pymath.log(2.0))), backend)
    return arith.divf(_const(x.type, 2.0), arith.addf(_const(x.type, 1.0), e), fastmath=ir.Attribute.parse(_AFN))


_ONE_PLUS = {"math.erf": one_plus_erf, "math.tanh": lambda x, scale, sign, backend, narrow: one_plus_tanh(
    x, scale, sign, backend)}


@dataclasses.dataclass(frozen=True)
class ErfProduct:
    """k * x * (1 + sign * erf(scale * x)): GELU by erf and its variants."""

    x: ir.Value
    scale: float
    sign: int
    k: float
    narrow: bool  # rounded to 16 bits

    def emit(self, x: ir.Value, backend: str | None) -> ir.Value:
        s = self.sign * (1 if self.scale > 0 else -1)
        u, e = erfc_of_magnitude(x, abs(self.scale), abs(self.k), backend, self.narrow)
        zero = _const(x.type, 0.0)
        # maxnumf / minnumf: a NaN x reaches the result through u (the clamp keeps NaN).
        relu = arith.maxnumf(x, zero) if s > 0 else arith.minnumf(x, zero)
        if 2 * self.k != 1.0:
            relu = arith.mulf(relu, _const(x.type, 2 * self.k))
        return math.fma(u if -s * self.k > 0 else arith.negf(u), e, relu)


def float_constant(v: ir.Value) -> float | None:
    """The value of `v` if an `arith.constant` defines it as a float (or a splat of one)."""
    owner = v.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)) or owner.operation.name != "arith.constant":
        return None
    attr = owner.operation.attributes["value"]
    if isinstance(attr, ir.DenseFPElementsAttr) and attr.is_splat:
        attr = attr.get_splat_value()
    return ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else None


def _is_float(t: ir.Type) -> bool:
    """f32, f16 or bf16 (or a vector of one): the types these forms take."""
    return isinstance(scalar_type(t), (ir.F32Type, ir.F16Type, ir.BF16Type))


def _rounded_to_16_bits(v: ir.Value) -> bool:
    """Whether `v` is f16 or bf16, or read only by truncations to one."""
    users = _users(v)
    narrow = (ir.F16Type, ir.BF16Type)
    return isinstance(scalar_type(v.type), narrow) or bool(users) and all(
        u.name == "arith.truncf" and isinstance(scalar_type(u.results[0].type), narrow) for u in users)


def _in_f32(x: ir.Value, form: Callable[[ir.Value], ir.Value]) -> ir.Value:
    """form(x) computed in f32: between extf and truncf where x is f16 or bf16."""
    if isinstance(scalar_type(x.type), ir.F32Type):
        return form(x)
    wide = ir.VectorType.get(x.type.shape, ir.F32Type.get()) if isinstance(x.type, ir.VectorType) else ir.F32Type.get()
    return arith.truncf(x.type, form(arith.extf(wide, x)))


def _users(v: ir.Value) -> list[ir.Operation]:
    return [u.owner.operation for u in v.uses]


def _defining(v: ir.Value, name: str) -> ir.Operation | None:
    """The op defining `v` if it is a `name` op of f32, f16 or bf16, else None."""
    owner = v.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == name and _is_float(v.type):
        return owner.operation
    return None


def _is_multiply(op: ir.Operation) -> bool:
    return op.name == "arith.mulf" and _is_float(op.results[0].type)


def _scale(op: ir.Operation) -> tuple[ir.Value, float] | None:
    """(x, c) if `op` is a multiply of x by a constant c, or a division of x by 1 / c, with
    1/64 <= |c| <= 64 (its powers in the coefficients stay normal f32 numbers); else None."""
    if op.name not in ("arith.mulf", "arith.divf") or not _is_float(op.results[0].type):
        return None
    sides = ((0, 1), (1, 0)) if op.name == "arith.mulf" else ((0, 1),)
    for mine, other in sides:
        c = float_constant(op.operands[other])
        if c is not None and 1 / 64 <= abs(c) <= 64:
            return op.operands[mine], c if op.name == "arith.mulf" else 1.0 / c
    return None


def _erf_argument(erf_op: ir.Operation) -> tuple[ir.Value, float]:
    """An erf's (or tanh's) argument as (x, c), argument = c * x, where a constant scale
    defines it."""
    arg = erf_op.operands[0]
    if isinstance(arg.owner, (ir.Operation, ir.OpView)) and (folded := _scale(arg.owner.operation)):
        return folded
    return arg, 1.0


def _one_plus(op: ir.Operation, fn: str = "math.erf") -> tuple[ir.Operation, int] | None:
    """(the `fn` op, +1) if `op` is `1 + fn` or `fn + 1`, (it, -1) if `1 - fn`; else None."""
    if op.name not in ("arith.addf", "arith.subf") or not _is_float(op.results[0].type):
        return None
    a, b = op.operands
    if op.name == "arith.subf":
        fn_op = _defining(b, fn)
        return (fn_op, -1) if fn_op is not None and float_constant(a) == 1.0 else None
    for e, other in ((a, b), (b, a)):
        if (fn_op := _defining(e, fn)) is not None and float_constant(other) == 1.0:
            return fn_op, 1
    return None


def _only_in_sums(fn_op: ir.Operation) -> bool:
    """Whether every reader of `fn_op`'s result is a `1 +- fn` form."""
    return all(_one_plus(u, fn_op.name) is not None for u in _users(fn_op.results[0]))


def _multiply_factors(op: ir.Operation, body: set[ir.Value], inner: list[ir.Operation]) -> tuple[float, list[ir.Value]]:
    """Multiply `op` as (constant, the other factors) through the multiplies of the body
    (whose values `body` holds) under it that nothing else reads; `op` and those are appended
    to `inner`."""
    inner.append(op)
    k1, f1 = _factors(op.operands[0], body, inner)
    k2, f2 = _factors(op.operands[1], body, inner)
    return k1 * k2, f1 + f2


def _factors(v: ir.Value, body: set[ir.Value], inner: list[ir.Operation]) -> tuple[float, list[ir.Value]]:
    """`v` as (constant, the other factors): through its multiply where the body's multiply
    defines it and nothing else reads it (`_multiply_factors`), else itself."""
    op = _defining(v, "arith.mulf")
    if op is not None and v in body and len(_users(v)) == 1:
        return _multiply_factors(op, body, inner)
    c = float_constant(v)
    return (c, []) if c is not None else (1.0, [v])


def _erf_product(op: ir.Operation, body: set[ir.Value]) -> tuple[ErfProduct, list[ir.Operation]] | None:
    """`op` as k * x * (1 +- erf(c x)) and the ops it stands for (its inner multiplies and
    the sum), if it is the outermost multiply of one; else None."""
    users = _users(op.results[0])
    if not _is_multiply(op) or (len(users) == 1 and _is_multiply(users[0])):
        return None  # not a multiply, or one inside a larger product
    inner: list[ir.Operation] = []
    k, factors = _multiply_factors(op, body, inner)
    if len(factors) != 2 or not pymath.isfinite(k) or k == 0.0:
        return None
    for s, x in ((factors[0], factors[1]), (factors[1], factors[0])):
        total = s.owner.operation if isinstance(s.owner, (ir.Operation, ir.OpView)) else None
        found = _one_plus(total) if total is not None and len(_users(s)) == 1 else None
        if found is not None:
            erf_op, sign = found
            arg, scale = _erf_argument(erf_op)
            if arg == x:
                return ErfProduct(x, scale, sign, k, _rounded_to_16_bits(op.results[0])), inner[1:] + [total]
    return None


class Expander:
    """The expansions of one scalar body (a linalg.generic's block), planned over the whole
    body first: a product of erf stands for ops that precede it, which must not be cloned."""

    def __init__(self, block: ir.Block, backend: str | None):
        self.backend = backend
        self.products: dict[ir.Value, ErfProduct] = {}
        self.absorbed: set[ir.Value] = set()
        ops = [op.operation for op in block.operations]
        body = {r for op in ops for r in op.results}
        for op in ops:
            if len(op.results) == 1 and (found := _erf_product(op, body)) is not None:
                self.products[op.results[0]] = found[0]
                self.absorbed.update(o.results[0] for o in found[1])

    def _absorbed(self, op: ir.Operation) -> bool:
        return len(op.results) == 1 and op.results[0] in self.absorbed

    def expand(self, op: ir.Operation, get: Callable[[ir.Value], ir.Value], mapping: dict) -> bool:
        """Expands the body's `op` where this module does (a product of erf, `1 +- erf`, an
        f32/f16/bf16 `math.erf`, `1 +- tanh`; a multiply or division by a constant read only by
        an erf, or by a tanh read only by such sums, which folds it; the ops a product or those
        sums stand for), at the insertion point, on the values
        `get` gives for its operands; records the new values of its results that other ops
        read in `mapping` (body value -> new value). False, doing nothing, for any other op."""
        if len(op.results) != 1:
            return False
        res = op.results[0]
        if res in self.absorbed:
            return True
        if res in self.products:
            product = self.products[res]
            mapping[res] = _in_f32(get(product.x), lambda v: product.emit(v, self.backend))
            return True
        if op.name == "math.erf" and _is_float(res.type):
            if any(not self._absorbed(u) and _one_plus(u) is None for u in _users(res)):
                x, scale = _erf_argument(op)
                mapping[res] = _in_f32(get(x), lambda v: Erf.of(v, scale).value())
            return True
        if op.name == "math.tanh" and _is_float(res.type) and _only_in_sums(op):
            return True
        for fn, one_plus in _ONE_PLUS.items():
            if (found := _one_plus(op, fn)) is not None:
                x, scale = _erf_argument(found[0])
                narrow = _rounded_to_16_bits(res)
                mapping[res] = _in_f32(get(x), lambda v: one_plus(v, scale, found[1], self.backend, narrow))
                return True
        users = _users(res)
        return _scale(op) is not None and len(users) == 1 and (
            users[0].name == "math.erf" or users[0].name == "math.tanh" and _only_in_sums(users[0]))
