"""arith and math ops on numpy arrays, as numpy_reference evaluates them: element types as
numpy dtypes, casts with the program's roundings (bf16 rounded to nearest even, subnormals
flushed to 0 while `FLUSH` is set, as GPUs that flush denormals compute), integer division
and comparisons as arith defines them, and the table of elementwise ops (`elementwise`)."""

from __future__ import annotations

import contextvars
import math

import numpy as np
from iree.compiler import ir

from ldsopt.ir_types import scalar_type


class Unsupported(Exception):
    """What the evaluator does not take (the caller falls back to llvm-cpu)."""


def refuse(op: ir.Operation, why: str = "is not evaluated by numpy") -> Unsupported:
    """Unsupported, naming the op (not its line: the program evaluated is the promoted one)."""
    return Unsupported(f"{op.name} {why}")


def numpy_dtype(t: ir.Type) -> np.dtype:
    """The numpy type holding values of MLIR element type `t` (bf16 in f32)."""
    e = scalar_type(t)
    if isinstance(e, ir.F64Type):
        return np.dtype(np.float64)
    if isinstance(e, (ir.F32Type, ir.BF16Type)):
        return np.dtype(np.float32)
    if isinstance(e, ir.F16Type):
        return np.dtype(np.float16)
    if isinstance(e, ir.IndexType):
        return np.dtype(np.int64)
    if isinstance(e, ir.IntegerType) and e.width == 1:
        return np.dtype(np.bool_)
    if isinstance(e, ir.IntegerType) and e.width in (8, 16, 32, 64):
        return np.dtype(f"int{e.width}")
    raise Unsupported(f"element type {e} is not evaluated by numpy")


def unsigned(x: np.ndarray) -> np.ndarray:
    """The same bits read as unsigned (`arith`'s u-ops)."""
    return x if x.dtype == np.bool_ else x.view(np.dtype(f"uint{x.dtype.itemsize * 8}"))


def round_to_bf16(x: np.ndarray) -> np.ndarray:
    """`x` rounded to the nearest bf16, ties to even, held in f32. f64 goes to f32 rounding to
    odd first, so that the two roundings make the one direct rounding would."""
    x = np.asarray(x)
    if x.dtype == np.float64:
        f = x.astype(np.float32)
        toward_zero = np.where(np.abs(f.astype(np.float64)) > np.abs(x), np.nextafter(f, np.float32(0)), f)
        inexact = (toward_zero.astype(np.float64) != x) & np.isfinite(x)
        bits = toward_zero.view(np.uint32) | inexact.astype(np.uint32)
    else:
        bits = x.astype(np.float32).view(np.uint32)
    rounded = ((bits.astype(np.uint64) + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(np.uint32)
    nan = np.isnan(bits.view(np.float32))
    return np.where(nan, np.float32(np.nan), rounded.view(np.float32))


# Set while `evaluate_each(..., flush_subnormals=True)` runs: every f32/f16/bf16 value, input or
# result, is flushed to 0 where it is subnormal, as GPUs that flush denormals compute.
FLUSH = contextvars.ContextVar("flush_subnormals", default=False)


def flushed(x: np.ndarray) -> np.ndarray:
    if not FLUSH.get() or x.dtype not in (np.float32, np.float16):
        return x
    return np.where(np.abs(x) < np.finfo(x.dtype).tiny, np.copysign(np.zeros((), x.dtype), x), x).astype(x.dtype)


def cast(x: np.ndarray, t: ir.Type) -> np.ndarray:
    """`x` as values of element type `t` (bf16: rounded)."""
    if isinstance(scalar_type(t), ir.BF16Type):
        return flushed(round_to_bf16(x))
    return flushed(np.asarray(x).astype(numpy_dtype(t)))


# --- elementwise ops -------------------------------------------------------------------------

_CMPF = {1: lambda a, b: a == b, 2: lambda a, b: a > b, 3: lambda a, b: a >= b, 4: lambda a, b: a < b,
         5: lambda a, b: a <= b, 6: lambda a, b: (a != b) & ~(np.isnan(a) | np.isnan(b)),
         7: lambda a, b: ~(np.isnan(a) | np.isnan(b)), 8: lambda a, b: (a == b) | np.isnan(a) | np.isnan(b),
         9: lambda a, b: ~(a <= b), 10: lambda a, b: ~(a < b), 11: lambda a, b: ~(a >= b),
         12: lambda a, b: ~(a > b), 13: lambda a, b: a != b, 14: lambda a, b: np.isnan(a) | np.isnan(b),
         0: lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
         15: lambda a, b: np.ones(np.broadcast(a, b).shape, bool)}
_CMPI = {0: np.equal, 1: np.not_equal, 2: np.less, 3: np.less_equal, 4: np.greater, 5: np.greater_equal,
         6: lambda a, b: unsigned(a) < unsigned(b), 7: lambda a, b: unsigned(a) <= unsigned(b),
         8: lambda a, b: unsigned(a) > unsigned(b), 9: lambda a, b: unsigned(a) >= unsigned(b)}


def _signed(x: np.ndarray) -> np.ndarray:
    """Signed values of `x` (an i1 true is -1)."""
    return -x.astype(np.int8) if x.dtype == np.bool_ else x


def _trunci(x: np.ndarray) -> np.ndarray:
    """Bit 0 of `x`, for a trunci to i1 (numpy's casts to narrower integers keep the low bits
    already; to bool they test for nonzero)."""
    return x & 1 if x.dtype != np.bool_ else x


def _divsi(a, b):
    q = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
    return np.where((a < 0) != (b < 0), -q, q).astype(a.dtype)


def _remsi(a, b):
    return (a - _divsi(a, b) * b).astype(a.dtype)


_erf = np.frompyfunc(math.erf, 1, 1)


def _round_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


# name -> f(*operands); the result takes the op's result type (`cast`) after.
ELEMENTWISE = {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply, "arith.divf": np.divide,
    "arith.remf": np.fmod, "arith.negf": np.negative,
    "arith.maximumf": np.maximum, "arith.minimumf": np.minimum, "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
    "arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply,
    "arith.divsi": _divsi, "arith.remsi": _remsi,
    "arith.divui": lambda a, b: unsigned(a) // unsigned(b), "arith.remui": lambda a, b: unsigned(a) % unsigned(b),
    "arith.maxsi": np.maximum, "arith.minsi": np.minimum,
    "arith.maxui": lambda a, b: np.maximum(unsigned(a), unsigned(b)),
    "arith.minui": lambda a, b: np.minimum(unsigned(a), unsigned(b)),
    "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
    "arith.shli": np.left_shift, "arith.shrsi": np.right_shift,
    "arith.shrui": lambda a, b: unsigned(a) >> unsigned(b),
    "arith.select": np.where,
    "arith.extf": lambda x: x, "arith.truncf": lambda x: x, "arith.sitofp": _signed,
    "arith.uitofp": unsigned, "arith.extsi": _signed, "arith.extui": unsigned,
    "arith.trunci": lambda x: x, "arith.index_cast": _signed, "arith.index_castui": unsigned,
    "arith.fptosi": np.trunc, "arith.fptoui": np.trunc,
    "math.exp": np.exp, "math.exp2": np.exp2, "math.expm1": np.expm1, "math.log": np.log, "math.log2": np.log2,
    "math.log10": np.log10, "math.log1p": np.log1p, "math.sqrt": np.sqrt, "math.rsqrt": lambda x: 1 / np.sqrt(x),
    "math.tanh": np.tanh, "math.sin": np.sin, "math.cos": np.cos, "math.tan": np.tan, "math.atan": np.arctan,
    "math.atan2": np.arctan2, "math.erf": lambda x: np.asarray(_erf(x), np.float64), "math.absf": np.abs,
    "math.absi": np.abs, "math.floor": np.floor, "math.ceil": np.ceil, "math.trunc": np.trunc,
    "math.round": _round_away, "math.roundeven": np.rint, "math.powf": np.power, "math.copysign": np.copysign,
    "math.fma": lambda a, b, c: a * b + c,
}


def elementwise(op: ir.Operation, args: list[np.ndarray]) -> np.ndarray:
    name = op.name
    rtype = op.results[0].type
    if isinstance(scalar_type(rtype), ir.BF16Type) and name != "arith.truncf":
        raise refuse(op, "computes in bf16")
    if name == "arith.cmpf":
        out = _CMPF[ir.IntegerAttr(op.attributes["predicate"]).value](*args)
    elif name == "arith.cmpi":
        out = _CMPI[ir.IntegerAttr(op.attributes["predicate"]).value](*args)
    elif name in ELEMENTWISE:
        out = ELEMENTWISE[name](*args)
    else:
        raise refuse(op)
    if name == "arith.trunci" and isinstance(scalar_type(rtype), ir.IntegerType) and scalar_type(rtype).width == 1:
        out = _trunci(np.asarray(out))
    return cast(out, rtype)


# --- constants -------------------------------------------------------------------------------
