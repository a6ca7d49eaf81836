"""Helpers on MLIR element types shared by the passes."""

from __future__ import annotations

from iree.compiler import ir


def scalar_type(t: ir.Type) -> ir.Type:
    """The element type of a tensor or vector type; `t` itself for a scalar type."""
    return t.element_type if isinstance(t, (ir.RankedTensorType, ir.VectorType)) else t


def element_bits(t: ir.Type) -> int:
    """Bits of an integer or float element type."""
    if isinstance(t, ir.IntegerType):
        return ir.IntegerType(t).width
    return ir.FloatType(t).width
