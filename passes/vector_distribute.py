"""ldsopt-vector-distribute: reductions distributed over threads and subgroups, the partial
results of different subgroups meeting through LDS (seed 001).

Matches a dispatch whose root is a `linalg.generic` with reduction iterators or a
`linalg.reduce` such that
- every input reads the whole iteration space through one permutation map and the output
  holds the parallel dims in the inputs' dim order (any subset of the inputs' dims may be
  reduced, all of them too); dims are numbered as the inputs' dims from here on;
- the body ends in one combining op of the output block argument and a value computed from
  the inputs alone (elementwise producers such as `x*x` or `arith.extf` may precede it):
  add, mul, float min/max (`minimumf`, `maximumf`, `minnumf`, `maxnumf`), integer min/max
  (`minsi`, `maxsi`, `minui`, `maxui`), `andi`, `ori`, `xori`;
- the output starts as a `linalg.fill` value or as a loaded tensor.
Anything else is left alone.

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

Measured on the H200 at 6eaddf9 (2026-11-29, 5 repetitions, copy 4.26 TB/s; the default
pipelines; bench/results/cuda/), us (fraction of the copy) against IREE's default:
rowsum_4x4096 f32 4.0 vs 4.0, f16 4.9 vs 4.1 (ncu: 2.43 vs 2.21 us a kernel); rowsum_8192x8192
f32 66.7 (94%) vs 67.8, f16 35.1 vs 35.3; rowsum_32x1048576 (split in two dispatches) f32 41.5
(76%) vs 44.0, f16 24.1 vs 25.5; sum_2p26_f32 (split) 71.8 (88%) vs 1656; max_mid_64x4096x64
22.0 (72%) vs 105.9 (torch 29.1), with 1024 threads (64 workgroups on 132 SMs, chosen by
reduction_plan._grown). An earlier sweep: 1024 threads elsewhere were slower (rowsum_8192x8192
f16 44.9 against 35.5, sum_2p26_f32 80.1 against 74.1); unroll 1/2/8/16 no faster than the
plan's. Before this the pass followed the layout IREE writes at configuration as if a user had,
and so matched IREE's own figures.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt import reduction_plan
from ldsopt import target as target_model
from ldsopt.banks import BankModel
from ldsopt.combining import combining_op, identity_attr
from ldsopt.dispatch import Binding, Dispatch, load_binding
from ldsopt.elementwise import element_bits, map_dims, vectorize_body
from ldsopt.kernel import USER_CONFIG, Kernel, matched_dispatches, read_vector, write_vector
from ldsopt.reduction_plan import Plan, PlanError, Problem
from ldsopt.registry import ModulePass, PassError, option

LAYOUT_ATTR = "ldsopt.reduction_layout"

@dataclasses.dataclass
class Reduction:
    shape: tuple[int, ...]        # the iteration space, in the inputs' dim order
    reduced: tuple[int, ...]
    perm: list[int]               # input dim j is the op's iteration dim perm[j]
    combine: ir.Operation         # the body's combining op
    init: ir.Value | Binding      # the fill value, or the binding of the loaded initial output

    @property
    def kind(self) -> str:
        return self.combine.name

    @property
    def acc_type(self) -> ir.Type:
        return self.combine.results[0].type


def _reduced_dims(root: ir.Operation) -> tuple[tuple[int, ...], list[int]] | None:
    """(the reduced dims numbered as the input tensors' dims, perm: input dim j reads
    iteration dim perm[j]) if every input reads the iteration space through one permutation
    and the output holds the parallel dims in the inputs' order (IREE interchanges iterators
    so that reductions come last); else None."""
    rank = ir.RankedTensorType(root.operands[0].type).rank
    if root.name == "linalg.reduce":
        return tuple(sorted(ir.DenseI64ArrayAttr(root.attributes["dimensions"]))), list(range(rank))
    iters = [str(a) for a in root.attributes["iterator_types"]]
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in root.attributes["indexing_maps"]]
    perm = maps[0]
    if len(iters) != rank or perm is None or sorted(perm) != list(range(rank)) or any(m != perm for m in maps[:-1]):
        return None
    reduced = tuple(j for j in range(rank) if "reduction" in iters[perm[j]])
    if maps[-1] != [perm[j] for j in range(rank) if j not in reduced]:
        return None
    return reduced, perm


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


def layout_attr(plan: Plan, lds_pad: int) -> ir.DictAttr:
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
    - source: "default" or "lowering_config"."""
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

    def run(self, module: ir.Operation) -> None:
        for d, red, tgt in matched_dispatches(module, ("linalg.generic", "linalg.reduce"),
                                              lambda d: match_reduction(d.root), self):
            func = d.func
            plan = self._plan(d, red, tgt)
            banks = BankModel(tgt.lds_banks, tgt.lds_bank_bytes, tgt.subgroup_size)
            lds_pad = plan.lds_row_pad(banks, element_bits(red.acc_type) // 8) if plan.subgroups_r > 1 else 0
            func.attributes[LAYOUT_ATTR] = layout_attr(plan, lds_pad)
            _ReductionKernel(d, red, plan, tgt, lds_pad).emit()

    def _plan(self, d: Dispatch, red: Reduction, tgt: target_model.Target) -> Plan:
        bits = [element_bits(b.tensor_type.element_type) for b in d.inputs]
        problem = Problem(red.shape, red.reduced, min(tgt.vector_elems(b) for b in bits), tgt.subgroup_size,
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


class _ReductionKernel:
    """Emits the kernel of one planned reduction (steps 1-4 of the module docstring)."""

    def __init__(self, d: Dispatch, red: Reduction, plan: Plan, tgt: target_model.Target, lds_pad: int):
        self.d, self.red, self.plan, self.lds_pad = d, red, plan, lds_pad
        self.k = Kernel(d, tgt, (plan.workgroup_size, 1, 1), (plan.grid, 1, 1))
        self.out_sizes = [red.shape[i] for i in plan.problem.parallel]

    def combine(self, a: ir.Value, b: ir.Value) -> ir.Value:
        attrs = dict(self.red.combine.attributes.items())  # keeps fastmath / overflow flags
        return ir.Operation.create(self.red.kind, results=[a.type], operands=[a, b], attributes=attrs).result

    def identity(self, t: ir.Type) -> ir.Value:
        attr = identity_attr(self.red.kind, self.red.acc_type)
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr) if isinstance(t, ir.VectorType) else attr)

    def emit(self) -> None:
        plan, k, d = self.plan, self.k, self.d
        with k.ip, d.location:
            self.inputs = [b.memref() for b in d.inputs]
            self.output = d.output.memref()
            self.init = self.red.init.memref() if isinstance(self.red.init, Binding) else self.red.init
            self.tid = k.thread_id()
            L = plan.subgroup_size
            lane_p, self.lane_r = self._split(arith.remui(self.tid, k.const(L)), plan.lanes_p, plan.lanes_r)
            sg_p, self.sg_r = self._split(arith.divui(self.tid, k.const(L)), plan.subgroups_p, plan.subgroups_r)
            # With every thread on one side, the thread id is that side's coordinate.
            self.p = self.tid if plan.threads_r == 1 else self._linear((sg_p, plan.lanes_p), (lane_p, 1))
            self.r = self.tid if plan.threads_p == 1 else self._linear((self.sg_r, plan.lanes_r), (self.lane_r, 1))
            if plan.subgroups_r > 1:
                space = ir.Attribute.parse("#gpu.address_space<workgroup>")
                lds_type = ir.MemRefType.get([plan.subgroups_r, plan.outputs_per_tile + self.lds_pad],
                                             self.red.acc_type, memory_space=space)
                self.lds = memref.alloc(lds_type, [], [])
            tiles = scf.ForOp(k.block_id(), k.const(plan.n_tiles), k.const(plan.grid))
        with ir.InsertionPoint(tiles.body), d.location:
            self._tile(tiles.induction_variable)
            scf.yield_([])
        k.finish(VectorDistribute.NAME)

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
        """This thread's partial result for each of its vec_p outputs starting at `first`:
        a loop over whole groups of `unroll` chunks (all loads of a group issued before the
        body combines them), then the thread's leftover chunks (plan.remainder_loads loads,
        each clamped to the last chunk and its value dropped where its chunk does not exist,
        when threads differ in their leftovers)."""
        plan, k = self.plan, self.k
        v, tr, u = plan.vector, plan.threads_r, plan.unroll
        out_coords = k.delinearize(first, self.out_sizes) if self.out_sizes else []
        acc = self.identity(ir.VectorType.get([v], self.red.acc_type))
        start = self.r
        main_end = plan.chunks - (u - 1) * tr  # a group starting at chunk c ends at c + (u-1) tr
        if main_end > 0:
            leftover = [start] if plan.remainder_loads else []  # where a thread's leftovers begin
            loop = scf.ForOp(self.r, k.const(main_end), k.const(u * tr), [acc] + leftover)
            with ir.InsertionPoint(loop.body):
                c = loop.induction_variable
                loads = [self._read_chunk(self._linear((c, 1), (k.const(i * tr), 1)), out_coords)
                         for i in range(u)]
                nxt = [arith.addi(c, k.const(u * tr))] if leftover else []
                scf.yield_([self._accumulate(loop.inner_iter_args[0], loads)] + nxt)
            acc, start = loop.results[0], loop.results[1] if leftover else None
        chunks = [self._linear((start, 1), (k.const(i * tr), 1)) for i in range(plan.remainder_loads)]
        valid = None
        if plan.remainder_guarded and chunks:
            valid = [arith.cmpi(arith.CmpIPredicate.ult, c, k.const(plan.chunks)) for c in chunks]
            chunks = [arith.minui(c, k.const(plan.chunks - 1)) for c in chunks]
        if chunks:
            acc = self._accumulate(acc, [self._read_chunk(c, out_coords) for c in chunks], valid)
        elements = [vector.extract(acc, [], [j]) for j in range(v)]
        if plan.vec_p > 1:
            return elements
        while len(elements) > 1:  # a tree over the vector's elements
            pairs = zip(elements[::2], elements[1::2])
            elements = [self.combine(a, b) for a, b in pairs] + elements[len(elements) & ~1:]
        return elements

    def _read_chunk(self, chunk: ir.Value, out_coords: list[ir.Value]) -> list[ir.Value]:
        """Each input's vector of reduction chunk `chunk` for the outputs at `out_coords`."""
        plan, red = self.plan, self.red
        p = plan.problem
        chunk_sizes = [red.shape[i] for i in p.reduced]
        chunk_sizes[-1] //= plan.vec_r
        red_coords = self.k.delinearize(chunk, chunk_sizes)
        if plan.vec_r > 1:
            red_coords[-1] = self._linear((red_coords[-1], plan.vec_r))
        coords = dict(zip(p.parallel, out_coords)) | dict(zip(p.reduced, red_coords))
        index = [coords[i] for i in range(len(red.shape))]
        return [read_vector(ir.VectorType.get([plan.vector], b.tensor_type.element_type), buf, index)
                for b, buf in zip(self.d.inputs, self.inputs)]

    def _accumulate(self, acc: ir.Value, loads: list[list[ir.Value]], valid: list[ir.Value] | None = None) -> ir.Value:
        """`acc` with the body applied to each chunk's loaded vectors in turn; a chunk whose
        `valid` flag is false leaves it unchanged."""
        mask_type = ir.VectorType.get([self.plan.vector], ir.IntegerType.get_signless(1))
        for i, values in enumerate(loads):
            new = vectorize_body(self.d.root, values + [acc], self.plan.vector)
            # A vector condition: SPIR-V 1.3 selects vectors by vectors of booleans only.
            acc = new if valid is None else arith.select(vector.broadcast(mask_type, valid[i]), new, acc)
        return acc

    def _read_back(self, tile_first: ir.Value) -> None:
        """G lanes per output combine the subgroups' partials, each lane serially over every
        G-th one; the G lanes are xor partners `spread` apart so that the lanes in between
        read consecutive outputs of one buffer row (with the rows' padding, no bank
        conflicts). Rounds cover the tile."""
        plan, k = self.plan, self.k
        group = plan.readback_group()
        spread = plan.subgroup_size // group
        per_round = plan.workgroup_size // group
        n_out = plan.outputs_per_tile
        lane = arith.remui(self.tid, k.const(plan.subgroup_size))
        kk = arith.divui(lane, k.const(spread)) if spread > 1 else lane
        out0 = self._linear((arith.divui(self.tid, k.const(plan.subgroup_size)), spread),
                            (arith.remui(lane, k.const(spread)) if spread > 1 else k.const(0), 1))
        for rnd in range(math.ceil(n_out / per_round)):
            o = self._linear((out0, 1), (k.const(rnd * per_round), 1))
            exact = (rnd + 1) * per_round <= n_out
            # Surplus lanes read a valid column and store nothing: every lane takes part in the shuffles.
            col = o if exact else arith.minui(o, k.const(n_out - 1))
            loop = scf.ForOp(kk, k.const(plan.subgroups_r), k.const(group), [self.identity(self.red.acc_type)])
            with ir.InsertionPoint(loop.body):
                part = memref.load(self.lds, [loop.induction_variable, col])
                scf.yield_([self.combine(loop.inner_iter_args[0], part)])
            total = k.butterfly(loop.results[0], plan.readback_offsets(), self.combine)
            writes = self._is_zero(kk)
            if not exact:
                writes = arith.andi(writes, arith.cmpi(arith.CmpIPredicate.ult, o, k.const(n_out)))
            with self._only_if(writes):
                self._store_output(self._linear((tile_first, 1), (col, 1)), total)

    def _store_output(self, index: ir.Value, value: ir.Value) -> None:
        """Combines `value` with the initial value of output `index` and stores it."""
        coords = self.k.delinearize(index, self.out_sizes) if self.out_sizes else []
        init = memref.load(self.init, coords) if isinstance(self.red.init, Binding) else self.init
        memref.store(self.combine(value, init), self.output, coords)

    def _is_zero(self, v: ir.Value) -> ir.Value:
        return arith.cmpi(arith.CmpIPredicate.eq, v, self.k.const(0))
