"""A dispatch's dynamic extents as IREE computes them from its workload ordinals
(`iree_tensor_ext.dispatch.workload.ordinal`, values pushed as constants, or `affine.apply`s of
them), and the same extents computed again in the workgroup count region, which receives the
workload as its arguments (codegen/dispatch.py says where they are matched)."""

from __future__ import annotations

from iree.compiler import ir


def workload_ordinal(value: ir.Value) -> int | None:
    """The workload ordinal a dynamic extent is (the dispatch's count region receives it as
    its argument 1 + ordinal); None for any other value."""
    if isinstance(value, ir.OpResult) and value.owner.name == "iree_tensor_ext.dispatch.workload.ordinal":
        return ir.IntegerAttr(value.owner.attributes["ordinal"]).value
    return None


def from_workload(value: ir.Value) -> bool:
    """A workload ordinal, or an affine.apply of values that are."""
    if workload_ordinal(value) is not None:
        return True
    return isinstance(value, ir.OpResult) and value.owner.name == "affine.apply" and \
        all(from_workload(v) for v in value.owner.operands)


def in_count_region(value: ir.Value, workload: list[ir.Value]) -> ir.Value:
    """A dynamic extent (`from_workload`) computed again, at the insertion point, from the
    count region's `workload` arguments."""
    ordinal = workload_ordinal(value)
    if ordinal is not None:
        return workload[ordinal]
    op = value.owner
    return ir.Operation.create("affine.apply", results=[value.type], attributes={"map": op.attributes["map"]},
                               operands=[in_count_region(v, workload) for v in op.operands]).result
