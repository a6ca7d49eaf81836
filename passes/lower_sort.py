"""ldsopt-lower-sort: rows sorted in LDS (`iree_linalg_ext.sort`, what `torch.sort`, `argsort`
and `topk` become: ViT-MAE's shuffle of its patches, a mixture of experts' routing), a bitonic
network over each row held in workgroup memory, stable.

Matches a dispatch of one `iree_linalg_ext.sort` of static shapes whose operands (the keys and
what moves with them, such as indices) are whole-tensor loads of bindings, one of them or more
of its results stored whole (into the binding it was loaded from, in place, or another), and
whose comparator is a region of arith ops yielding whether its left element goes first.

The kernel: workgroup r sorts row r (the sorted dim's elements at one index of the others; a
grid-stride loop over rows past the grid). The row's L elements of every operand, and each
element's position, are copied to LDS (P = the power of two at or above L slots; the slots past
L hold the row's first element and sort last); the bitonic network's log2 P (log2 P + 1) / 2
steps each compare-exchange P / 2 pairs, the threads taking pairs in turn, a barrier after
each; the first L slots are stored. An element goes before another where the comparator says
so and not the other way round, or, where it says both or neither (equal keys, or NaN), where
it came first: the sort is stable, whatever the comparator's strictness (`ole` as `olt`).

IREE 3.13 cannot compile its own sort for SPIR-V ("'vector.transfer_read' op with rank > 1
should be broken down by prior passes"): on Vulkan these dispatches run only through this pass.
A row must fit LDS (P slots of every operand and a 4-byte position each). Left to IREE, with a
remark: rows past that, a comparator with other ops than arith's, operands computed in the
dispatch, dynamic shapes, elements of less than a byte (i1), and element types the target does
not compute natively.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf

from ldsopt import remarks
from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Binding, analyze_graph
from ldsopt.codegen.elementwise import clone_body
from ldsopt.codegen.kernel import GridStridePass, Kernel, lds_alloc, matched_dispatches, natively_computed
from ldsopt.codegen.row_kernel import RowDispatch, each_row, power_of_two_at_least, row_kernel
from ldsopt.ir_types import element_bits
from ldsopt.remarks import Unmatched

ROOT = "iree_linalg_ext.sort"


@dataclasses.dataclass
class Sort(RowDispatch):
    operands: list[Binding] = dataclasses.field(default_factory=list)  # per operand, where it is loaded from
    stored: dict[int, Binding] = dataclasses.field(default_factory=dict)  # per result stored, where

    @property
    def shape(self) -> list[int]:
        return list(self.operands[0].tensor_type.shape)


def sort_dispatch(func: ir.Operation, roots: tuple[str, ...]) -> Sort | Unmatched:
    """The dispatch's one sort, its bindings and its stored results (module doc)."""
    g = analyze_graph(func, roots)
    if not g:
        return g
    if len(g.ops) != 1:
        return Unmatched(f"{len(g.ops)} ops fused in one dispatch; this pass takes one {ROOT}")
    op = g.ops[0]
    operands = [g.binding_of(v) for v in op.operands]
    if None in operands:
        return Unmatched("an operand of the sort is not a whole-tensor load of a binding")
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    other = next((o.name for o in body[:-1] if not o.name.startswith("arith.")), None)
    if other is not None:
        return Unmatched(f"the comparator computes with {other}; this pass takes arith ops")
    stored = {}
    for value, b in g.stores:
        if value not in list(op.results):
            return Unmatched("stores a value the sort does not compute")
        stored[list(op.results).index(value)] = b
    unstored_use = any(list(r.uses) and i not in stored for i, r in enumerate(op.results))
    if len(stored) != len(g.stores) or unstored_use:
        return Unmatched("a result of the sort is stored twice or used otherwise than stored")
    return Sort(g, ir.IntegerAttr(op.attributes["dimension"]).value, operands, stored)


def _match(s: Sort) -> Sort | Unmatched:
    if 0 in s.shape:
        return Unmatched("an empty sort")
    types = [b.tensor_type.element_type for b in s.operands]
    narrow = next((t for t in types if element_bits(t) % 8), None)
    if narrow is not None:
        return Unmatched(f"sorts {narrow} elements; this pass holds whole bytes in LDS")
    return s


@dataclasses.dataclass(frozen=True)
class LowerSort(GridStridePass):
    NAME = "ldsopt-lower-sort"
    SUMMARY = "Lower sorts (iree_linalg_ext.sort) to a stable bitonic network per row in LDS"

    def run(self, module: ir.Operation) -> None:
        matches = matched_dispatches(module, (ROOT,), _match, self, sort_dispatch)
        for d, _, tgt in natively_computed(matches, lambda d: d.graph.ops, self.NAME):
            self._lower(d, tgt)

    def _lower(self, s: Sort, tgt: target_model.Target) -> None:
        shape, d = s.shape, s.dim
        length, slots = shape[d], power_of_two_at_least(shape[d])
        lds = slots * (4 + sum(element_bits(b.tensor_type.element_type) // 8 for b in s.operands))
        if lds > tgt.lds_bytes:
            remarks.missed(s.func, self.NAME, f"a row of {length} takes {lds} bytes of LDS, past the target's "
                                              f"{tgt.lds_bytes}")
            return
        k, threads, n_wg = row_kernel(self, s, shape, tgt, slots // 2)
        i32 = ir.IntegerType.get_signless(32)
        with k.ip, s.location:
            sources = [b.memref() for b in s.operands]
            outputs = {i: b.memref() for i, b in s.stored.items()}
            bufs = [lds_alloc([slots], b.tensor_type.element_type) for b in s.operands]
            pos = lds_alloc([slots], i32)
            t = k.thread_id()
            with each_row(k, shape, d, n_wg) as row:
                index = row.index
                # the row into LDS, the slots past it holding its first element
                fill = scf.ForOp(t, k.const(slots), k.const(threads))
                with ir.InsertionPoint(fill.body):
                    j = fill.induction_variable
                    inside = arith.cmpi(arith.CmpIPredicate.ult, j, k.const(length))
                    src = arith.select(inside, j, k.const(0))
                    for source, buf in zip(sources, bufs):
                        memref.store(memref.load(source, index(src)), buf, [j])
                    memref.store(arith.index_cast(i32, j), pos, [j])
                    scf.yield_([])
                gpu.barrier()
                size = 2
                while size <= slots:
                    step = size // 2
                    while step >= 1:
                        self._exchange(k, s, bufs, pos, t, threads, slots, size, step, length)
                        gpu.barrier()
                        step //= 2
                    size *= 2
                store = scf.ForOp(t, k.const(length), k.const(threads))
                with ir.InsertionPoint(store.body):
                    j = store.induction_variable
                    for i, out in outputs.items():
                        memref.store(memref.load(bufs[i], [j]), out, index(j))
                    scf.yield_([])
        k.finish(self.NAME)

    def _exchange(self, k: Kernel, s: Sort, bufs: list[ir.Value], pos: ir.Value, t: ir.Value, threads: int,
                  slots: int, size: int, step: int, length: int) -> None:
        """One step of the network: pair p joins slot i (bit `step` clear) and i + step, kept in
        ascending order where bit `size` of i is clear, else descending."""
        i32 = ir.IntegerType.get_signless(32)
        pairs = scf.ForOp(t, k.const(slots // 2), k.const(threads))
        with ir.InsertionPoint(pairs.body):
            p = pairs.induction_variable
            shift = int(math.log2(step))
            low = arith.andi(p, k.const(step - 1))
            i = arith.ori(arith.shli(arith.shrui(p, k.const(shift)), k.const(shift + 1)), low)
            j = arith.addi(i, k.const(step))
            a = [memref.load(b, [i]) for b in bufs]
            b = [memref.load(buf, [j]) for buf in bufs]
            pa, pb = memref.load(pos, [i]), memref.load(pos, [j])
            ascending = arith.cmpi(arith.CmpIPredicate.eq, arith.andi(i, k.const(size)), k.const(0))
            b_first = self._before(s, b, a, pb, pa, length, i32)
            a_first = self._before(s, a, b, pa, pb, length, i32)
            swap = arith.select(ascending, b_first, a_first)
            for buf, x, y in zip(bufs + [pos], a + [pa], b + [pb]):
                memref.store(arith.select(swap, y, x), buf, [i])
                memref.store(arith.select(swap, x, y), buf, [j])
            scf.yield_([])

    @staticmethod
    def _before(s: Sort, x: list[ir.Value], y: list[ir.Value], px: ir.Value, py: ir.Value, length: int,
                i32: ir.Type) -> ir.Value:
        """Whether element x goes before element y (module doc): x is in the row and y is not,
        or the comparator puts x first and not y, or neither strictly and x came first."""
        def comp(u, v):
            return clone_body(s.op, [w for pair in zip(u, v) for w in pair], None)[0]

        n = arith.constant(i32, length)
        x_in, y_in = (arith.cmpi(arith.CmpIPredicate.slt, q, n) for q in (px, py))
        xy, yx = comp(x, y), comp(y, x)
        true = arith.constant(ir.IntegerType.get_signless(1), 1)
        x_less = arith.andi(xy, arith.xori(yx, true))
        y_less = arith.andi(yx, arith.xori(xy, true))
        earlier = arith.cmpi(arith.CmpIPredicate.slt, px, py)
        ordered = arith.ori(x_less, arith.andi(arith.xori(y_less, true), earlier))
        return arith.andi(x_in, arith.ori(arith.xori(y_in, true), ordered))
