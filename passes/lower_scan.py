"""ldsopt-lower-scan: a prefix sum (or product) along one dim (`iree_linalg_ext.scan`, what
`torch.cumsum` and `cumprod` become; RoBERTa's and XLM-R's position ids), each row scanned by
one workgroup whose threads' partial results meet through LDS.

Matches a dispatch of one `iree_linalg_ext.scan`, inclusive, of static shapes, whose input is a
whole-tensor load of a binding, whose body combines its two arguments by one `arith.addi`,
`addf`, `muli` or `mulf`, whose accumulator starts as a fill of that combiner's identity (0 or
1), and whose scanned result is stored whole (the accumulator, the row's total, stored too or
not used).

The kernel: workgroup r scans row r (the scanned dim's elements at one index of the others;
a grid-stride loop over rows past the grid). Its T threads (a power of two, at most the
workgroup size, at most the row's length rounded up) each take C = ceil(L / T) consecutive
elements of the row:
1. each thread combines its elements (from the identity) and writes its partial to LDS;
2. the T partials are scanned in LDS, log2 T steps of `p[t] = p[t - s] + p[t]` (Hillis and
   Steele), a barrier between each read and write;
3. each thread combines its elements again, starting from the partials of the threads before
   it, storing each prefix; the last thread stores the row's total where it is stored.
Floats are combined in another order than one by one (the partials, then their prefixes): the
same sums within rounding.

Left to IREE, with a remark: exclusive scans, other combiners (max, min, a body of several
ops), an accumulator that starts elsewhere than the identity, rows of one element whose total
is stored (IREE's own scan leaves the accumulator at its start there, not at the element),
dynamic shapes, inputs that are not whole-tensor loads, and element types the target does not
compute natively.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf

from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Binding, analyze_graph
from ldsopt.codegen.kernel import GridStridePass, lds_alloc, matched_dispatches, natively_computed
from ldsopt.codegen.row_kernel import RowDispatch, each_row, power_of_two_at_least, row_kernel
from ldsopt.remarks import Unmatched

ROOT = "iree_linalg_ext.scan"
# The combiners taken, and their identities.
COMBINERS = {"arith.addi": 0, "arith.addf": 0.0, "arith.muli": 1, "arith.mulf": 1.0}


@dataclasses.dataclass
class Scan(RowDispatch):
    source: Binding | None = None
    output: Binding | None = None
    total: Binding | None = None     # where the accumulator (each row's total) is stored, if it is
    combiner: str = ""

    @property
    def shape(self) -> list[int]:
        return list(self.source.tensor_type.shape)


def _fill_constant(value: ir.Value):
    """The constant a `linalg.fill` writes into `value`, or None."""
    fill = value.owner.operation if isinstance(value, ir.OpResult) else None
    if fill is None or fill.name != "linalg.fill":
        return None
    cst = fill.operands[0].owner.operation if isinstance(fill.operands[0], ir.OpResult) else None
    if cst is None or cst.name != "arith.constant":
        return None
    attr = cst.attributes["value"]
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else ir.FloatAttr(attr).value


def _combiner(op: ir.Operation) -> str | None:
    """The body's one combining op (COMBINERS) of its two arguments, or None."""
    block = op.regions[0].blocks[0]
    ops = [o.operation for o in block.operations]
    if len(ops) != 2 or ops[0].name not in COMBINERS or ops[1].operands[0] != ops[0].results[0]:
        return None
    return ops[0].name if set(ops[0].operands) == set(block.arguments) else None


def scan_dispatch(func: ir.Operation, roots: tuple[str, ...]) -> Scan | Unmatched:
    """The dispatch's one scan, its bindings and how it combines (module doc)."""
    g = analyze_graph(func, roots)
    if not g:
        return g
    if len(g.ops) != 1:
        return Unmatched(f"{len(g.ops)} ops fused in one dispatch; this pass takes one {ROOT}")
    op = g.ops[0]
    if not ir.BoolAttr(op.attributes["inclusive"]).value:
        return Unmatched("an exclusive scan; this pass takes inclusive ones")
    combiner = _combiner(op)
    if combiner is None:
        return Unmatched(f"a scan whose body is not one of {', '.join(COMBINERS)} of its two arguments")
    source = g.binding_of(op.operands[0])
    if source is None:
        return Unmatched("the scanned tensor is not a whole-tensor load of a binding")
    if _fill_constant(op.operands[2]) != COMBINERS[combiner]:
        return Unmatched(f"the accumulator does not start at {combiner}'s identity ({COMBINERS[combiner]})")
    stored = {v: b for v, b in g.stores}
    if op.results[0] not in stored or len(g.stores) != 1 + (op.results[1] in stored) or \
            (op.results[1] not in stored and list(op.results[1].uses)):
        return Unmatched("the scanned result is not stored whole, or the total is used otherwise than stored")
    return Scan(g, ir.IntegerAttr(op.attributes["dimension"]).value, source, stored[op.results[0]],
                stored.get(op.results[1]), combiner)


def _match(s: Scan) -> Scan | Unmatched:
    if 0 in s.shape:
        return Unmatched("an empty scan")
    if s.total is not None and s.shape[s.dim] == 1:
        # IREE's scan leaves the accumulator at its start where the row is one element long
        return Unmatched("a scan of one element a row whose total is stored (IREE's scan leaves it at its start)")
    return s


@dataclasses.dataclass(frozen=True)
class LowerScan(GridStridePass):
    NAME = "ldsopt-lower-scan"
    SUMMARY = "Lower prefix sums and products (iree_linalg_ext.scan) to a workgroup per row, partials met in LDS"

    def run(self, module: ir.Operation) -> None:
        matches = matched_dispatches(module, (ROOT,), _match, self, scan_dispatch)
        for d, _, tgt in natively_computed(matches, lambda d: d.graph.ops, self.NAME):
            self._lower(d, tgt)

    def _lower(self, s: Scan, tgt: target_model.Target) -> None:
        shape, d = s.shape, s.dim
        length = shape[d]
        k, threads, n_wg = row_kernel(self, s, shape, tgt, power_of_two_at_least(length))
        chunk = math.ceil(length / threads)
        etype = s.source.tensor_type.element_type
        with k.ip, s.location:
            src, out = s.source.memref(), s.output.memref()
            total = s.total.memref() if s.total is not None else None
            partials = lds_alloc([threads], etype)
            identity = arith.constant(etype, COMBINERS[s.combiner])
            combine = _combine_op(s.combiner)
            t = k.thread_id()
            lo = arith.muli(t, k.const(chunk))
            hi = arith.minui(arith.addi(lo, k.const(chunk)), k.const(length))
            with each_row(k, shape, d, n_wg) as row:
                index = row.index
                # 1. the thread's partial
                part = scf.ForOp(lo, hi, k.const(1), [identity])
                with ir.InsertionPoint(part.body):
                    x = memref.load(src, index(part.induction_variable))
                    scf.yield_([combine(part.inner_iter_args[0], x)])
                memref.store(part.results[0], partials, [t])
                gpu.barrier()
                # 2. the partials scanned in LDS
                step = 1
                while step < threads:
                    before = arith.cmpi(arith.CmpIPredicate.uge, t, k.const(step))
                    other = memref.load(partials, [arith.select(before, arith.subi(t, k.const(step)), t)])
                    mine = memref.load(partials, [t])
                    value = arith.select(before, combine(other, mine), mine)
                    gpu.barrier()
                    memref.store(value, partials, [t])
                    gpu.barrier()
                    step *= 2
                # 3. the prefixes, from the partials of the threads before
                first = arith.cmpi(arith.CmpIPredicate.eq, t, k.const(0))
                previous = memref.load(partials, [arith.select(first, t, arith.subi(t, k.const(1)))])
                carried = arith.select(first, identity, previous)
                prefix = scf.ForOp(lo, hi, k.const(1), [carried])
                with ir.InsertionPoint(prefix.body):
                    j = prefix.induction_variable
                    value = combine(prefix.inner_iter_args[0], memref.load(src, index(j)))
                    memref.store(value, out, index(j))
                    scf.yield_([value])
                if total is not None:
                    last = arith.cmpi(arith.CmpIPredicate.eq, t, k.const(threads - 1))
                    branch = scf.IfOp(last)
                    with ir.InsertionPoint(branch.then_block):
                        memref.store(memref.load(partials, [t]), total, row.at)
                        scf.yield_([])
        k.finish(self.NAME)


def _combine_op(name: str):
    return {"arith.addi": arith.addi, "arith.addf": arith.addf, "arith.muli": arith.muli,
            "arith.mulf": arith.mulf}[name]
