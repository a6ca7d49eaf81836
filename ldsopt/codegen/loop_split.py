"""Splitting one loop of a linalg op on tensors into (chunks, chunk), as the program-level
passes do before IREE forms dispatches (ldsopt-split-reduction, ldsopt-split-attention,
ldsopt-split-matmul): the ops they look at (`program_ops`), the loops an operand reads once
loop k became loops (k, k + 1), its tensor expanded to match (with its dynamic extents,
`dynamic_dims`), and the maps and iterators of the ops that replace the split one; and the
fence the program-level passes put between a value and the ops that must not see through it
(`fence`).
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, tensor


def program_ops(module: ir.Operation, names: tuple[str, ...]) -> list[ir.Operation]:
    """The ops named `names` in the program's functions (the top module's `func.func`s, not
    dispatches), in order, none inside another (what they compute is not walked)."""
    found = []

    def visit(op):
        if op.name in names:
            found.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    for top in module.regions[0].blocks[0].operations:
        if top.operation.name == "func.func":
            top.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def split_dims(dims: list[int], k: int) -> list[int]:
    """Loop dims after dim k became (k, k + 1): k reads both, later dims move up one."""
    out = []
    for d in dims:
        out += [k, k + 1] if d == k else [d + (d > k)]
    return out


def dynamic_dims(value: ir.Value) -> list[ir.Value]:
    """`value`'s dynamic extents, in order, as `tensor.dim`s of it at the insertion point (what
    an op made of a tensor of a dynamic sequence takes with it)."""
    shape = ir.RankedTensorType(value.type).shape
    return [tensor.dim(value, arith.constant(ir.IndexType.get(), d)) for d, n in enumerate(shape)
            if ir.ShapedType.is_dynamic_size(n)]


def expand_dim(value: ir.Value, at: int, splits: int, sizes: list[ir.Value] = ()) -> ir.Value:
    """`value` with its static dim `at` split into [splits, extent / splits] (a view: no copy);
    `sizes`: the values of its dynamic extents, in order."""
    t = ir.RankedTensorType(value.type)
    shape = list(t.shape)
    shape[at:at + 1] = [splits, shape[at] // splits]
    groups = [[i] for i in range(at)] + [[at, at + 1]] + [[i + 1] for i in range(at + 1, t.rank)]
    i64 = ir.IntegerType.get_signless(64)
    reassociation = ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, i) for i in g]) for g in groups])
    return tensor.ExpandShapeOp(ir.RankedTensorType.get(shape, t.element_type), value, reassociation, list(sizes),
                                shape).result


def expand_input(value: ir.Value, dims: list[int], k: int, splits: int) -> ir.Value:
    """An input that reads loops `dims`, with its dim that reads loop k split as loop k is."""
    return expand_dim(value, dims.index(k), splits) if k in dims else value


def map_attr(rank: int, dims: list[int]) -> ir.AffineMapAttr:
    """The projected permutation of `rank` loops onto `dims`."""
    return ir.AffineMapAttr.get(ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims]))


def maps_attr(operand_dims: list[list[int]], rank: int) -> ir.ArrayAttr:
    return ir.ArrayAttr.get([map_attr(rank, dims) for dims in operand_dims])


def iterators_attr(kinds: list[str]) -> ir.ArrayAttr:
    """`iterator_types` of "parallel" / "reduction" kinds."""
    return ir.ArrayAttr.get([ir.Attribute.parse(f"#linalg.iterator_type<{k}>") for k in kinds])


FENCE = "iree_tensor_ext.compute_barrier.end"


def fence(value: ir.Value) -> ir.Value:
    """`value` behind an `iree_tensor_ext.compute_barrier.end`, made at the insertion point: IREE
    neither folds nor moves ops across it (a transpose back into a contraction's map, a reshape up
    onto the value's producers) and drops it once it has formed dispatches. What a fence keeps
    apart from constants IREE still hoists into an initializer. (A `util.optimization_barrier`
    does the same but survives into the stream program, where it cuts a call into several
    submissions that each wait for the last.)"""
    return ir.Operation.create(FENCE, results=[value.type], operands=[value, *dynamic_dims(value)]).result
