"""ldsopt-split-reduction: a reduction with few outputs and a long reduced extent becomes
two reductions, so that IREE makes two dispatches and the first one has work for many
workgroups (as IREE's split-reduction does for matmuls).

Runs on the program (the `func.func`s of the top module, on tensors), before `iree-compile
--compile-to=executable-configurations` forms dispatches: one dispatch cannot combine the
partials of different workgroups without global scratch or atomics, two dispatches can.

Matches a `linalg.generic` or `linalg.reduce` with one result such that
- exactly one iteration dim k is reduced, of static extent R >= `min-reduced`;
- every indexing map is a projected permutation (the output does not read k);
- the body is a chain of elementwise ops ending in one combining op of the output block
  argument (ldsopt.combining: add, mul, min/max, and/or/xor), as ldsopt-vector-distribute
  lowers;
- its output has P < `target-outputs` elements (P = 1 for a scalar);
- it carries no `compilation_info` / `lowering_config` (a lowering the user chose for it);
- R has a divisor S in [2, `max-splits`] with R / S >= `min-chunk` (`choose_splits`;
  a prime R has none and is left alone).
It becomes, with dim k of the iteration space split into (k: S, k + 1: R / S) in place:
1. each input that reads k through `tensor.expand_shape` to [.., S, R/S, ..];
2. a `linalg.generic` reducing the R / S dim with the original body (producers such as
   `arith.extf` or `x*x` included) into partials holding every other dim in loop order,
   [.., S, ..], of the accumulator's element type, filled with the combining identity;
3. a `linalg.generic` reducing the S dim of the partials with the combining op alone, into
   the original init (a `linalg.fill` or a tensor argument) through the original output map.
Reassociating the combining op changes float results by rounding only. Anything not
matched is left alone.

`target-outputs` (512) is the fewest partials that keep the first dispatch at full speed:
512 workgroups, about 4 per SM of an H200 (132). More partials made the second dispatch
slower and the total no faster (bench/results/cuda/README.md).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ldsopt.codegen.combining import combining_op, identity_attr
from ldsopt.codegen.elementwise import map_dims
from ldsopt.codegen.loop_split import expand_input, iterators_attr, maps_attr, program_ops, split_dims
from ldsopt.reduction.plan import choose_splits
from ldsopt.registry import ModulePass, option


# A lowering the user chose for this op, which a split would drop.
_USER_CONFIGS = ("compilation_info", "lowering_config")


@dataclasses.dataclass
class Reduction:
    """A matched reduction, in generic terms (a linalg.reduce too)."""

    op: ir.Operation
    operand_dims: list[list[int]]  # per operand (inputs, then the output) the loop dims it reads
    iterators: list[str]           # "parallel" | "reduction", one per loop dim
    extents: list[int]             # of each loop dim
    dim: int                       # the reduced loop dim
    combine: ir.Operation
    acc_operand: int               # which operand of the combining op is the accumulator

    @property
    def outputs(self) -> int:
        return math.prod(self.extents[d] for d in self.operand_dims[-1])


def _maps_and_iterators(op: ir.Operation) -> tuple[list[list[int] | None], list[str]]:
    """The loop dims each operand reads and the iterator kinds; linalg.reduce in generic terms."""
    if op.name == "linalg.reduce":
        rank = ir.RankedTensorType(op.operands[0].type).rank
        reduced = set(ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
        dims = list(range(rank))
        out = [d for d in dims if d not in reduced]
        return [dims] * (len(op.operands) - 1) + [out], ["reduction" if d in reduced else "parallel" for d in dims]
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in op.attributes["indexing_maps"]]
    iterators = ["reduction" if "reduction" in str(a) else "parallel" for a in op.attributes["iterator_types"]]
    return maps, iterators


def _extents(operands: list[ir.Value], operand_dims: list[list[int]], rank: int) -> list[int] | None:
    """The extent of each loop dim, from the operands' static shapes; None if one is unknown."""
    extents: list[int | None] = [None] * rank
    for value, dims in zip(operands, operand_dims):
        t = ir.RankedTensorType(value.type)
        if not t.has_static_shape:
            return None
        for d, size in zip(dims, t.shape):
            extents[d] = size
    return None if None in extents else extents


def match(op: ir.Operation) -> Reduction | None:
    if len(op.results) != 1 or not all(isinstance(v.type, ir.RankedTensorType) for v in op.operands):
        return None
    if any(name in op.attributes for name in _USER_CONFIGS):
        return None
    operand_dims, iterators = _maps_and_iterators(op)
    reduced = [d for d, it in enumerate(iterators) if it == "reduction"]
    if len(reduced) != 1 or None in operand_dims or reduced[0] in operand_dims[-1]:
        return None
    extents = _extents(list(op.operands), operand_dims, len(iterators))
    combine = combining_op(op)
    if extents is None or combine is None:
        return None
    out_arg = op.regions[0].blocks[0].arguments[-1]
    acc_operand = [v == out_arg for v in combine.operands].index(True)
    return Reduction(op, operand_dims, iterators, extents, reduced[0], combine, acc_operand)


def _move_body(src: ir.Operation, dst: ir.Operation) -> None:
    """Moves `src`'s body (same block arguments) into `dst`, which replaces it."""
    old = src.regions[0].blocks[0]
    new = dst.regions[0].blocks.append(*[a.type for a in old.arguments])
    for old_arg, new_arg in zip(old.arguments, new.arguments):
        old_arg.replace_all_uses_with(new_arg)
    for body_op in list(old.operations):
        new.append(body_op.operation)


def _combine_body(dst: ir.Operation, combine: ir.Operation, acc_operand: int) -> None:
    """`dst`'s body: the combining op alone, a partial taking the place of the input value."""
    acc_type = combine.results[0].type
    block = dst.regions[0].blocks.append(acc_type, acc_type)
    partial, acc = block.arguments
    operands = [partial, partial]
    operands[acc_operand] = acc
    with ir.InsertionPoint(block):
        new = ir.Operation.create(combine.name, results=[acc_type], operands=operands,
                                  attributes=dict(combine.attributes.items()))  # keeps fastmath / overflow flags
        linalg.YieldOp([new.result])


def rewrite(red: Reduction, splits: int) -> None:
    op, k = red.op, red.dim
    acc_type = red.combine.results[0].type
    inputs = list(op.operands)[:-1]
    rank = len(red.iterators)
    extents = red.extents[:k] + [splits, red.extents[k] // splits] + red.extents[k + 1:]
    # Every loop dim but the chunk, in loop order: the S partials of an output are its
    # neighbours along the split dim, and the second reduction reads them with an identity map.
    partial_dims = [d for d in range(rank + 1) if d != k + 1]
    partial_type = ir.RankedTensorType.get([extents[d] for d in partial_dims], acc_type)
    with ir.InsertionPoint(op), op.location:
        expanded = [expand_input(v, dims, k, splits) for v, dims in zip(inputs, red.operand_dims)]
        identity = arith.constant(acc_type, identity_attr(red.combine.name, acc_type))
        partials_init = linalg.fill(identity, outs=[tensor.EmptyOp(partial_type.shape, acc_type).result])
        first = linalg.GenericOp(
            [partial_type], expanded, [partials_init],
            maps_attr([split_dims(dims, k) for dims in red.operand_dims[:-1]] + [partial_dims], rank + 1),
            iterators_attr(red.iterators[:k] + ["parallel", "reduction"] + red.iterators[k + 1:]))
        _move_body(op, first.operation)
        second = linalg.GenericOp([op.results[0].type], [first.result], [op.operands[len(op.operands) - 1]],
                                  maps_attr([list(range(rank)), red.operand_dims[-1]], rank),
                                  iterators_attr(red.iterators))
        _combine_body(second.operation, red.combine, red.acc_operand)
    op.results[0].replace_all_uses_with(second.result)
    op.erase()


@dataclasses.dataclass(frozen=True)
class SplitReduction(ModulePass):
    NAME = "ldsopt-split-reduction"
    SUMMARY = "Split reductions with few outputs and a long reduced dim in two (program level, before dispatches)"

    min_reduced: int = option(32768, "split only reductions whose reduced extent is at least this", min=1)
    target_outputs: int = option(512, "aim for outputs x splits partials (enough workgroups); split only below",
                                 min=1)
    max_splits: int = option(1024, "partials per output at most", min=1)
    min_chunk: int = option(4096, "elements each partial reduces at least", min=1)

    def run(self, module: ir.Operation) -> None:
        found = [match(op) for op in program_ops(module, ("linalg.generic", "linalg.reduce"))]
        for red in (r for r in found if r is not None):
            splits = self._splits(red)
            if splits is not None:
                rewrite(red, splits)

    def _splits(self, red: Reduction) -> int | None:
        extent = red.extents[red.dim]
        if red.outputs >= self.target_outputs or extent < self.min_reduced:
            return None
        return choose_splits(extent, red.outputs, self.target_outputs, self.max_splits, self.min_chunk)
