"""ldsopt-preload-transposed: pointwise dispatches with transposed operands, through LDS.

Contract.
- Matches a dispatch whose root is an all-parallel `linalg.generic` with an elementwise body
  (arith, math), projected-permutation input maps and a permutation output map, in which
  some input that varies along the output's fastest dim (`a`) is fastest along another dim
  (its `b`): NHWC + NCHW -> NCHW, 2-D transposes, N-D permutations, several inputs
  transposed alike or differently, broadcasts mixed in. Element types are any the body
  takes (f32, f16, bf16, i8, i32, ...); ranks are not limited.
- Operands may be slices of a binding (static offsets and sizes, unit strides: eager BERT's
  K^T reads the K part of a fused projection; an output may be written into part of a
  buffer): rows are collapsed only where the slice keeps them contiguous, and each vector
  width divides the offsets and row strides of the slices read or written along it, so
  every vector starts aligned (a slice 40 elements in with rows 37 apart: scalars). A slice
  at an offset read at run time, or with strided rows, is left to IREE with that reason.
- Extents may be dynamic (`lds-run --keep-dynamic`: whole tensors whose extents are workload
  ordinals, `ldsopt.codegen.dispatch`), such as a K^T over a dynamic sequence or NCHW ->
  NHWC under a dynamic batch. The plan is made for a long extent (`problem.DYNAMIC_EXTENT`)
  with vectors along a dynamic dim as wide as its static part allows (scalars for a dynamic
  dim alone), no flat walk; the tile count is computed at run time, in the kernel and in its
  workgroup count, and every access along a dynamic dim is guarded. A slice under dynamic
  extents is left to IREE with that reason.
- Leaves alone dispatches without such an input (no transpose, or a permutation that
  keeps the fastest dim): they are lower_elementwise's.
- Needs a GPU target (#iree_gpu.target around the dispatch or lds-opt --target); a matched
  dispatch without one is an error.

The kernel (after seed 000 and MIGraphX's tiled pointwise kernels):
- dims that stay contiguous and in order in every operand are collapsed first (NHWC ->
  NCHW over 7x7 becomes (n, hw, c) -> (n, c, hw)), so `a` is as long as memory allows;
- each workgroup owns a tile spanning `a` (`row-bytes` of output, or all of a short `a`)
  and every `b`; the `b` extents (then, for small tiles, other dims') double round robin
  while the tile holds at most `tile-bytes` of output and its LDS fits
  `1/workgroups-per-cu` of the target's. A short `a` (HW = 49) thus gives a tile of all of
  HW and several channels. Extents need not divide the tile: each vector
  access is guarded (vector widths divide the extents, so a vector is all in or all out);
- workgroups walk the tiles in a grid-stride loop (a barrier first when a workgroup may
  take several), so any size fits the target's max workgroup count;
- within a tile each thread takes every workgroup-size-th block of a walk, `unroll` blocks at
  once: all their loads first, then all their stores (only the loads of ragged blocks and
  the stores sit under guards), so a thread keeps several loads in flight;
- load side (the default): each transposed input's tile is read from global memory with
  vectors along its own contiguous dim and written to a padded LDS buffer in its own order;
  barrier; threads then walk the tile in the output's order with vectors along `a`, read
  the staged inputs as columns from LDS and the others straight from global memory,
  apply the body to whole vectors and store vectors along `a`;
- store side (permutation normalization): when two or more inputs share one `b` and every
  input varying along `a` is among them, the output is the odd one out: the body runs in
  the inputs' order (vectors along `b`, global reads), results go to one padded LDS
  buffer, barrier, and the output is stored from LDS columns with vectors along `a`;
- in the column walk (LDS columns read, output stored) `g` neighbouring lanes take
  neighbouring vectors along `a`, the next lanes step along `b` (where all LDS buffers
  share one `b`): `g` lanes store one contiguous segment of an output row (at least
  `store-segment-bytes`), and lanes reading different LDS rows at once spread over banks;
- a tile that holds all of a short `a` (HW = 49) whose `b` is the output's next dim covers
  one contiguous output range per other coordinate: the column walk then runs over that
  range as one flat dim with vectors as wide as the range's extents allow (`flat`), reading
  each element's column from LDS and the inputs laid out like the output as vectors, so
  HW = 49 no longer means scalar global accesses;
- on CUDA/HIP each global vector access states the alignment its binding, offset, slice
  and strides prove (`kernel.global_alignment`), which LLVM cannot see through a binding at
  a run-time offset (it split eager BERT's f16 K^T stores into 2-byte ones);
- `g` and the padding of each LDS row (up to two row vectors) are chosen with the bank
  model (ldsopt/layout/banks.py) for the target's banks and wave: those that make the first
  wave's row writes and column reads cheapest (ties: the larger `g`, the smaller pad). A
  row vector costs as many writes as the padded rows' alignment splits it into (f16 rows
  of 64 + 1 halves: 8 two-byte writes; of 64 + 2: 4 four-byte ones).

Measurements (the H200, the tile and unroll sizes tried, the variants dropped):
bench/results/cuda/README.md.
"""

from __future__ import annotations

import dataclasses
import functools
import math

from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.codegen.dispatch import analyze
from ldsopt.codegen.kernel import GridStridePass, matched_dispatches
from ldsopt.ir_types import element_bits
from ldsopt.layout import maps as layout
from ldsopt.preload.emit import PreloadEmitter
from ldsopt.preload.problem import (FLAT, OUTPUT, PreloadPlan, PreloadProblem, StageKey, Walk, analyze_problem,
                                   row_major, stores_through_lds, widest_pow2_dividing)
from ldsopt.registry import option


@dataclasses.dataclass(frozen=True)
class PreloadTransposed(GridStridePass):
    NAME = "ldsopt-preload-transposed"
    SUMMARY = "Stage transposed operands of pointwise dispatches through padded LDS tiles"

    workgroup_size: int = option(256, "threads per workgroup at most", min=1, at_most="max_threads")
    tile_bytes: int = option(16384, "output bytes a workgroup's tile holds at most", min=1)
    row_bytes: int = option(256, "output bytes a tile spans along the output's contiguous dim", min=1)
    workgroups_per_cu: int = option(2, "workgroups that must fit the target's LDS together", min=1)
    store_segment_bytes: int = option(128, "contiguous output bytes neighbouring lanes store at least", min=1)
    unroll: int = option(16, "blocks a thread loads at once before storing any (0: one block per loop "
                         "iteration, loads and stores guarded together)", min=0)
    flat: bool = option(True, "when the tile holds all of a short `a`, walk the output's (b, a) tile as "
                        "one contiguous range with full-width vectors")

    def run(self, module: ir.Operation) -> None:
        for d, p, tgt in matched_dispatches(module, ("linalg.generic",), analyze_problem, self,
                                            functools.partial(analyze, slices=True, offsets=True, dynamic=True)):
            PreloadEmitter(d, p, self.plan(p, tgt), tgt, self.grid_limit(tgt), self.unroll).emit(self.NAME)

    # --- planning (pure Python) ---------------------------------------------------------

    def plan(self, p: PreloadProblem, tgt: target_model.Target) -> PreloadPlan:
        t = p.transposed()
        core = sorted({p.a} | {p.inputs[i].fastest for i in t})
        vmax = min(tgt.vector_elems(element_bits(x.binding.tensor_type.element_type)) for x in p.inputs + [p.output])
        vec = {x: widest_pow2_dividing(math.gcd(p.divisor(x), p.row_alignment(x)), vmax) for x in core}
        store_side = stores_through_lds(p)
        sources = {OUTPUT: p.inputs[t[0]].dims} if store_side else {i: p.inputs[i].dims for i in t}
        rows = {dims[-1] for dims in sources.values()}
        col_b = rows.pop() if len(rows) == 1 else None
        plan = PreloadPlan(p.a, core, vec, [vec.get(x, 1) for x in range(len(p.shape))], sources, store_side, col_b)
        self._grow_tile(p, plan, tgt)
        if self.flat and not store_side and not p.dynamic:
            plan.flat = self._flat_width(p, plan, vmax)
        self._choose_lds_layout(p, plan, tgt)
        blocks = [math.prod(c for _, c, _ in plan.row_walk(k)) for k in sources] + \
            [math.prod(c for _, c, _ in plan.column_walk)]
        sg = tgt.subgroup_size
        plan.workgroup_size = min(self.workgroup_size, tgt.max_threads, math.ceil(max(blocks) / sg) * sg)
        return plan

    @staticmethod
    def _flat_width(p: PreloadProblem, plan: PreloadPlan, vmax: int) -> int:
        """The vector width of a flat column walk, or 0: when the tile holds all of `a` and
        col_b is the output's next dim, the tile's output is one contiguous range per other
        coordinate, walked with vectors wider than `a` allows (HW = 49: 1) that still divide
        the tile's and the tensor's (col_b, a) extents (so a vector is all in or all out)."""
        a, b = p.a, plan.col_b
        if b != a - 1 or plan.tile[a] != p.shape[a] or plan.tile[b] == 1:
            return 0
        # operands read as one range: slices among them must hold it contiguously, rows aligned
        ranged = [x for x in p.inputs + [p.output] if x.dims[-2:] == [b, a]]
        if any(x.strides is not None and x.strides[-2] != p.shape[a] for x in ranged):
            return 0
        width = widest_pow2_dividing(math.gcd(plan.tile[b] * p.shape[a], p.shape[b] * p.shape[a],
                                              *(x.align for x in ranged)), vmax)
        return width if width > plan.vec[a] else 0

    def _stage_elem_bytes(self, p: PreloadProblem, key: StageKey) -> int:
        return (p.output if key == OUTPUT else p.inputs[key]).elem_bytes

    def _grow_tile(self, p: PreloadProblem, plan: PreloadPlan, tgt: target_model.Target) -> None:
        """`a` first: `row-bytes` of output, or whole when shorter than two such rows (HW = 49
        stays one row and the tile takes several channels instead). Then the tile doubles
        round robin, the other core dims first, then the rest innermost first (more work for
        small `a` and `b`), while it holds at most `tile-bytes` of output and its LDS (with the
        largest pad tried) fits the budget."""
        budget = tgt.lds_budget(self.workgroups_per_cu)
        max_elems = max(1, self.tile_bytes // p.output.elem_bytes)
        va = plan.vec[p.a]
        row = max(va, self.row_bytes // p.output.elem_bytes // va * va)
        plan.tile[p.a] = p.shape[p.a] if p.shape[p.a] < 2 * row else row

        def lds_bytes() -> int:
            return sum(math.prod(plan.lds_shape(k, plan.pad_choices(k)[-1])) * self._stage_elem_bytes(p, k)
                       for k in plan.sources)

        cores = [x for x in plan.core if x != p.a]
        others = [x for x in reversed(range(len(p.shape))) if x not in plan.core]
        for growing in (cores, others):
            while growing:
                for x in list(growing):
                    old = plan.tile[x]
                    plan.tile[x] = min(2 * old, p.shape[x])
                    if plan.tile[x] == old or math.prod(plan.tile) > max_elems or lds_bytes() > budget:
                        plan.tile[x] = old
                        growing.remove(x)

    def _choose_lds_layout(self, p: PreloadProblem, plan: PreloadPlan, tgt: target_model.Target) -> None:
        """Sets the column walk's lanes along `a` (col_g) and each buffer's row padding to what
        makes the first wave's LDS accesses cheapest in the bank model. col_g ranges over the
        divisors of the tile's vectors along `a` that give each output row at least
        `store-segment-bytes` from neighbouring lanes; ties: the larger col_g (longer
        segments), then the smaller pad."""
        va = plan.vec[p.a]
        n_a = plan.tile[p.a] // va
        segment = max(1, math.ceil(self.store_segment_bytes / (va * p.output.elem_bytes)))
        groups = [g for g in range(1, n_a + 1) if n_a % g == 0 and (g >= segment or g == n_a)]
        best = None
        for g in groups:
            plan.col_g = g
            choices = {k: min((self._lds_cycles(p, plan, k, pad, tgt), pad) for pad in plan.pad_choices(k))
                       for k in plan.sources}
            cost = (sum(c for c, _ in choices.values()), -g)
            if best is None or cost < best[0]:
                best = (cost, g, {k: pad for k, (_, pad) in choices.items()})
        _, plan.col_g, plan.pads = best
        model = tgt.bank_model()
        plan.conflicts = {k: tuple(sum(model.conflicts(lanes, nbytes) for lanes, nbytes in accesses)
                                   for accesses in self._lds_accesses(p, plan, k, plan.pads[k], tgt))
                          for k in plan.sources}

    def _lds_cycles(self, p: PreloadProblem, plan: PreloadPlan, key: StageKey, pad: int,
                    tgt: target_model.Target) -> int:
        """Bank-model cycles (phases plus conflicts) of the first wave's LDS accesses to buffer
        `key` with rows padded by `pad` (`_lds_accesses`)."""
        model = tgt.bank_model()
        return sum(math.ceil(tgt.subgroup_size / model.lanes_per_phase(nbytes)) + model.conflicts(lanes, nbytes)
                   for accesses in self._lds_accesses(p, plan, key, pad, tgt) for lanes, nbytes in accesses)

    def _lds_accesses(self, p: PreloadProblem, plan: PreloadPlan, key: StageKey, pad: int,
                      tgt: target_model.Target) -> tuple[list, list]:
        """The first wave's LDS accesses to buffer `key` with rows padded by `pad`, each as (byte
        address per lane, bytes): its row writes, and its column reads (one access per `a`
        position)."""
        eb = self._stage_elem_bytes(p, key)
        dims = plan.stage(key)
        shape = plan.lds_shape(key, pad)

        def first_wave(walk: Walk) -> list[dict[int, int] | None]:
            n = math.prod(c for _, c, _ in walk)
            return [layout.Walk(tuple(walk))(lane) if lane < n else None for lane in range(tgt.subgroup_size)]

        def addr(c: dict[int, int] | None, j: int = 0) -> int | None:
            if c is None:
                return None
            if FLAT in c:  # a flat column walk: element j of the range's block
                c = dict(c)
                c[plan.col_b], c[p.a] = divmod(c.pop(FLAT) + j, p.shape[p.a])
                return row_major([c.get(x, 0) for x in dims], shape) * eb
            return row_major([c[x] + (j if x == p.a else 0) for x in dims], shape) * eb

        row_walk = plan.row_walk(key)
        writers, readers = first_wave(row_walk), first_wave(plan.column_walk)
        # a row vector splits into accesses as wide as the padded rows keep it aligned
        row_bytes = row_walk[0][2] * eb
        width = math.gcd(row_bytes, shape[-1] * eb)
        return ([([None if c is None else addr(c) + j * width for c in writers], width)
                 for j in range(row_bytes // width)],
                [([addr(c, j) for c in readers], eb) for j in range(plan.flat or plan.vec[p.a])])
