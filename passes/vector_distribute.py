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
  (`minsi`, `maxsi`, `minui`, `maxui`), `andi`, `ori`, `xori`; a float accumulator less a
  value (`out - v`, IREE's canonical form of `out + (-v)`) is first rewritten as the addition
  it is (`combining.subtractions_as_additions`, in every reduction body of the module);
- the output starts as a `linalg.fill` value or as a loaded tensor;
- the result is stored, or feeds one elementwise consumer that IREE fused into the dispatch
  (ldsopt-split-matmul's sum of partials with the matmul's bias, GELU, residual or cast): an
  all-parallel `linalg.generic` over the output's dims, arith/math body ops, reading the
  result through the identity map and loaded tensors through ascending projections (a bias),
  whose one result is stored through a permutation of its loops (ldsopt/codegen/epilogue.py);
  a reduction and consumer that form rows (below) are the fused-rows kernel's.
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
4. one lane combines the result with the output's initial value and stores it (or, with a
   consumer, the consumer's body applied to it and its other inputs at that output).

Fused rows. A dispatch that ldsopt.fused_rows reads as rows (softmax, LayerNorm, RMSNorm,
logsumexp, mean, argmax / argmin, several reductions in one generic, as IREE forms them from
linalg.softmax or from generics): linalg.generics (and `iree_linalg_ext.arg_compare`) over one
iteration space S, its reduced dims last, each op's loops renamed to S's (a reduction over an
outer dim, as linalg.softmax over a middle dim or a PyTorch export of softmax(x, 1) gives it:
the maps around it run in memory order and read x transposed); any number of reductions, each result
with its own combining op (those above) and initial value; arg-best reductions (argmax /
argmin: a value and an index result, first index on ties, in the forms
ldsopt/reduction/arg_best.py reads by what they compute: torch-mlir's max.dim, TOSA's selects,
arg_compare; a NaN poisoning the value, taken, or skipped, as the body does; the new index the
position or integer arith of it and the inputs there, as a split argmax's combine computes
`j * 128 + partial[j]`); maps per element (before a combine, or consumers that
read the row again with the reduced values), which may gather a table's row at indices
computed once per row (an embedding lookup fused with its LayerNorm: `tensor.extract` at an
index_cast of a row operand and the row's position, read as vectors along the table's row, as
ldsopt/codegen/gather.py matches it); row maps on the
reduced values (divide by N, rsqrt(var + eps), log); loaded operands per element, per row or
per column (gamma, beta); bodies of any of these that compute with the element's position
(`linalg.index`: a causal or padding mask as PyTorch's eager attention builds it, cast,
compared and selected on), each position the kernel's coordinate (the row's, broadcast, or
along the row, the chunk's first plus each lane's);
any number of stored results, full or per row; operands and results that are static slices of
a binding (a pooler's first token, a row from its third column), their vectors no wider than
the slice's offset and row strides keep aligned; tensors read or written through any
permutation of S. Rows whose elements lie strided in memory (a tensor's contiguous dim is not
the row's) are read as scalars by reduction_plan.strided_rows: consecutive lanes on consecutive
rows, a tile of rows per workgroup, the row in registers or read again (not staged in LDS); a
few long rows also get the subgroups the rows leave, whose partials meet through LDS, each
thread reading its row's column of them; with extents read at run time, a row a tile. A
transposed write-back of rows read along memory is taken (ConvNeXt's LayerNorm written back to
NCHW), contiguous along any of the rows' dims (MobileViT's LayerNorm folded back into patches,
stored lane by lane: IREE 3.13's own kernel of it is wrong on lavapipe). Not matched (left to
IREE): loads contiguous along different dims (one along the row, another strided: a transposed
read, which IREE forms apart without aggressive fusion), or along a dim that is neither the
row's nor the rows' last, repeated reads, an
arg-best reduction whose reduced loop is not its last, bodies beyond arith / math /
`linalg.index` (and the table reads above), other select-over-the-output bodies, a reduction starting from another generic's result. A user's
layout config on any of its generics is refused (an error): the default plan (vectors along
the row, every thread of the workgroup on one row at a time; strided rows above) is the only one; a row kept in
registers (c.) takes fewer threads while each holds fewer than 4 chunks and the grid fills
the machine (reduction_plan.for_kept_row). Per row:
a. passes: the reductions that need no other one's result form pass 0, those that read a
   pass-0 result pass 1, and so on (softmax: the max, then the sum of exp(x - max)); a pass
   runs every reduction of its level over the thread's chunks at once (one accumulator
   vector each), steps 1-3 above for each result (one LDS buffer per result, a single
   barrier for all of them), except that every thread reads all partials back, so that
   each holds the total; it is combined with the result's initial value, and the row maps
   that need only what is known by then are computed on scalars. An arg-best reduction
   takes three passes (two where NaN are skipped), each an i32 / float reduction of this
   kind, so that its result is the body's, NaN included, whatever order the threads see the
   row in: the index of the first NaN (minsi), the best value before it (of the numbers,
   where NaN are skipped), the first index among those holding that value (minsi); then the
   value and the index as the sequential body leaves them, given the initial values (a -0
   and a +0 tying for the best of a select body may leave the other zero as the value); a
   new index computed from the position is computed once, at the position found, from the
   inputs loaded there;
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

Dynamic extents (`lds-run --keep-dynamic`; whole tensors whose extents are computed from
workload ordinals): reductions and fused rows reduced along the innermost dim, any of their extents
read at run time (the row count, the row length, or both), with the default plan made for a
bound (ldsopt/reduction/plan.py `planning_shape`) and the kernel of ldsopt/reduction/emit.py
reading the rest at run time (its docstring says how); a dynamic row length chooses between
two plans, vectors where they divide it and scalars (`row_vectors` in the layout attribute). Left to IREE: dynamic outputs along
the innermost dim, a dynamic extent not computed from workload ordinals; a user's layout config
on dynamic shapes is an error. On lavapipe a thread's loops end after 65535 iterations: a
dynamic row of more than 65535 x unroll x threads elements (16.7M at 256 threads) would be
cut, which no compile-time check here can see.

Left to IREE, with the reason: a dispatch computing in an element type the target does not
compute natively (i64 without `int64` in its `compute`), which IREE emulates on its own ops;
and one for which the default plans find no plan that passes `ReductionPlan.check` (a gap of
the planner, not of the program: none is known; a user's layout config that cannot be
honoured stays an error).

Measurements against IREE's default: bench/results/cuda/README.md.
"""

from __future__ import annotations

import dataclasses
import functools
import math

from iree.compiler import ir

from ldsopt import remarks
from ldsopt import target as target_model
from ldsopt.codegen import combining
from ldsopt.codegen.dispatch import Dispatch, Graph, analyze_graph, dynamic_extent, slice_layout
from ldsopt.codegen.elementwise import slice_alignment
from ldsopt.codegen.kernel import USER_CONFIG, GridStridePass, matched_dispatches, natively_computed
from ldsopt.ir_types import element_bits
from ldsopt.reduction import fused_rows
from ldsopt.reduction import plan as reduction_plan
from ldsopt.reduction.emit import ReductionKernel
from ldsopt.reduction.emit_rows import FusedRowKernel, row_partials
from ldsopt.reduction.match import Reduction, analyze_reduction, match_reduction
from ldsopt.reduction.plan import PlanError, ReductionPlan, ReductionProblem
from ldsopt.registry import PassError, option
from ldsopt.remarks import Unmatched

LAYOUT_ATTR = "ldsopt.reduction_layout"


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


def _match_single(d) -> Reduction | Unmatched | None:
    """match_reduction, and of dynamic shapes, those reduced along the innermost dim (the
    vectors, if any, along the rows)."""
    red = match_reduction(d.root)
    if not red or all(n >= 0 for n in red.shape):
        return red
    if len(red.shape) - 1 not in red.reduced:
        return Unmatched("dynamic outputs along the innermost dim; this pass takes dynamic outputs of rows")
    return red


def _with_narrow(plan: ReductionPlan, shape: tuple[int, ...], workgroup_size: int,
                 unroll: int) -> tuple[ReductionPlan, ReductionPlan | None]:
    """(plan, narrow): for a row of dynamic length (the innermost of `shape`) planned with
    vectors along it (as if they divided it), the plan of the same threads with vectors of one
    element, which the kernel runs where they do not (DistributedKernel.emit); (plan, None)
    for any other."""
    p = plan.problem
    if shape[-1] >= 0 or plan.vector == 1:
        return plan, None
    odd = dataclasses.replace(p, shape=p.shape[:-1] + (p.shape[-1] + 1,))
    narrow = reduction_plan.with_unroll(reduction_plan.default_plan(odd, workgroup_size), unroll)
    return (plan, narrow) if narrow.workgroup_size == plan.workgroup_size else (narrow, None)


def _row_vectors(plan: ReductionPlan, narrow: ReductionPlan | None) -> dict[str, ir.Attribute]:
    """The layout attribute's record of a dynamic row's two plans: their vector widths."""
    return {"row_vectors": ir.DenseI64ArrayAttr.get([plan.vector, narrow.vector])} if narrow else {}


def _match_rows(g: Graph) -> fused_rows.RowGraph | Unmatched:
    rows = fused_rows.match_rows(g)
    if rows and any(n < 0 for n in rows.shape) and _row_extents(rows) is None:
        return Unmatched("a dynamic row count that no loaded or stored tensor of the rows holds")
    return rows


def _row_extents(rows: fused_rows.RowGraph) -> dict[int, ir.Value] | None:
    """The dynamic extent of each dynamic row dim, read from a loaded or stored tensor
    that spans it; None where one is not found."""
    g, extents = rows.graph, {}
    spans = [(o.value, o.dims) for o in rows.chunk_operands() + rows.row_operands()] + \
        [(v, rows.layouts[v]) for v, _ in rows.full_stores]
    bindings = dict(g.loads + g.stores)
    for value, dims in spans:
        b = bindings.get(value)
        for j, i in enumerate(dims):
            if b is not None and b.tensor_type.shape[j] < 0:
                extents.setdefault(i, dynamic_extent(b, j))
    missing = [i for i, n in enumerate(rows.shape) if n < 0 and i not in extents]
    return None if missing else extents


@dataclasses.dataclass(frozen=True)
class VectorDistribute(GridStridePass):
    NAME = "ldsopt-vector-distribute"
    SUMMARY = "Lower reductions to kernels that reduce in threads, across lanes (shuffles) and across subgroups (LDS)"

    workgroup_size: int = option(0, "threads per workgroup of the default plan: 0 for its own choice (256, more when "
                                    "the grid leaves compute units idle), else at most this many, in whole subgroups "
                                    "(at least one; an override)", min=0, at_most="max_threads")
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
        roots = []

        def visit(op):
            if op.name in ("linalg.generic", "linalg.reduce"):
                roots.append(op.operation)
            return ir.WalkResult.ADVANCE
        module.walk(visit)
        for root in roots:
            combining.subtractions_as_additions(root)  # `out - v`, as IREE canonicalizes `out + (-v)`
        matches = matched_dispatches(module, ("linalg.generic", "linalg.reduce"), _match_single, self,
                                     analyzer=analyze_reduction)
        for d, red, tgt in natively_computed(matches, lambda d: [d.root] + ([d.epilogue.op] if d.epilogue else []),
                                             self.NAME):
            func = d.func
            try:
                plan, narrow = _with_narrow(self._plan(d, red, tgt), red.shape, self.workgroup_size, self.unroll)
            except PlanError as e:  # the default plans' gap: the dispatch stays IREE's, saying why
                remarks.missed(func, self.NAME, f"no plan: {e}")
                continue
            banks = tgt.bank_model()
            lds_pad = plan.lds_row_pad(banks, element_bits(red.acc_type) // 8) if plan.subgroups_r > 1 else 0
            func.attributes[LAYOUT_ATTR] = layout_attr(plan, lds_pad, **_row_vectors(plan, narrow))
            extents = {j: dynamic_extent(d.inputs[0], j) for j, n in enumerate(red.shape) if n < 0}
            ReductionKernel(d, red, plan, tgt, lds_pad, self.NAME, extents).emit(
                narrow and ReductionKernel(d, red, narrow, tgt, lds_pad, self.NAME, extents))
        # Then the dispatches of several ops (or several results) that form rows.
        # Rows may be read from or written to static slices of a binding (a pooler's first token).
        matches = matched_dispatches(module, fused_rows.ROOTS, _match_rows, self,
                                     analyzer=functools.partial(analyze_graph, slices=True, dynamic=True))
        for g, rows, tgt in natively_computed(matches, lambda g: g.ops, self.NAME):
            self._fused(g, rows, tgt)

    def _fused(self, g: Graph, rows: fused_rows.RowGraph, tgt: target_model.Target) -> None:
        for n in rows.nodes:
            cfg = user_config(g.func, n.op, self.configs == "all") if self.configs != "none" else None
            if cfg is not None and cfg.has_layout:
                raise PassError(n.op.location, f"{self.NAME}: cannot honour the lowering_config: a layout "
                                "config on a fused dispatch (several ops over the rows) is not supported")
        chunk_operands = rows.chunk_operands()
        tables = [ir.RankedTensorType(x.operands[0].type).element_type for n in rows.gathering() for x in n.reads.rows]
        # Vectors run along the innermost dim: as wide as its narrowest read or written tensor allows.
        along = [ir.RankedTensorType(o.value.type).element_type for o in chunk_operands
                 if len(rows.shape) - 1 in o.dims] + tables + \
            [ir.RankedTensorType(v.type).element_type for v, _ in rows.full_stores]
        vector_limit = 1 if rows.strided else \
            min((tgt.vector_elems(element_bits(t)) for t in along), default=tgt.vector_elems(32))
        # ... and that start where a static slice's offset and row strides allow (a row from
        # column 2): IREE's SPIR-V lowering reads a vector<n> of a binding at its index divided
        # by n (it read the wrong elements), and elsewhere a misaligned vector is split.
        sliced = [g.binding_of(o.value) for o in chunk_operands] + [b for _, b in rows.full_stores]
        aligned = math.gcd(*(slice_alignment(slice_layout(b)) for b in sliced if b is not None))
        if aligned:
            vector_limit = math.gcd(vector_limit, aligned)
        read_bits = sum(element_bits(ir.RankedTensorType(o.value.type).element_type) for o in chunk_operands) + \
            sum(element_bits(t) for t in tables)
        problem = ReductionProblem(reduction_plan.planning_shape(rows.shape, rows.reduced, aligned=True), rows.reduced,
                                   vector_limit,
                                   tgt.subgroup_size, tgt.max_threads,
                                   self.grid_limit(tgt),
                                   element_bytes=max(1, read_bits // 8), compute_units=tgt.compute_units)
        sweeps = rows.passes + (1 if rows.full_stores else 0)

        def kept(p: ReductionPlan) -> bool:  # the thread's share of the row fits in its registers
            return p.chunks_per_thread[1] * p.vector * (len(chunk_operands) + len(tables)) <= self.row_registers \
                and not dynamic_row

        # A row of a length read at run time is read again at each sweep (its bound is no size).
        dynamic_row = any(n < 0 for n in rows.shape[rows.k:])

        try:
            if rows.strided:
                dynamic = any(n < 0 for n in rows.shape)
                strided = reduction_plan.strided_rows(problem, self.workgroup_size, one_row=dynamic)
                plan, narrow = reduction_plan.with_unroll(strided, self.unroll), None
            else:
                plan = reduction_plan.default_plan(problem, self.workgroup_size)
                if sweeps > 1 and kept(plan) and not self.workgroup_size:
                    plan = reduction_plan.for_kept_row(plan, kept)
                plan, narrow = _with_narrow(reduction_plan.with_unroll(plan, self.unroll), rows.shape,
                                            self.workgroup_size, self.unroll)
        except PlanError as e:  # the default plans' gap: the dispatch stays IREE's, saying why
            remarks.missed(g.func, self.NAME, f"no plan: {e}")
            return
        # Rows are whole per workgroup (the default plan puts every thread on the reduction),
        # but for strided rows, a tile of them per workgroup.
        assert plan.threads_p == 1 or rows.strided, plan
        banks = tgt.bank_model()
        accs = [comb.acc_type for level in range(rows.passes) for _, comb in row_partials(rows, level)]
        pads = [plan.lds_row_pad(banks, element_bits(t) // 8) if plan.subgroups_r > 1 and plan.threads_p == 1 else 0
                for t in accs]
        # Where the row waits between sweeps: registers, else LDS, else global memory (read again).
        row = "global"
        if sweeps > 1 and kept(plan):
            row = "registers"
        elif sweeps > 1 and self.row_lds and not dynamic_row and plan.threads_p == 1:
            partial_bytes = sum(plan.subgroups_r * (1 + pad) * element_bits(t) // 8
                                for t, pad in zip(accs, pads)) if plan.subgroups_r > 1 else 0
            row_bytes = problem.n_reduced * sum(element_bits(ir.RankedTensorType(o.value.type).element_type) // 8
                                                for o in rows.staged_operands())
            if row_bytes and row_bytes + partial_bytes <= tgt.lds_budget(1):
                row = "lds"
        g.func.attributes[LAYOUT_ATTR] = layout_attr(
            plan, max(pads), passes=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), sweeps),
            row=ir.StringAttr.get(row), **_row_vectors(plan, narrow))
        extents = _row_extents(rows)
        FusedRowKernel(rows, plan, tgt, pads, row, self.row_reciprocal, self.NAME, extents).emit(
            narrow and FusedRowKernel(rows, narrow, tgt, pads, row, self.row_reciprocal, self.NAME, extents))

    def _plan(self, d: Dispatch, red: Reduction, tgt: target_model.Target) -> ReductionPlan:
        bits = [element_bits(b.tensor_type.element_type) for b in d.inputs]
        problem = ReductionProblem(reduction_plan.planning_shape(red.shape, red.reduced, aligned=True), red.reduced,
                                   min(tgt.vector_elems(b) for b in bits), tgt.subgroup_size,
                                   tgt.max_threads, self.grid_limit(tgt),
                                   element_bytes=sum(bits) // 8, compute_units=tgt.compute_units)
        cfg = user_config(d.func, d.root, self.configs == "all") if self.configs != "none" else None
        cfg = cfg.permuted(red.perm) if cfg is not None else None
        if cfg is not None and cfg.has_layout and not all(n >= 0 for n in red.shape):
            raise PassError(d.location, f"{self.NAME}: cannot honour the lowering_config: a layout config on "
                                        "dynamic shapes is not supported")
        try:
            if cfg is not None and cfg.has_layout:
                plan = reduction_plan.config_plan(problem, cfg, self.scale_config_to_target)
            else:
                plan = reduction_plan.default_plan(problem, self.workgroup_size)
            return reduction_plan.with_unroll(plan, self.unroll)
        except PlanError as e:
            if cfg is not None and cfg.has_layout:
                raise PassError(d.location, f"{self.NAME}: cannot honour the lowering_config: {e}") from None
            raise
