"""ldsopt-vector-distribute: reductions distributed over threads and subgroups, the partial
results of different subgroups meeting through LDS (seed 001).

Matches a dispatch whose root is a `linalg.generic` with reduction iterators or a
`linalg.reduce` such that
- every input reads the whole iteration space through one permutation map and the output
  holds the parallel dims in any order (any subset of the inputs' dims may be reduced, all
  of them too); dims are numbered as the inputs' dims from here on, outputs in the inputs'
  order of the kept dims, each total stored where the output's own order puts it;
- the body ends in one combining op of the output block argument and a value computed from
  the inputs alone (elementwise producers such as `x*x` or `arith.extf` may precede it):
  add, mul, float min/max (`minimumf`, `maximumf`, `minnumf`, `maxnumf`), integer min/max
  (`minsi`, `maxsi`, `minui`, `maxui`), `andi`, `ori`, `xori`;
- the output starts as a `linalg.fill` value or as a loaded tensor.
A dispatch of several ops (or of one generic with several results) that forms rows is
matched too: see *Fused rows* below. Anything else is left alone.

The distribution comes from ldsopt.reduction_plan: a user's layout config on the root is
honoured (or the pass fails with the reason it cannot be): a `compilation_info`, or a
`lowering_config` marked `ldsopt.user_config` (lds-run / lds-bench mark the configs of the
source program; IREE's configuration rewrites a user's compilation_info into the
lowering_config it also writes for its own choices). An unmarked lowering_config is IREE's
own choice and is ignored: the default plan replaces it (option `configs`: `all` follows
unmarked ones too, as hand-written dispatch IR for lds-opt wants; `none` follows none). The plan is recorded on the func as
`ldsopt.reduction_layout` (see `layout_attr`). The kernel, per tile of outputs in a
grid-stride loop over workgroups:
1. each thread reduces its reduction chunks (vector reads along the contiguous dim, strided
   over the threads on the reduction) with the body applied to whole vectors, starting from
   the combining identity: chunks a thread does not get, and lanes past the end, count as
   the identity. The chunks are loaded `unroll` at a time (the plan's choice, or the
   `unroll` option), all loads of a group issued before the body combines them, so that a
   thread has several loads in flight; the leftovers past the whole groups are loaded at
   once too, clamped to the last chunk and dropped by a select where threads differ;
2. `gpu.shuffle xor` butterflies combine the lanes that share an output;
3. if several subgroups share an output: a barrier (when a previous tile may still be read),
   one lane per subgroup and output writes its partial to a `memref.alloc` in workgroup memory
   (`scf.if`; a row per subgroup, padded where ldsopt.banks predicts read-back conflicts), a
   barrier, then G lanes per output read the partials back (each lane serially over every
   G-th partial, so any number of subgroups is right) and a butterfly combines them;
4. one lane combines the result with the output's initial value and stores it.

Fused rows. A dispatch that ldsopt.fused_rows reads as rows (softmax, LayerNorm, RMSNorm,
logsumexp, mean, argmax / argmin, several reductions in one generic, as IREE forms them from
linalg.softmax or from generics): linalg.generics over one iteration space whose trailing dims
are the reduced ones; any number of reductions, each result with its own combining op (those
above) and initial value; arg-best reductions (torch-mlir's argmax / argmin: a value and an
index result, first index on ties); maps per element (before a combine, or consumers that
read the row again with the reduced values); row maps on the reduced values (divide by N,
rsqrt(var + eps), log); loaded operands per element, per row or per column (gamma, beta);
any number of stored results, full or per row. Not matched (left to IREE): reductions over
other dims than the trailing ones, transposed or repeated reads, bodies beyond arith / math,
other select-over-the-output bodies, a reduction starting from another generic's result. A user's
layout config on any of its generics is refused (an error): the default plan (vectors along
the row, every thread of the workgroup on one row at a time) is the only one; a row kept in
registers (c.) takes fewer threads while each holds fewer than 4 chunks and the grid fills
the machine (reduction_plan.for_kept_row). Per row:
a. passes: the reductions that need no other one's result form pass 0, those that read a
   pass-0 result pass 1, and so on (softmax: the max, then the sum of exp(x - max)); a pass
   runs every reduction of its level over the thread's chunks at once (one accumulator
   vector each), steps 1-3 above for each result (one LDS buffer per result, a single
   barrier for all of them), except that every thread reads all partials back, so that
   each holds the total; it is combined with the result's initial value, and the row maps
   that need only what is known by then are computed on scalars. An arg-best reduction
   takes three passes, each an i32 / float reduction of this kind, so that its result is the
   body's, NaN included, whatever order the threads see the row in: the index of the first
   NaN (minsi), the best value before it, the first index before it holding that value
   (minsi); then the value (NaN if a NaN came) and the index as the sequential body leaves
   them, given the initial values;
b. a last sweep writes the full results (consumers), thread by thread as their chunks were
   read; row results are stored by thread 0;
c. the row between sweeps (layout attribute `row`), when there is more than one sweep:
   "registers" when the thread's chunks (of every operand read per element) are at most
   `row-registers` elements (64 by default): they are loaded once, before the first sweep,
   and kept with whatever was computed from them (exp(x - max) is computed once for the sum
   and the divide); else "lds" (`row-lds`, on by default) when the row of every operand
   read in full (not the columns such as gamma, the same for every row) fits the
   workgroup's LDS with the partials: the first sweep writes each chunk it reads there, at
   the chunk's place in the row, and later sweeps read it back (each thread only the chunks
   it wrote: no barrier); else "global": each sweep reads the row again from global memory
   (the loop of step 1);
d. a division by a row value (softmax's x / sum) is a multiplication by its reciprocal,
   computed once per row when the value is known (`row-reciprocal`, on by default).
A workgroup looping over several rows needs a barrier before a row's LDS writes only when a
row has one pass: with more, another pass's barrier separates the reads of one row from the
writes of the next.

Measurements against IREE's default: bench/results/cuda/README.md.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math

import numpy as np

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt.reduction import fused_rows
from ldsopt.layout import index_expr
from ldsopt.reduction import plan as reduction_plan
from ldsopt import target as target_model
from ldsopt.codegen.combining import combining_op, identity_attr
from ldsopt.codegen.dispatch import Binding, Dispatch, Graph, analyze_graph, load_binding
from ldsopt.codegen.elementwise import clone_body, map_dims, vectorize_body
from ldsopt.ir_types import element_bits
from ldsopt.codegen.kernel import USER_CONFIG, Kernel, matched_dispatches, read_vector, write_vector
from ldsopt.reduction.plan import PlanError, ReductionPlan, ReductionProblem
from ldsopt.registry import ModulePass, PassError, option

LAYOUT_ATTR = "ldsopt.reduction_layout"

@dataclasses.dataclass
class Reduction:
    shape: tuple[int, ...]        # the iteration space, in the inputs' dim order
    reduced: tuple[int, ...]
    perm: list[int]               # input dim j is the op's iteration dim perm[j]
    out_order: list[int]          # output dim i holds kept input dim number out_order[i] (of the
                                  # kept ones, in order): the identity unless the output is permuted
    combine: ir.Operation         # the body's combining op
    init: ir.Value | Binding      # the fill value, or the binding of the loaded initial output

    @property
    def kind(self) -> str:
        return self.combine.name

    @property
    def acc_type(self) -> ir.Type:
        return self.combine.results[0].type


def _reduced_dims(root: ir.Operation) -> tuple[tuple[int, ...], list[int], list[int]] | None:
    """(the reduced dims numbered as the input tensors' dims, perm: input dim j reads
    iteration dim perm[j], out_order: output dim i holds the kept input dim numbered
    out_order[i] among the kept ones) if every input reads the iteration space through one
    permutation and the output holds the parallel dims in any order (IREE interchanges
    iterators so that reductions come last); else None."""
    rank = ir.RankedTensorType(root.operands[0].type).rank
    if root.name == "linalg.reduce":
        reduced = tuple(sorted(ir.DenseI64ArrayAttr(root.attributes["dimensions"])))
        return reduced, list(range(rank)), list(range(rank - len(reduced)))
    iters = [str(a) for a in root.attributes["iterator_types"]]
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in root.attributes["indexing_maps"]]
    perm = maps[0]
    if len(iters) != rank or perm is None or sorted(perm) != list(range(rank)) or any(m != perm for m in maps[:-1]):
        return None
    reduced = tuple(j for j in range(rank) if "reduction" in iters[perm[j]])
    kept = [perm[j] for j in range(rank) if j not in reduced]
    if maps[-1] is None or sorted(maps[-1]) != sorted(kept):
        return None
    return reduced, perm, [kept.index(d) for d in maps[-1]]


def _initial_value(root: ir.Operation) -> ir.Value | Binding | None:
    init = root.operands[len(root.operands) - 1]
    if isinstance(init, ir.OpResult) and init.owner.operation.name == "linalg.fill":
        return init.owner.operation.operands[0]
    return load_binding(init)


def match_reduction(root: ir.Operation) -> Reduction | None:
    if len(root.results) != 1:
        return None
    dims = _reduced_dims(root)
    if dims is None or not dims[0]:
        return None
    types = [ir.RankedTensorType(v.type).element_type for v in root.operands]
    # Scalars a lane can hold and shuffle: floats and integers of 8 bits or more (not i1, index).
    if not all(isinstance(t, ir.FloatType) or isinstance(t, ir.IntegerType) and element_bits(t) >= 8
               for t in types):
        return None
    combine = combining_op(root)
    init = _initial_value(root)
    if combine is None or init is None:
        return None
    return Reduction(tuple(ir.RankedTensorType(root.operands[0].type).shape), *dims, combine, init)


def user_config(func: ir.Operation, root: ir.Operation, unmarked: bool = False) -> reduction_plan.LoweringConfig | None:
    """The root's compilation_info (lowering_config + translation_info), or its
    lowering_config with the func's translation_info when the user wrote it (USER_CONFIG, or
    any with `unmarked`); None for IREE's own configs."""
    if "compilation_info" in root.attributes:
        text = str(root.attributes["compilation_info"])
        return reduction_plan.parse_lowering_config(text, text)
    if "lowering_config" in root.attributes and (unmarked or USER_CONFIG in root.attributes):
        translation = str(func.attributes["translation_info"]) if "translation_info" in func.attributes else ""
        return reduction_plan.parse_lowering_config(str(root.attributes["lowering_config"]), translation)
    return None


def layout_attr(plan: ReductionPlan, lds_pad: int, **fused: ir.Attribute) -> ir.DictAttr:
    """`ldsopt.reduction_layout`, a dictionary:
    - parallel_dims, reduced_dims: the dims of each side, numbered as the inputs' dims;
    - parallel, reduction: each side (its dims linearized row-major) split into
      [subgroup, batch, thread, element] tiles: subgroups and lanes of a workgroup on it,
      iterations of a thread over it (grid-stride tiles; strided reduction chunks), elements
      of one vector read;
    - vector_side: the side of the innermost dim, which the vectors run along;
    - lanes: "reduction_fastest" or "parallel_fastest", which lane coordinate varies fastest;
    - lds_partials: the shape of the LDS buffer of partials, subgroups on the reduction x
      (outputs per tile + padding against bank conflicts); absent when a single subgroup
      holds each output;
    - unroll: chunks a thread loads (in flight at once) before combining them;
    - source: "default" or "lowering_config";
    - for a fused dispatch (`fused`): passes, the sweeps over each row (its reduction passes
      and the one that stores full results); row, where the row is between sweeps:
      "registers" (loaded once), "lds" (staged by the first sweep) or "global" (read again
      each sweep)."""
    p = plan.problem
    tiles = plan.tiles()
    entries = {
        "parallel_dims": ir.DenseI64ArrayAttr.get(list(p.parallel)),
        "reduced_dims": ir.DenseI64ArrayAttr.get(list(p.reduced)),
        "parallel": ir.DenseI64ArrayAttr.get(tiles["parallel"]),
        "reduction": ir.DenseI64ArrayAttr.get(tiles["reduction"]),
        "vector_side": ir.StringAttr.get("reduction" if p.vector_on_reduction else "parallel"),
        "lanes": ir.StringAttr.get("reduction_fastest" if plan.reduction_fastest else "parallel_fastest"),
        "source": ir.StringAttr.get(plan.source),
        "unroll": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), plan.unroll),
    }
    entries.update(fused)
    if plan.subgroups_r > 1:
        entries["lds_partials"] = ir.DenseI64ArrayAttr.get([plan.subgroups_r, plan.outputs_per_tile + lds_pad])
    return ir.DictAttr.get(entries)


@dataclasses.dataclass(frozen=True)
class VectorDistribute(ModulePass):
    NAME = "ldsopt-vector-distribute"
    SUMMARY = "Lower reductions to kernels that reduce in threads, across lanes (shuffles) and across subgroups (LDS)"

    workgroup_size: int = option(0, "threads per workgroup of the default plan: 0 for its own choice (256, more when "
                                    "the grid leaves compute units idle), else at most this many, in whole subgroups "
                                    "(at least one; an override)", min=0, at_most="max_threads")
    max_workgroups: int = option(65535, "workgroups at most (a grid-stride loop covers the rest)", min=1)
    configs: str = option("user", "layout lowering_configs (lane/subgroup bases) on the root to follow: user (a "
                                  "compilation_info, or a lowering_config marked ldsopt.user_config), all (every "
                                  "one: hand-written dispatch IR), none", choices=("user", "all", "none"))
    scale_config_to_target: bool = option(False, "rescale a lowering_config written for another subgroup size")
    unroll: int = option(0, "reduction chunks a thread loads before combining them (0: from the bytes per thread)",
                         min=0)
    row_registers: int = option(64, "fused rows: elements of the row a thread may keep in registers between its "
                                    "sweeps (above: the row goes to LDS, or is read again from global memory)", min=0)
    row_lds: bool = option(True, "fused rows: a row that does not fit in registers is kept in LDS between sweeps "
                                 "where it fits the workgroup's LDS (else it is read again from global memory)")
    row_reciprocal: bool = option(True, "fused rows: a division by a value of the row (softmax's sum) is a "
                                        "multiplication by its reciprocal, computed once per row: within 1.5 ulp "
                                        "of the division, which would cost each element as much as an exp")

    def run(self, module: ir.Operation) -> None:
        for d, red, tgt in matched_dispatches(module, ("linalg.generic", "linalg.reduce"),
                                              lambda d: match_reduction(d.root), self):
            func = d.func
            plan = self._plan(d, red, tgt)
            banks = tgt.bank_model()
            lds_pad = plan.lds_row_pad(banks, element_bits(red.acc_type) // 8) if plan.subgroups_r > 1 else 0
            func.attributes[LAYOUT_ATTR] = layout_attr(plan, lds_pad)
            _ReductionKernel(d, red, plan, tgt, lds_pad).emit()
        # Then the dispatches of several ops (or several results) that form rows.
        for g, rows, tgt in matched_dispatches(module, ("linalg.generic",), fused_rows.match_rows, self,
                                               analyzer=analyze_graph):
            self._fused(g, rows, tgt)

    def _fused(self, g: Graph, rows: fused_rows.RowGraph, tgt: target_model.Target) -> None:
        for n in rows.nodes:
            cfg = user_config(g.func, n.op, self.configs == "all") if self.configs != "none" else None
            if cfg is not None and cfg.has_layout:
                raise PassError(n.op.location, f"{self.NAME}: cannot honour the lowering_config: a layout "
                                "config on a fused dispatch (several ops over the rows) is not supported")
        chunk_operands = rows.chunk_operands()
        # Vectors run along the innermost dim: as wide as its narrowest read or written tensor allows.
        along = [ir.RankedTensorType(o.value.type).element_type for o in chunk_operands
                 if len(rows.shape) - 1 in o.dims] + \
            [ir.RankedTensorType(v.type).element_type for v, _ in rows.full_stores]
        vector_limit = min((tgt.vector_elems(element_bits(t)) for t in along), default=tgt.vector_elems(32))
        read_bits = sum(element_bits(ir.RankedTensorType(o.value.type).element_type) for o in chunk_operands)
        problem = ReductionProblem(rows.shape, rows.reduced, vector_limit, tgt.subgroup_size, tgt.max_threads,
                                   min(self.max_workgroups, tgt.max_workgroup_counts[0]),
                                   element_bytes=max(1, read_bits // 8), compute_units=tgt.compute_units)
        sweeps = rows.passes + (1 if rows.full_stores else 0)

        def kept(p: ReductionPlan) -> bool:  # the thread's share of the row fits in its registers
            return p.chunks_per_thread[1] * p.vector * len(chunk_operands) <= self.row_registers

        try:
            plan = reduction_plan.default_plan(problem, self.workgroup_size)
            if sweeps > 1 and kept(plan) and not self.workgroup_size:
                plan = reduction_plan.for_kept_row(plan, kept)
            plan = reduction_plan.with_unroll(plan, self.unroll)
        except PlanError as e:
            raise PassError(g.location, f"{self.NAME}: no plan: {e}") from None
        # Rows are whole per workgroup (the default plan puts every thread on the reduction).
        assert plan.threads_p == 1, plan
        banks = tgt.bank_model()
        accs = [comb.acc_type for level in range(rows.passes) for _, comb in _row_partials(rows, level)]
        pads = [plan.lds_row_pad(banks, element_bits(t) // 8) if plan.subgroups_r > 1 else 0 for t in accs]
        # Where the row waits between sweeps: registers, else LDS, else global memory (read again).
        row = "global"
        if sweeps > 1 and kept(plan):
            row = "registers"
        elif sweeps > 1 and self.row_lds:
            partial_bytes = sum(plan.subgroups_r * (1 + pad) * element_bits(t) // 8
                                for t, pad in zip(accs, pads)) if plan.subgroups_r > 1 else 0
            row_bytes = problem.n_reduced * sum(element_bits(ir.RankedTensorType(o.value.type).element_type) // 8
                                                for o in rows.staged_operands())
            if row_bytes and row_bytes + partial_bytes <= tgt.lds_budget(1):
                row = "lds"
        g.func.attributes[LAYOUT_ATTR] = layout_attr(
            plan, max(pads), passes=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), sweeps),
            row=ir.StringAttr.get(row))
        _FusedRowKernel(rows, plan, tgt, pads, row, self.row_reciprocal).emit()

    def _plan(self, d: Dispatch, red: Reduction, tgt: target_model.Target) -> ReductionPlan:
        bits = [element_bits(b.tensor_type.element_type) for b in d.inputs]
        problem = ReductionProblem(red.shape, red.reduced, min(tgt.vector_elems(b) for b in bits), tgt.subgroup_size,
                                   tgt.max_threads, min(self.max_workgroups, tgt.max_workgroup_counts[0]),
                                   element_bytes=sum(bits) // 8, compute_units=tgt.compute_units)
        cfg = user_config(d.func, d.root, self.configs == "all") if self.configs != "none" else None
        cfg = cfg.permuted(red.perm) if cfg is not None else None
        try:
            if cfg is not None and cfg.has_layout:
                plan = reduction_plan.config_plan(problem, cfg, self.scale_config_to_target)
            else:
                plan = reduction_plan.default_plan(problem, self.workgroup_size)
            return reduction_plan.with_unroll(plan, self.unroll)
        except PlanError as e:
            what = "cannot honour the lowering_config" if cfg is not None and cfg.has_layout else "no plan"
            raise PassError(d.location, f"{self.NAME}: {what}: {e}") from None


class Combiner:
    """A combining op (ldsopt.combining), applied to new values: a body's (`of`), or one of
    `kind` on `acc_type`."""

    def __init__(self, kind: str, acc_type: ir.Type, attrs: dict | None = None):
        self.kind, self.acc_type, self.attrs = kind, acc_type, attrs or {}

    @classmethod
    def of(cls, op: ir.Operation) -> "Combiner":
        return cls(op.name, op.results[0].type, dict(op.attributes.items()))  # keeps fastmath / overflow flags

    def __call__(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return ir.Operation.create(self.kind, results=[a.type], operands=[a, b], attributes=self.attrs).result

    def identity(self, t: ir.Type) -> ir.Value:
        """The identity as a constant of `t` (the accumulator type or a vector of it)."""
        attr = identity_attr(self.kind, self.acc_type)
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr) if isinstance(t, ir.VectorType) else attr)


class _DistributedKernel:
    """What the kernels of this pass share: the threads' coordinates in the plan, the loop
    over a thread's reduction chunks, the butterflies and the LDS read-back of partials."""

    def __init__(self, d: Dispatch | Graph, plan: ReductionPlan, tgt: target_model.Target):
        self.d, self.plan = d, plan
        self.k = Kernel(d, tgt, (plan.workgroup_size, 1, 1), (plan.grid, 1, 1))
        self.out_sizes = [plan.problem.shape[i] for i in plan.problem.parallel]

    def _threads(self) -> None:
        """Thread id, lane and subgroup coordinates on the reduction, thread coordinates p, r."""
        plan, k = self.plan, self.k
        self.tid = k.thread_id()
        L = plan.subgroup_size
        lane_p, self.lane_r = self._split(arith.remui(self.tid, k.const(L)), plan.lanes_p, plan.lanes_r)
        sg_p, self.sg_r = self._split(arith.divui(self.tid, k.const(L)), plan.subgroups_p, plan.subgroups_r)
        # With every thread on one side, the thread id is that side's coordinate.
        self.p = self.tid if plan.threads_r == 1 else self._linear((sg_p, plan.lanes_p), (lane_p, 1))
        self.r = self.tid if plan.threads_p == 1 else self._linear((self.sg_r, plan.lanes_r), (self.lane_r, 1))

    def _lds_partials(self, acc_type: ir.Type, pad: int) -> ir.Value:
        """The workgroup buffer of partials: a row per subgroup on the reduction."""
        space = ir.Attribute.parse("#gpu.address_space<workgroup>")
        lds_type = ir.MemRefType.get([self.plan.subgroups_r, self.plan.outputs_per_tile + pad], acc_type,
                                     memory_space=space)
        return memref.alloc(lds_type, [], [])

    def _split(self, id_: ir.Value, n_p: int, n_r: int) -> tuple[ir.Value, ir.Value]:
        """(output, reduction) coordinates of a lane or subgroup id, in the plan's order."""
        if n_p == 1:
            return self.k.const(0), id_
        if n_r == 1:
            return id_, self.k.const(0)
        fast = n_r if self.plan.reduction_fastest else n_p
        low, high = arith.remui(id_, self.k.const(fast)), arith.divui(id_, self.k.const(fast))
        return (high, low) if self.plan.reduction_fastest else (low, high)

    def _linear(self, *terms: tuple[ir.Value, int]) -> ir.Value:
        """sum(value * scale) over `terms`, leaving out constant zeros and unit scales."""
        zero = self.k.const(0)
        out = None
        for value, scale in terms:
            if value == zero:
                continue
            term = value if scale == 1 else arith.muli(value, self.k.const(scale))
            out = term if out is None else arith.addi(out, term)
        return zero if out is None else out

    @contextlib.contextmanager
    def _only_if(self, cond: ir.Value | None):
        """Emits the body under `scf.if cond`, or unguarded when cond is None (always true)."""
        if cond is None:
            yield
            return
        with ir.InsertionPoint(scf.IfOp(cond).then_block):
            yield
            scf.yield_([])

    def _chunk_loop(self, accs: list[ir.Value], read, body) -> list[ir.Value]:
        """`accs` carried over this thread's reduction chunks: a loop over whole groups of
        `unroll` chunks, `body(accs, [read(c, None) for c in group], None)` (all reads of a
        group issued before the body uses them), then `body(accs, reads, valid)` of the
        thread's leftover chunks (plan.remainder_loads reads `read(c, valid[i])`, each clamped
        to the last chunk; `valid` says per read whether its chunk exists, None when every
        thread has them all)."""
        plan, k = self.plan, self.k
        tr, u = plan.threads_r, plan.unroll
        start = self.r
        main_end = plan.chunks - (u - 1) * tr  # a group starting at chunk c ends at c + (u-1) tr
        if main_end > 0:
            leftover = [start] if plan.remainder_loads else []  # where a thread's leftovers begin
            loop = scf.ForOp(self.r, k.const(main_end), k.const(u * tr), accs + leftover)
            with ir.InsertionPoint(loop.body):
                c = loop.induction_variable
                reads = [read(self._linear((c, 1), (k.const(i * tr), 1)), None) for i in range(u)]
                nxt = [arith.addi(c, k.const(u * tr))] if leftover else []
                carried = list(loop.inner_iter_args)[:len(accs)]
                scf.yield_(body(carried, reads, None) + nxt)
            results = list(loop.results)
            accs, start = results[:len(accs)], results[len(accs)] if leftover else None
        chunks = [self._linear((start, 1), (k.const(i * tr), 1)) for i in range(plan.remainder_loads)]
        valid, chunks = self._clamped(chunks)
        if chunks:
            accs = body(accs, [read(c, valid[i] if valid else None) for i, c in enumerate(chunks)], valid)
        return accs

    def _clamped(self, chunks: list[ir.Value]) -> tuple[list[ir.Value] | None, list[ir.Value]]:
        """(whether each chunk exists, the chunks clamped to the last one) where threads differ
        in their leftover chunks; (None, chunks) where they do not."""
        if not (self.plan.remainder_guarded and chunks):
            return None, chunks
        last = self.k.const(self.plan.chunks)
        valid = [arith.cmpi(arith.CmpIPredicate.ult, c, last) for c in chunks]
        return valid, [arith.minui(c, self.k.const(self.plan.chunks - 1)) for c in chunks]

    def _chunk_coords(self, chunk: ir.Value, out_coords: list[ir.Value]) -> list[ir.Value]:
        """The iteration-space coordinates of the first element of reduction chunk `chunk` of
        the outputs at `out_coords`."""
        plan = self.plan
        p = plan.problem
        chunk_sizes = [p.shape[i] for i in p.reduced]
        chunk_sizes[-1] //= plan.vec_r
        red_coords = self.k.delinearize(chunk, chunk_sizes)
        if plan.vec_r > 1:
            red_coords[-1] = self._linear((red_coords[-1], plan.vec_r))
        coords = dict(zip(p.parallel, out_coords)) | dict(zip(p.reduced, red_coords))
        return [coords[i] for i in range(len(p.shape))]

    def _select_valid(self, valid: ir.Value | None, new: ir.Value, old: ir.Value) -> ir.Value:
        """`new`, or `old` where the chunk of `valid` does not exist."""
        if valid is None:
            return new
        # A vector condition: SPIR-V 1.3 selects vectors by vectors of booleans only.
        mask_type = ir.VectorType.get(ir.VectorType(new.type).shape, ir.IntegerType.get_signless(1))
        return arith.select(vector.broadcast(mask_type, valid), new, old)

    def _fold(self, acc: ir.Value, combine: Combiner) -> ir.Value:
        """The elements of vector `acc` combined (a tree)."""
        elements = [vector.extract(acc, [], [j]) for j in range(ir.VectorType(acc.type).shape[0])]
        while len(elements) > 1:
            pairs = zip(elements[::2], elements[1::2])
            elements = [combine(a, b) for a, b in pairs] + elements[len(elements) & ~1:]
        return elements[0]

    def _readback_lanes(self) -> tuple[ir.Value, ir.Value]:
        """(kk, out0): the lane's first partial of the read-back and its first output of a
        round (`reduction_plan.ReductionPlan.readback_lane`; with the rows' padding, no bank conflicts)."""
        kk, out0 = self.k.index(list(self.plan.readback_lane(index_expr.var("tid"))), tid=self.tid)
        return kk, out0

    def _partials_total(self, lds: ir.Value, col: ir.Value, kk: ir.Value, combine: Combiner) -> ir.Value:
        """Column `col` of the partials buffer combined over every subgroup: each lane of the
        read-back group serially from partial kk on, then a butterfly over the group (every
        lane of it ends with the total)."""
        plan, k = self.plan, self.k
        loop = scf.ForOp(kk, k.const(plan.subgroups_r), k.const(plan.readback_group()),
                         [combine.identity(combine.acc_type)])
        with ir.InsertionPoint(loop.body):
            part = memref.load(lds, [loop.induction_variable, col])
            scf.yield_([combine(loop.inner_iter_args[0], part)])
        return k.butterfly(loop.results[0], plan.readback_offsets(), combine)

    def _is_zero(self, v: ir.Value) -> ir.Value:
        return arith.cmpi(arith.CmpIPredicate.eq, v, self.k.const(0))


class _ReductionKernel(_DistributedKernel):
    """Emits the kernel of one planned reduction (steps 1-4 of the module docstring)."""

    def __init__(self, d: Dispatch, red: Reduction, plan: ReductionPlan, tgt: target_model.Target, lds_pad: int):
        super().__init__(d, plan, tgt)
        self.red, self.lds_pad = red, lds_pad
        self.combine = Combiner.of(red.combine)

    def emit(self) -> None:
        plan, k, d = self.plan, self.k, self.d
        with k.ip, d.location:
            self.inputs = [b.memref() for b in d.inputs]
            self.output = d.output.memref()
            self.init = self.red.init.memref() if isinstance(self.red.init, Binding) else self.red.init
            self._threads()
            if plan.subgroups_r > 1:
                self.lds = self._lds_partials(self.red.acc_type, self.lds_pad)
            tiles = scf.ForOp(k.block_id(), k.const(plan.n_tiles), k.const(plan.grid))
        with ir.InsertionPoint(tiles.body), d.location:
            self._tile(tiles.induction_variable)
            scf.yield_([])
        k.finish(VectorDistribute.NAME)

    def _tile(self, tile: ir.Value) -> None:
        plan, k = self.plan, self.k
        tile_first = self._linear((tile, plan.outputs_per_tile))
        first = self._linear((tile_first, 1), (self.p, plan.vec_p))
        partials = [k.butterfly(v, plan.shuffle_offsets(), self.combine) for v in self._thread_partials(first)]
        # After the butterfly every lane on the reduction holds the result; lane 0 writes it.
        writer = None if plan.lanes_r == 1 else self._is_zero(self.lane_r)
        if plan.subgroups_r == 1:
            with self._only_if(writer):
                for j, v in enumerate(partials):
                    self._store_output(self._linear((first, 1), (k.const(j), 1)), v)
            return
        if plan.grid < plan.n_tiles:
            gpu.barrier()  # the previous tile's partials may still be being read
        with self._only_if(writer):
            # Row sg_r of the buffer: a lane's vec_p partials are contiguous (one vector write).
            slot = self._linear((self.p, plan.vec_p))
            if plan.vec_p == 1:
                memref.store(partials[0], self.lds, [self.sg_r, slot])
            else:
                values = vector.from_elements(ir.VectorType.get([plan.vec_p], self.red.acc_type), partials)
                write_vector(values, self.lds, [self.sg_r, slot])
        gpu.barrier()
        self._read_back(tile_first)

    def _thread_partials(self, first: ir.Value) -> list[ir.Value]:
        """This thread's partial result for each of its vec_p outputs starting at `first`
        (the chunk loop of _chunk_loop, the body applied to whole vectors)."""
        plan = self.plan
        out_coords = self.k.delinearize(first, self.out_sizes) if self.out_sizes else []
        acc = self.combine.identity(ir.VectorType.get([plan.vector], self.red.acc_type))
        (acc,) = self._chunk_loop([acc], lambda c, valid: self._read_chunk(c, out_coords),
                                  lambda accs, loads, valid: [self._accumulate(accs[0], loads, valid)])
        if plan.vec_p > 1:
            return [vector.extract(acc, [], [j]) for j in range(plan.vector)]
        return [self._fold(acc, self.combine)]

    def _read_chunk(self, chunk: ir.Value, out_coords: list[ir.Value]) -> list[ir.Value]:
        """Each input's vector of reduction chunk `chunk` for the outputs at `out_coords`."""
        index = self._chunk_coords(chunk, out_coords)
        return [read_vector(ir.VectorType.get([self.plan.vector], b.tensor_type.element_type), buf, index)
                for b, buf in zip(self.d.inputs, self.inputs)]

    def _accumulate(self, acc: ir.Value, loads: list[list[ir.Value]], valid: list[ir.Value] | None = None) -> ir.Value:
        """`acc` with the body applied to each chunk's loaded vectors in turn; a chunk whose
        `valid` flag is false leaves it unchanged."""
        for i, values in enumerate(loads):
            new = vectorize_body(self.d.root, values + [acc], self.plan.vector)
            acc = self._select_valid(valid[i] if valid else None, new, acc)
        return acc

    def _read_back(self, tile_first: ir.Value) -> None:
        """The tile's outputs from the subgroups' partials (_partials_total), rounds of
        workgroup_size / readback_group outputs covering the tile."""
        plan, k = self.plan, self.k
        per_round = plan.workgroup_size // plan.readback_group()
        n_out = plan.outputs_per_tile
        kk, out0 = self._readback_lanes()
        for rnd in range(math.ceil(n_out / per_round)):
            # Surplus lanes read a valid column and store nothing: every lane takes part in the shuffles.
            o, col = k.index(list(plan.readback_round(index_expr.var("out0"), rnd)), out0=out0)
            exact = (rnd + 1) * per_round <= n_out
            total = self._partials_total(self.lds, col, kk, self.combine)
            writes = self._is_zero(kk)
            if not exact:
                writes = arith.andi(writes, arith.cmpi(arith.CmpIPredicate.ult, o, k.const(n_out)))
            with self._only_if(writes):
                self._store_output(self._linear((tile_first, 1), (col, 1)), total)

    def _store_output(self, index: ir.Value, value: ir.Value) -> None:
        """Combines `value` with the initial value of output `index` (numbered in the inputs'
        order of the kept dims) and stores it, where the output's own dim order puts it."""
        coords = self.k.delinearize(index, self.out_sizes) if self.out_sizes else []
        coords = [coords[i] for i in self.red.out_order]
        init = memref.load(self.init, coords) if isinstance(self.red.init, Binding) else self.init
        memref.store(self.combine(value, init), self.output, coords)


_I32_MAX = (1 << 31) - 1


def _row_partials(rows: fused_rows.RowGraph, level: int) -> list[tuple[object, Combiner]]:
    """(key, combiner) of each value that pass `level` reduces over the row: each result of
    its reductions (keyed by the result), then each arg-best reduction's phase (keyed by
    (its first result, phase)): 0, the first NaN's index (minsi of i32, none: INT32_MAX);
    1, the best value before it; 2, the first index before it holding that value (minsi)."""
    out = [(n.op.results[j], Combiner.of(n.combines[j])) for n, j in rows.reduction_results(level)]
    for n, phase in rows.arg_bests(level):
        comb = Combiner(n.arg_best.kind, n.arg_best.compared.type) if phase == 1 else \
            Combiner("arith.minsi", ir.IntegerType.get_signless(32))
        out.append(((n.op.results[0], phase), comb))
    return out


class _Chunk:
    """One reduction chunk of the row: its coordinates and the vectors known there (loaded
    operands by (tensor, dims), generic results by value)."""

    def __init__(self, coords: list[ir.Value]):
        self.coords = coords
        self.values: dict = {}


class _FusedRowKernel(_DistributedKernel):
    """Emits the kernel of a row-wise fused dispatch (see the module docstring, *Fused rows*)."""

    def __init__(self, rows: fused_rows.RowGraph, plan: ReductionPlan, tgt: target_model.Target, lds_pads: list[int],
                 row: str, reciprocal: bool):
        super().__init__(rows.graph, plan, tgt)
        self.rows, self.lds_pads, self.row_place = rows, lds_pads, row
        self.divisors = [(n, i) for n in rows.nodes for i in n.row_divisors] if reciprocal else []

    def emit(self) -> None:
        plan, k, g = self.plan, self.k, self.rows.graph
        with k.ip, g.location:
            self.bufs = [(v, b.memref()) for v, b in g.loads]
            self.outs = [(v, b.memref()) for v, b in g.stores]
            self.inits = {}
            for n in self.rows.nodes:
                for r, init in zip(n.op.results, n.inits):
                    self.inits[r] = init.memref() if isinstance(init, Binding) else init
            self._threads()
            self.lds = {}
            if plan.subgroups_r > 1:
                parts = [p for level in range(self.rows.passes) for p in _row_partials(self.rows, level)]
                for (key, comb), pad in zip(parts, self.lds_pads):
                    self.lds[key] = self._lds_partials(comb.acc_type, pad)
            # row == "lds": each staged operand's row, laid out as the chunks (the vectors of a
            # chunk contiguous); a thread reads back only what it wrote, so no barrier.
            self.staged = {}
            if self.row_place == "lds":
                space = ir.Attribute.parse("#gpu.address_space<workgroup>")
                for o in self.rows.staged_operands():
                    etype = ir.RankedTensorType(o.value.type).element_type
                    self.staged[o.value] = memref.alloc(
                        ir.MemRefType.get([plan.problem.n_reduced], etype, memory_space=space), [], [])
            tiles = scf.ForOp(k.block_id(), k.const(plan.n_tiles), k.const(plan.grid))
        with ir.InsertionPoint(tiles.body), g.location:
            self._tile(tiles.induction_variable)
            scf.yield_([])
        k.finish(VectorDistribute.NAME)

    def _buffer(self, value: ir.Value, pairs) -> ir.Value:
        return next(buf for v, buf in pairs if v == value)

    def _tile(self, tile: ir.Value) -> None:
        """One row: the reduction passes, each followed by the exchange of its partials and
        the row maps it makes computable, then the pass that stores the full results."""
        rows, plan = self.rows, self.plan
        self.out_coords = self.k.delinearize(tile, self.out_sizes) if self.out_sizes else []
        self.row: dict = {}  # row values (scalars) by tensor, and loaded row operands by (tensor, dims)
        for o in rows.row_operands():
            index = [self.out_coords[d] for d in o.dims]
            self.row[(o.value, o.dims)] = memref.load(self._buffer(o.value, self.bufs), index)
        self._row_maps(0)
        chunks = valid = None
        if self.row_place == "registers":
            # Every chunk of the thread loaded once, up front, kept for every pass.
            fewest, most = plan.chunks_per_thread
            ids = [self._linear((self.r, 1), (self.k.const(i * plan.threads_r), 1)) for i in range(most)]
            guarded, ids[fewest:] = self._clamped(ids[fewest:])
            valid = [None] * fewest + (guarded or [None] * (most - fewest))
            chunks = [self._read(c, ok) for c, ok in zip(ids, valid)]
        for level in range(rows.passes):
            parts = _row_partials(rows, level)
            accs = [comb.identity(ir.VectorType.get([plan.vector], comb.acc_type)) for _, comb in parts]
            body = functools.partial(self._reduce, level)
            read = functools.partial(self._read, sweep=level)
            accs = body(accs, chunks, valid) if chunks is not None else self._chunk_loop(accs, read, body)
            for (key, comb), total in zip(parts, self._exchange(parts, accs)):
                if isinstance(key, tuple):  # an arg-best phase
                    self.row[key] = total
                    continue
                init = self.inits[key]
                self.row[key] = comb(total, memref.load(init, self.out_coords) if isinstance(init.type, ir.MemRefType)
                                     else init)
            for n, phase in rows.arg_bests(level):
                if phase == fused_rows.ARG_BEST_PASSES - 1:
                    self._arg_best_results(n)
            self._row_maps(level + 1)
        if rows.full_stores:
            if chunks is not None:
                self._store(chunks, valid)
            else:
                def store(accs: list[ir.Value], reads: list[_Chunk], flags) -> list[ir.Value]:
                    self._store(reads, flags)
                    return accs

                self._chunk_loop([], functools.partial(self._read, sweep=rows.passes), store)
        if rows.row_stores:
            with self._only_if(self._is_zero(self.tid)):
                for value, _ in rows.row_stores:
                    memref.store(self.row[value], self._buffer(value, self.outs), self.out_coords)

    def _read(self, chunk: ir.Value, valid: ir.Value | None, sweep: int = 0) -> _Chunk:
        """The chunk with every loaded operand read along the row loaded (a loaded operand
        without the innermost dim is one element, broadcast). With the row in LDS, the
        first sweep also writes the staged operands there where the chunk exists (`valid`:
        a leftover clamped to the last chunk is another thread's, and the next row's first
        sweep may come while that thread still reads this row's), and later sweeps read
        them back (a clamped chunk's values are dropped)."""
        c = _Chunk(self._chunk_coords(chunk, self.out_coords))
        v = self.plan.vector
        last = len(self.rows.shape) - 1
        slot = [self._linear((chunk, self.plan.vec_r))] if self.staged else []
        for o in self.rows.chunk_operands():
            etype = ir.RankedTensorType(o.value.type).element_type
            vtype = ir.VectorType.get([v], etype)
            if o.value in self.staged and sweep > 0:
                c.values[(o.value, o.dims)] = read_vector(vtype, self.staged[o.value], slot)
                continue
            buf = self._buffer(o.value, self.bufs)
            index = [c.coords[d] for d in o.dims]
            if last in o.dims:
                c.values[(o.value, o.dims)] = read_vector(vtype, buf, index)
            else:
                c.values[(o.value, o.dims)] = vector.broadcast(vtype, memref.load(buf, index))
            if o.value in self.staged:
                with self._only_if(valid):
                    write_vector(c.values[(o.value, o.dims)], self.staged[o.value], slot)
        return c

    def _operand(self, c: _Chunk, o: fused_rows.Operand) -> ir.Value:
        """The vector of operand `o` at chunk `c`."""
        if (o.value, o.dims) in c.values:
            return c.values[(o.value, o.dims)]
        scalar = self._row_value(o)
        if scalar is not None:
            return vector.broadcast(ir.VectorType.get([self.plan.vector], scalar.type), scalar)
        return self._full(c, o.value)

    def _row_value(self, o: fused_rows.Operand) -> ir.Value | None:
        """The scalar of a row operand: loaded (by tensor and dims) or computed (by value)."""
        return self.row.get((o.value, o.dims), self.row.get(o.value))

    def _reciprocals(self, node: fused_rows.Node) -> dict:
        """For clone_body: each row divisor of `node` (its block argument) -> its reciprocal,
        broadcast."""
        args = node.op.regions[0].blocks[0].arguments
        out = {}
        for i in node.row_divisors:
            r = self.row.get(("reciprocal", node.operands[i].value, node.operands[i].dims))
            if r is not None:
                out[args[i]] = vector.broadcast(ir.VectorType.get([self.plan.vector], r.type), r)
        return out

    def _full(self, c: _Chunk, value: ir.Value) -> ir.Value:
        """The vector of full tensor `value` (a map's result) at chunk `c`, computed once."""
        if value not in c.values:
            node = self.rows.producer(value)
            args = [self._operand(c, o) for o in node.operands]
            for r, x in zip(node.op.results, clone_body(node.op, args, self.plan.vector,
                                                        reciprocals=self._reciprocals(node))):
                c.values[r] = x
        return c.values[value]

    def _reduce(self, level: int, accs: list[ir.Value], chunks: list[_Chunk], valid) -> list[ir.Value]:
        """`accs` (one per partial of pass `level`, _row_partials' order) with each chunk
        folded in."""
        nodes, bests = self.rows.reductions(level), self.rows.arg_bests(level)
        for i, c in enumerate(chunks):
            new, pos = [], 0
            for n in nodes:
                m = len(n.op.results)
                args = [self._operand(c, o) for o in n.operands] + accs[pos:pos + m]
                new += clone_body(n.op, args, self.plan.vector, reciprocals=self._reciprocals(n))
                pos += m
            for (n, phase), acc in zip(bests, accs[pos:]):
                new.append(self._arg_best_step(c, n, phase, acc))
            accs = [self._select_valid(valid[i] if valid else None, x, a) for x, a in zip(new, accs)]
        return accs

    def _indices(self, c: _Chunk) -> ir.Value:
        """The row indices (i32) of chunk `c`'s elements."""
        v = self.plan.vector
        i32 = ir.IntegerType.get_signless(32)
        first = vector.broadcast(ir.VectorType.get([v], i32), arith.index_cast(i32, c.coords[-1]))
        steps = ir.DenseElementsAttr.get(np.arange(v, dtype=np.int32), type=ir.VectorType.get([v], i32))
        return arith.addi(first, arith.constant(ir.VectorType.get([v], i32), steps))

    def _compared(self, c: _Chunk, n: fused_rows.Node) -> ir.Value:
        """The vector of the values arg-best reduction `n` compares, at chunk `c` (its body
        cloned with its outputs as constants: their uses are dead)."""
        key = (n.op.results[0], "compared")
        if key not in c.values:
            v, best = self.plan.vector, n.arg_best
            index_type = ir.VectorType.get([v], ir.IndexType.get())
            mapping = {best.index: arith.index_cast(index_type, self._indices(c))}
            outs = [Combiner(best.kind, best.compared.type).identity(ir.VectorType.get([v], best.compared.type)),
                    arith.constant(ir.VectorType.get([v], n.op.results[1].type.element_type),
                                   ir.DenseElementsAttr.get_splat(
                                       ir.VectorType.get([v], n.op.results[1].type.element_type),
                                       ir.IntegerAttr.get(n.op.results[1].type.element_type, 0)))]
            clone_body(n.op, [self._operand(c, o) for o in n.operands] + outs, v, mapping)
            c.values[key] = mapping[best.compared]
        return c.values[key]

    def _arg_best_step(self, c: _Chunk, n: fused_rows.Node, phase: int, acc: ir.Value) -> ir.Value:
        """`acc` of arg-best phase `phase` (see _row_partials) with chunk `c` folded in."""
        v, best = self.plan.vector, n.arg_best
        i32 = ir.IntegerType.get_signless(32)
        values, indices = self._compared(c, n), self._indices(c)
        none = arith.constant(ir.VectorType.get([v], i32), ir.DenseElementsAttr.get_splat(
            ir.VectorType.get([v], i32), ir.IntegerAttr.get(i32, _I32_MAX)))
        if phase == 0:
            nan = arith.cmpf(arith.CmpFPredicate.UNO, values, values)
            return arith.minsi(acc, arith.select(nan, indices, none))
        first_nan = vector.broadcast(indices.type, self.row[(n.op.results[0], 0)])
        before = arith.cmpi(arith.CmpIPredicate.slt, indices, first_nan)
        if phase == 1:
            comb = Combiner(best.kind, best.compared.type)
            return comb(acc, arith.select(before, values, comb.identity(values.type)))
        top = vector.broadcast(values.type, self.row[(n.op.results[0], 1)])
        holds = arith.andi(before, arith.cmpf(arith.CmpFPredicate.OEQ, values, top))
        return arith.minsi(acc, arith.select(holds, indices, none))

    def _arg_best_results(self, n: fused_rows.Node) -> None:
        """The value and index results of arg-best reduction `n` from its three phases and its
        initial values (v0, i0), as the sequential body leaves them: the value is NaN if a NaN
        came (or v0 is one), else best(v0, the row's best); the index is that of the row's
        best where it beats v0 (strictly), else i0."""
        best = n.arg_best
        r_value, r_index = n.op.results
        first_nan, top, first = (self.row[(r_value, p)] for p in range(fused_rows.ARG_BEST_PASSES))
        v0, i0 = (memref.load(self.inits[r], self.out_coords) if isinstance(self.inits[r].type, ir.MemRefType)
                  else self.inits[r] for r in (r_value, r_index))
        i32 = ir.IntegerType.get_signless(32)
        vt = best.compared.type
        has_nan = arith.cmpi(arith.CmpIPredicate.ne, first_nan, arith.constant(i32, _I32_MAX))
        self.row[r_value] = arith.select(has_nan, arith.constant(vt, ir.FloatAttr.get(vt, math.nan)),
                                         Combiner(best.kind, vt)(v0, top))
        pred = arith.CmpFPredicate.OGT if best.kind == "arith.maximumf" else arith.CmpFPredicate.OLT
        itype = ir.IntegerType(i0.type)
        index = first if itype.width == 32 else \
            arith.extsi(itype, first) if itype.width > 32 else arith.trunci(itype, first)
        self.row[r_index] = arith.select(arith.cmpf(pred, top, v0), index, i0)

    def _exchange(self, parts: list[tuple[object, Combiner]], accs: list[ir.Value]) -> list[ir.Value]:
        """Each partial's accumulators combined over the workgroup: the totals, which every
        thread gets."""
        plan, k = self.plan, self.k
        partials = [k.butterfly(self._fold(a, cb), plan.shuffle_offsets(), cb) for a, (_, cb) in zip(accs, parts)]
        if plan.subgroups_r == 1:
            return partials
        # One buffer per partial. With a single pass per row, the next tile's writes could
        # overtake this tile's reads; with more, another pass's barrier parts them.
        if plan.grid < plan.n_tiles and self.rows.passes == 1:
            gpu.barrier()
        with self._only_if(None if plan.lanes_r == 1 else self._is_zero(self.lane_r)):
            for (key, _), part in zip(parts, partials):
                memref.store(part, self.lds[key], [self.sg_r, k.const(0)])
        gpu.barrier()
        kk, _ = self._readback_lanes()
        return [self._partials_total(self.lds[key], k.const(0), kk, cb) for key, cb in parts]

    def _row_maps(self, level: int) -> None:
        """The row maps computable after `level` reduction passes, on scalars; then the
        reciprocals of the row divisors known by then, once per row."""
        for n in self.rows.row_maps(level):
            args = [self._row_value(o) for o in n.operands]
            for r, x in zip(n.op.results, clone_body(n.op, args, None)):
                self.row[r] = x
        for n, i in self.divisors:
            o = n.operands[i]
            key, scalar = ("reciprocal", o.value, o.dims), self._row_value(o)
            if scalar is not None and key not in self.row:
                one = arith.constant(scalar.type, ir.FloatAttr.get(scalar.type, 1.0))
                self.row[key] = arith.divf(one, scalar)

    def _store(self, chunks: list[_Chunk], valid) -> None:
        """Writes every stored full result at each chunk that exists."""
        for i, c in enumerate(chunks):
            with self._only_if(valid[i] if valid else None):
                for value, _ in self.rows.full_stores:
                    write_vector(self._full(c, value), self._buffer(value, self.outs), c.coords)
