"""ldsopt-lower-elementwise: elementwise dispatches to a vectorized GPU kernel.

Matches a dispatch whose root is an all-parallel `linalg.generic` whose operands each
read the output's fastest dim last or not at all: broadcasts (dims missing), and
permutations that keep the fastest dim (attention's head split and merge, [B,S,H,D] ->
[B,H,S,D], with the bias add IREE fuses into it), on the input or on the output side;
its body must be elementwise-mappable ops (arith, math). Several results are taken when
each is stored whole and all are written in one dim order (a masked score and its boolean
map): the body yields a vector of each at every step. Loops are renumbered in the
outputs' memory order. An operand transposed against the fastest dim is not matched: it
is preload_transposed's.

The kernel:
- collapses runs of output dims that every operand has or lacks alike, next to each other
  in its memory order (a 64x56x56x128 add becomes 1-D), so vectors run as long as memory
  is contiguous; each operand's view lists its groups in its own memory order;
- splits the innermost collapsed dim into vectors of V elements, V the widest power of
  two that divides it and fits the target's widest load (128 bits; 4 elements on SPIR-V);
- gives each thread one vector per step of a grid-stride loop over all vectors, so any
  size fits under the target's max workgroup count;
- reads each input with an in-bounds `vector.transfer_read` (an input missing the
  innermost dim is loaded as a scalar and broadcast), applies the body to whole vectors,
  writes each result with `vector.transfer_write` (V is the narrowest operand's width).

Left to IREE's own pipeline: a rank-0 output (one element: nothing to vectorize or
distribute), and a dispatch computing in an element type the target does not compute
natively (e.g. i64 without `int64` in its `compute`): IREE emulates those in its own
pipeline, on the ops it knows, not on this kernel's vectors.
"""

from __future__ import annotations

import dataclasses
import functools
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf, vector

from ldsopt import remarks
from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Dispatch, analyze, slice_layout
from ldsopt.codegen.elementwise import body_is_elementwise, clone_body, collapse_groups, collapsed_view, map_dims
from ldsopt.ir_types import element_bits
from ldsopt.codegen.kernel import Kernel, foreign_types, matched_dispatches, read_vector, write_vector
from ldsopt.registry import ModulePass, option
from ldsopt.remarks import Unmatched


def elementwise_operand_dims(root: ir.Operation) -> list[list[int]] | Unmatched:
    """Per operand (inputs then outputs), in its memory order, the output dims it reads
    (loops renumbered in the outputs' memory order: an output reads 0, 1, ..., n-1), if
    the root is an elementwise generic whose outputs are written in one order and whose
    operands all have the outputs' fastest dim last or not at all (broadcasts, and
    permutations that keep the fastest dim)."""
    if root.name != "linalg.generic":
        return Unmatched(f"computes with {root.name}")
    iters = [str(a) for a in root.attributes["iterator_types"]]
    if any("parallel" not in it for it in iters):
        return Unmatched("not elementwise: it has reduced loops")
    dims = [map_dims(ir.AffineMapAttr(a).value) for a in root.attributes["indexing_maps"]]
    rank = len(iters)
    outs = dims[len(dims) - len(root.results):]
    if any(d is None or len(set(d)) != len(d) for d in dims) or sorted(outs[0]) != list(range(rank)):
        return Unmatched("an indexing map is not a permutation or projection of the loops")
    if any(o != outs[0] for o in outs):
        return Unmatched("its results are written in different dim orders")
    out = outs[0]
    renamed = [[out.index(x) for x in od] for od in dims]
    fastest = rank - 1
    if any(od != sorted(od) and (not od or od[-1] != fastest) for od in renamed):
        return Unmatched("an operand is transposed against the output's fastest dim "
                         "(ldsopt-preload-transposed's)")
    return renamed


def _match(d: Dispatch) -> list[list[int]] | Unmatched:
    if d.output.tensor_type.rank == 0:
        return Unmatched("a rank-0 output: one element, nothing to vectorize or distribute")
    dims = elementwise_operand_dims(d.root)
    if not dims:
        return dims
    return dims if body_is_elementwise(d.root) else Unmatched("its body is not elementwise arith/math ops")


def _slice_facts(d: Dispatch, dims: list[list[int]], shape: list[int]) -> tuple[frozenset[int], int]:
    """For the operands that are slices of a binding: the output dims a collapsed group must
    not join to the dim before (the slice's rows are not contiguous there), and the gcd of
    their offsets and outer strides, in elements (0 without slices)."""
    breaks, aligned = set(), 0
    for b, od in zip(d.inputs, dims):
        layout = slice_layout(b)
        if layout is None:
            continue
        offset, strides = layout
        aligned = math.gcd(aligned, offset, *strides[:-1])
        for j in range(len(od) - 1):
            if strides[j] != strides[j + 1] * shape[od[j + 1]]:
                breaks.add(od[j + 1])
    return frozenset(breaks), aligned


@dataclasses.dataclass(frozen=True)
class LowerElementwise(ModulePass):
    NAME = "ldsopt-lower-elementwise"
    SUMMARY = ("Lower elementwise dispatches (broadcasts, permutations that keep the fastest dim) to vectorized "
               "grid-stride kernels")

    workgroup_size: int = option(256, "threads per workgroup", min=1, at_most="max_threads")
    max_workgroups: int = option(65535, "workgroups at most (a grid-stride loop covers the rest)", min=1)

    def run(self, module: ir.Operation) -> None:
        for d, dims, tgt in matched_dispatches(module, ("linalg.generic",), _match, self,
                                               functools.partial(analyze, slices=True, results=True)):
            foreign = foreign_types([d.root], tgt)
            if foreign:
                remarks.missed(d.func, self.NAME, foreign)
            else:
                self._lower(d, dims, tgt)

    def _lower(self, d: Dispatch, dims: list[list[int]], tgt: target_model.Target) -> None:
        out_type = d.output.tensor_type
        shape = list(out_type.shape)
        breaks, aligned = _slice_facts(d, dims, shape)
        groups = collapse_groups(shape, dims, breaks)
        cshape = [math.prod(shape[i] for i in g) for g in groups]
        vmax = min(tgt.vector_elems(element_bits(b.tensor_type.element_type)) for b in d.inputs + d.outputs)
        # A power of two dividing the row, and the slices' offsets and row strides (aligned vectors).
        v = math.gcd(cshape[-1], aligned, 1 << (vmax.bit_length() - 1))
        n_items = math.prod(cshape) // v
        wg = self.workgroup_size
        n_wg = max(1, min(math.ceil(n_items / wg), self.max_workgroups, tgt.max_workgroup_counts[0]))
        k = Kernel(d, tgt, (wg, 1, 1), (n_wg, 1, 1))
        # Per operand, the collapsed groups it has, in its memory order.
        present = [sorted((i for i, grp in enumerate(groups) if grp[0] in od), key=lambda i: od.index(groups[i][0]))
                   for od in dims]
        with k.ip, d.location:
            views = [collapsed_view(b.memref(), [groups[i] for i in gs], shape)
                     for b, gs in zip(d.inputs + d.outputs, present)]
            start = arith.addi(arith.muli(k.block_id(), k.const(wg)), k.thread_id())
            loop = scf.ForOp(start, k.const(n_items), k.const(n_wg * wg))
        with ir.InsertionPoint(loop.body), d.location:
            g = loop.induction_variable
            chunks = cshape[-1] // v
            col = arith.remui(g, k.const(chunks))
            idx = [col if v == 1 else arith.muli(col, k.const(v))]
            rest = arith.divui(g, k.const(chunks))
            for i, size in enumerate(reversed(cshape[:-1])):
                if i == len(cshape) - 2:  # the outermost dim needs no remainder: g < n_items
                    idx.insert(0, rest)
                else:
                    idx.insert(0, arith.remui(rest, k.const(size)))
                    rest = arith.divui(rest, k.const(size))
            values = []
            for b, gs, view in zip(d.inputs, present, views):
                vi = [idx[i] for i in gs]
                etype = b.tensor_type.element_type
                vtype = ir.VectorType.get([v], etype)
                if gs and gs[-1] == len(groups) - 1:
                    values.append(read_vector(vtype, view, vi))
                else:
                    values.append(vector.broadcast(vtype, memref.load(view, vi)))
            for result, view in zip(clone_body(d.root, values, v), views[len(d.inputs):]):
                write_vector(result, view, idx)
            scf.yield_([])
        k.finish(self.NAME)
