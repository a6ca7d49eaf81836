"""Helpers on MLIR element types, constants and values shared by the passes."""

from __future__ import annotations

from iree.compiler import ir


def producer(value: ir.Value) -> ir.Operation | None:
    """The op whose result `value` is; None for a block argument."""
    return value.owner.operation if isinstance(value, ir.OpResult) else None


def scalar_type(t: ir.Type) -> ir.Type:
    """The element type of a tensor or vector type; `t` itself for a scalar type."""
    return t.element_type if isinstance(t, (ir.RankedTensorType, ir.VectorType)) else t


def element_bits(t: ir.Type) -> int:
    """Bits of an integer or float element type."""
    if isinstance(t, ir.IntegerType):
        return ir.IntegerType(t).width
    return ir.FloatType(t).width


def constant_float(v: ir.Value) -> float | None:
    """The float an `arith.constant` makes: a float, or the value of a splat float tensor (a
    0-d tensor too); None for anything else."""
    op = v.owner.operation if isinstance(v, ir.OpResult) else None
    if op is None or op.name != "arith.constant":
        return None
    attr = op.attributes["value"]
    if isinstance(attr, ir.FloatAttr):
        return ir.FloatAttr(attr).value
    if isinstance(attr, ir.DenseFPElementsAttr) and ir.DenseFPElementsAttr(attr).is_splat:
        return ir.DenseFPElementsAttr(attr).get_splat_value().value
    return None


def fill_constant(v: ir.Value) -> float | None:
    """The float constant a `linalg.fill` writes into `v` (an accumulator's start); None where
    `v` is not such a fill."""
    op = v.owner.operation if isinstance(v, ir.OpResult) else None
    return constant_float(op.operands[0]) if op is not None and op.name == "linalg.fill" else None
