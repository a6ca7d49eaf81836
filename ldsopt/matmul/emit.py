"""The matmul kernel of a plan (`Emitter`; its scheme's subclass, emit_fma.py, emit_mma.py or
emit_wgmma.py, emits the product and the output store).

The kernel. Workgroup (x, y, z) computes the BM x BN tile (y, x) of batch z (where the plan
splits K over a cluster of S, `MatmulPlan.split`: tile (y, x / S), the K steps of chunk
x % S, the scheme summing the chunks: emit_wgmma.py; walking its tiles, persistent.py, workgroup
x computes tiles x, x + G, ... one K loop each, its pipeline running on from one into the
next, `pipeline_tile`): the tiling of
TILINGS (128x128 to 32x32 in 256 threads, 16-wide ones in 64 for skinny products) that the
target's threads, vector width and LDS take and that `plan_cost`, a model of how the tiles
spread over the target's compute units, finds fastest; the `tiles` option gives the tilings
to choose from, BMxBNxTMxTN, any sizes (96, 160, 192, 320, ...) whose BM/TM * BN/TN threads
split both tiles evenly and are whole subgroups. Per K step of BK (`k-bytes`; by default the
plan's choice of 64 bytes of K, 16 f32, 32 f16/bf16, 64 i8, or 128 where its cost is less):
- each operand's tile is staged global -> LDS as its `TileLayout` (ldsopt/layout/tile_layout.py)
  says, by the copy strategy (copy.py) that its thread map and copy choose; an operand computed
  by a fused prologue is computed from the prologue's inputs, read at the same place, before
  the LDS store. Planned here: vector
  reads in the operand's own memory order (no transpose), rows padded by the pad the bank
  model (ldsopt/layout/banks.py) finds cheapest for the first wave's stores and fragment reads. A
  pass before this one (inthread_transpose) may record a rewritten layout for an operand on
  the root op (`ldsopt.staging = {B = {...}}`, `record_staging`): it must stage the tile this plan stages (same tile, threads, fragment),
  and is emitted as it says: raked reads of several rows, a `vector.transpose` of each
  register tile, K-contiguous LDS with its row XOR and rotating swizzle applied to every LDS
  index; the passes that recorded one are named before this one in `ldsopt.lowered_by`. The
  emitted layout is recorded as `ldsopt.staging` on the operand's `memref.alloc`;
- the pipeline of S = `stages` LDS tiles (2 by default: double buffering). Step kt reads the
  global tile kt+1 of the operands staged through registers first (its latency hides behind
  the math), multiplies the LDS tile kt % S, stores the registers into LDS tile (kt+1) % S,
  then one barrier: it both publishes tile kt+1 and tells every thread that tile kt % S is no
  longer read before a later step overwrites it. Operands copied without registers (cp.async,
  gather_to_lds: dtl_layout's `copy = direct`, inthread_transpose's raked rows) run S - 1 tiles
  ahead: step kt starts the copies of tile kt+S-1 into LDS tile (kt-1) % S (free since the
  barrier ending step kt-1; a raked tile into its own slot kt % (S-1) of the staging buffer),
  one group per tile, and after the math waits only for tile kt+1's, leaving the S-2 newer
  groups in flight across the barrier. Tile indices past the last tile are clamped to it (the
  copy re-reads it into a tile no step reads) instead of branching. A K of one step with no
  copied operand reads nothing ahead (its only step multiplies tile 0, with no store or
  barrier after it): the clamped re-read would double the guarded reads of a small-K tile,
  which at i8 97x33x17 (1-byte reads) spilled SGPRs on gfx942. A register-staged
  operand whose staging says `prefetch = P` (inthread_transpose on CUDA) first prefetches,
  each step, the L1 lines of its global reads of tile kt+P (`prefetch.global.L1`, under the
  reads' guards);
- where the dispatch sums A's rows for its consumer (row_stats.py), each step adds its A
  tile's rows into partial sums the loop carries (`ROW_SUMS_LAST`), finished after the loop;
- the product, by scheme:
  FMA (every target; f32 on CUDA, where mma.sync would round to tf32; lavapipe): thread
  (ty, tx) owns the TM x TN micro-tile at (ty*TM, tx*TN), reads TM x KU of A and KU x TN of
  B per sub-step (vector reads along the LDS rows, converted to the accumulator's type: f32,
  or i32 by `arith.extsi` for i8) and does TM x KU `vector.fma`s (i32: `arith.muli` then
  `arith.addi`, exact) on vectors of TN (at most 4 on SPIR-V);
  matrix cores (gfx942 `amdgpu.mfma` 16x16x16 f16/bf16, 16x16x4 f32 and 16x16x32 i8; CUDA
  sm_80+ `nvgpu.mma.sync` m16n8k16 f16/bf16 and m16n8k32 i8; ldsopt/layout/mma.py has their lane
  layouts; i8 accumulates in i32): the waves tile
  the workgroup tile, each wave RM x RN intrinsic tiles; each lane reads its A and B operand
  registers from LDS in the longest runs the staging order allows (a K-contiguous A fragment
  of MFMA is one 4-element read, a K-strided one four scalar reads; CUDA's 16-bit ones whole by
  ldmatrix, B's of two N repetitions by one ldmatrix.x4). When both operands are K-contiguous
  in LDS and the intrinsic has no matrix load for them (`packing`), a read group covers k_pack
  K steps whose K slots are fed in mma.k_order, the same order for A and B, so that a lane's
  slots are consecutive K: one
  16-byte read (mma.sync f16: 8 K for four 4-byte reads; MFMA: ds_read_b128 for two
  ds_read_b64). B's fragments of a group are read first and kept, A's one repetition at a
  time, each followed by its products.
Output (output.py): each thread stores its accumulators (f32, i32 for i8) in vectors along N, adding a
loaded init, then applying the consumer if there is one. With matrix cores and a consumer of
transcendental math (GELU's erf, SiLU's exp), the last K step leaves the loop and goes by
accumulator, each consumed after the next one's products are emitted: the consumer's math
then overlaps those products (after the loop it ran alone: all workgroups of a one-wave grid
reach it together). The consumer's other operands are read at the same (b?, m, n) (a vector
along n where n is the operand's last dim, else a scalar broadcast), before the K loop where
they fit EARLY_READ_BYTES of registers (their latency then hides behind the loop). With an
output stage (ldsopt/matmul/output_stage.py, planned by `plan_output_stage`), the resulting
vectors go to an LDS tile instead, and after a barrier the tile leaves in 16-byte row pieces
(matrix-core fragments hold 1 or 2 elements of a row). The output writes and the vector reads
of this stage state their alignment (`kernel.global_alignment`; not on SPIR-V), which LLVM
cannot prove at a dynamic column.
Tails: global reads past M, N or K (tiles that do not divide the extents) are guarded and
read zeros, so they add nothing; stores (and reads of a loaded init or of the consumer's
operands) past M or N are guarded. A dynamic M, N or K (match.py: read at run time, planned
as NOMINAL_EXTENT) is always ragged: the operands' reads along it and the output's stores are
guarded against its value, the copies without registers clamp their indices to it, the count
region launches ceil(M / BM) workgroups along y and ceil(N / BN) along x (`_workload_grid`; up
to the target's most workgroups along each times the tile, the bound the kernel states for
its block ids), and a dynamic K's loop runs ceil(K / BK) steps, counted at run time: its
tiles' K offsets are not clamped (a tile past K reads nothing, each K index guarded), and its
last step is not peeled.
Vector widths divide the extents they run along, so a vector is all in or all out (along a
dynamic extent vectors are of one element).
"""

from __future__ import annotations

import contextlib
import functools
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, scf, vector

from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Binding, Dispatch
from ldsopt.codegen.workload import in_count_region
from ldsopt.codegen.async_copy import async_token
from ldsopt.codegen.kernel import Kernel, ceil_div, lds_alloc, read_vector
from ldsopt.ir_types import element_bits
from ldsopt.layout import index_expr
from ldsopt.layout.tile_layout import ATTR, TileLayout
from ldsopt.matmul import copy, output_stage, persistent, planner
from ldsopt.matmul.match import MatmulProblem
from ldsopt.matmul.operand_places import OperandPlaces
from ldsopt.matmul.output import OutputWriter
from ldsopt.matmul.row_stats import RowStatsKernel, RowValue
from ldsopt.matmul.schemes import MatmulPlan

_GRID_DIMS = ("n", "m", "b")  # what workgroups along x, y and z count (`MatmulPlan.grid`)


class Emitter(OperandPlaces):
    """Builds the kernel of one planned dispatch: the K loop here, each operand's copies by its
    strategy (copy.py), the output by an OutputWriter (output.py); the product and where the
    output pieces are in the scheme's subclass. ValueError for an operand copy the target has
    no engine for."""

    def __init__(self, d: Dispatch, p: MatmulProblem, pl: MatmulPlan, tgt: target_model.Target,
                 carry_fragments: bool = False):
        self.d, self.p, self.pl = d, p, pl
        self.carry_fragments = carry_fragments  # `carried_fragments` (matrix-core kernels)
        t = pl.tiling
        grid = pl.grid(p.sizes)
        if not {"m", "n"} & p.dynamic.keys():
            self.k = Kernel(d, tgt, (t.threads, 1, 1), grid)
        else:  # a dynamic M or N: any count of its tiles the target launches, the count computed at run time
            bound = tuple(most if dim in p.dynamic else g
                          for g, most, dim in zip(grid, tgt.max_workgroup_counts, _GRID_DIMS))
            self.k = Kernel(d, tgt, (t.threads, 1, 1), bound, self._workload_grid)
        self.acc_type = p.acc_type  # f32, i32 for i8 inputs
        if (pl.split > 1 or pl.row_share > 1) and not self.CLUSTERS:
            raise ValueError(f"a {type(pl.scheme).__name__} kernel runs in no cluster (a K split, shared row sums)")
        if pl.split > 1 and {"n", "k"} & p.dynamic.keys():
            raise ValueError("K split over a cluster needs a static N and K (its steps and the workgroups of an N "
                             "tile counted at compile time)")
        # K steps of this workgroup: its chunk of the K tiles where the plan splits K; None for a
        # dynamic K, whose ceil(K / BK) steps the loop counts at run time.
        self.n_steps: int | None = None
        if "k" not in p.dynamic:
            self.n_steps, left = divmod(math.ceil(p.sizes["k"] / pl.bk), pl.split)
            if left:
                raise ValueError(f"{math.ceil(p.sizes['k'] / pl.bk)} K steps do not split into {pl.split} chunks")
        self.k_base: ir.Value | None = None  # where this workgroup's chunk of K starts (split)
        self.output_stage: output_stage.OutputStage | None = None
        self.tma_store = None  # a walking wgmma kernel's tiles stored by TMA (tma_store.py)
        self.extra_lds = 0  # LDS the kernel takes beside the plan's tiles and the output stage
        self.copies_past = False  # whether the K loop being emitted copies tiles past K only
        self.copies = {r: copy.strategy(self, r) for r in pl.staging}  # chosen once
        self.copied = [c for c in self.copies.values() if c.copied]
        self.writer = OutputWriter(self)
        # Row sums of A (row_stats.py), carried through the K loop as `row_sums`.
        self.row_stats = RowStatsKernel(self, p.row_stats) if p.row_stats else None
        self.row_sums: list[ir.Value] | None = None
        self.extra_lds += self.row_stats.lds_bytes() if self.row_stats else 0
        self.walk: persistent.TileWalk | None = None  # a persistent kernel's walk (`walk_tiles`)
        self.persistent_refused: str | None = None  # why it is not one, where asked
        self.last_tile: ir.Value | None = None  # whether the walk's tile being stored is this workgroup's last

    def walk_tiles(self, per_cu: int = 1) -> None:
        """Makes this kernel, `per_cu` workgroups an SM, a persistent one (persistent.py) where it
        can be, else says why (`persistent_refused`); before `plan_output_stage`."""
        units = self.k.target.compute_units
        self.persistent_refused = persistent.refusal(self, units, per_cu)
        if self.persistent_refused is None:
            self.walk = persistent.TileWalk(self, units * per_cu)
            self.k.grid = self.walk.grid
            self.early_epilogue = False  # each tile's epilogue operands are read at its store

    def _workload_grid(self, workload: list[ir.Value]) -> list[ir.Value]:
        """The workgroup count of a dynamic M or N, from the count region's `workload`: ceil(N /
        BN) N tiles and ceil(M / BM) M tiles where they are dynamic, the others and the batch as
        planned."""
        const = functools.cache(lambda value: arith.constant(ir.IndexType.get(), value))
        t = self.pl.tiling
        extents = {dim: in_count_region(v, workload) for dim, v in self.p.dynamic.items() if dim != "k"}
        return [ceil_div(extents[dim], tile, const) if dim in extents else const(count)
                for count, tile, dim in zip(self.pl.grid(self.p.sizes), (t.bn, t.bm, 1), _GRID_DIMS)]

    def plan_output_stage(self, lds_left: int) -> output_stage.OutputStage | None:
        """Sets and returns the output stage (ldsopt/matmul/output_stage.py) of this kernel: its
        pad priced by the target's bank model on this thread layout's pieces, within `lds_left`
        bytes of LDS; None where it does not pay or fit."""
        if self.p.epilogue and self.p.epilogue.extra:  # the stage holds one result
            return None
        t, model = self.pl.tiling, self.k.target.bank_model()
        pieces = self.output_pieces()

        def writes(lane: int) -> list[tuple[int, int, int]]:
            m0, n0 = self.lane_output(lane)
            return [(m0 + dm, n0 + dn, width) for _, _, width, dm, dn in pieces]
        self.output_stage = output_stage.plan(
            t.bm, t.bn, self.p.out_run, t.threads, element_bits(self.p.output.tensor_type.element_type) // 8,
            writes, model, lds_left, self.k.target.max_vector_elems, needed=bool(self.p.chunk_stats))
        return self.output_stage

    def emit(self, pass_name: str, workgroups_per_cu: int = 1) -> None:
        k, p, pl, t = self.k, self.p, self.pl, self.pl.tiling
        with k.ip, self.d.location:
            loaded = isinstance(p.init, Binding)
            init_is_output = loaded and p.init.source == p.output.source  # before memref() rebinds it
            self.out = p.output.memref()
            self.init = None if not loaded else self.out if init_is_output else p.init.memref()
            self.mem = {r: b.memref() for r, b in p.operands.items()}
            self.epilogue_mem = [None if x is None else self.row_stats if isinstance(x[0], RowValue) else x[0].memref()
                                 for x in p.epilogue.inputs] if p.epilogue else []
            self.prologue_mem = {r: [b.memref() for b, _ in pro.inputs] for r, pro in p.prologues.items()}
            self.lds = {r: self._alloc(s) for r, s in pl.staging.items()}
            self.out_lds = None if self.output_stage is None else self.writer.alloc_stage()
            self.tid = k.thread_id()
            for c in self.copies.values():
                c.allocate()
            # The batch dims' indices: z, or z delinearized over several (a K split's chunk, batch).
            z = k.block_id("z")
            self.batch = k.delinearize(z, list(p.batch_shape)) if p.batch_shape else [z] if p.batched else []
            if self.walk is not None:  # where its first tile's reads start
                self.walk.start()
                self.origin = self.walk.origin(k.const(0))
            else:
                column = k.block_id("x")
                if pl.split > 1:  # x: the N tile's `split` workgroups side by side, one chunk of K each
                    self.rank = arith.remui(column, k.const(pl.split))
                    column = arith.divui(column, k.const(pl.split))
                    self.k_base = arith.muli(self.rank, k.const(self.n_steps * pl.bk))
                self.origin = {"m": arith.muli(k.block_id("y"), k.const(t.bm)), "n": arith.muli(column, k.const(t.bn))}
            self.thread_origins()
            for c in self.copies.values():
                c.locate()
            for c in self.copies.values():
                c.start_prefetching()
            self.group = None  # the cp.async group of the newest tile's copies (CUDA)
            self._start_pipeline()
            if self.row_stats:  # after the first copies are issued: their latency hides its loads
                self.row_sums = self.row_stats.begin()
            self._land(self._read_tiles(self._from_base(k.const(0))), k.const(0), self._slot(k.const(0)))
            gpu.barrier()
            acc0 = self.acc_init(k.const(p.init, self.acc_type) if not loaded else self.zero(self.acc_type))
            self.writer.read_epilogue_early()
            if self.walk is not None:  # each tile's K loop, then its store
                self.walk.loops(acc0)
            else:
                acc, peel = self.products(acc0)
                acc = self.finish_products(acc)
                if self.row_stats:
                    self.row_stats.finish(self.row_sums)
                if peel:
                    self.last_step_storing(acc)
                else:
                    self.store(acc)
        k.finish(pass_name, workgroups_per_cu)

    def products(self, acc0: list[ir.Value]) -> tuple[list[ir.Value], bool]:
        """The accumulators after the K loop(s) from `acc0`, and whether the last K step was
        left out of them (`last_step_storing` takes it)."""
        k, p, pl = self.k, self.p, self.pl
        # A dynamic K's last step stays in the loop: which LDS tile it reads is known at run
        # time only (and K may take no step at all). Row sums finish before the first store.
        peel = self.n_steps is not None and self.overlaps_epilogue() and self.row_stats is None
        acc = acc0
        if self.n_steps is None:  # one loop of ceil(K / BK) steps, counted at run time
            steps = ceil_div(p.extent("k"), pl.bk, k.const)
            acc = self._k_loop(k.const(0), steps, acc0 + self.carried_fragments(k.const(0)),
                               len(acc0))[:len(acc0)]
        elif self.n_steps - peel:
            steps = self.n_steps - peel
            # Fragments carried into each step (read after the barrier before it): only for
            # a loop of several steps, whose steps then start on their products.
            carried = self.carried_fragments(k.const(0)) if steps > 1 else []
            state = acc0 + carried
            # Two loops where the copies of the last steps' tiles lie past K (`past_steps`).
            live = steps - self.past_steps(steps)
            started = self.group  # a cp.async token that dominates both loops, for their waits
            for lo, hi in ((0, live), (live, steps)):
                if hi > lo:
                    self.copies_past, self.group = lo > 0 or live == 0, started
                    state = self._k_loop(k.const(lo), k.const(hi), state, len(acc0))
            acc = state[:len(acc0)]
        return acc, peel

    # --- what a scheme provides ---

    CLUSTERS = False  # whether the scheme runs in clusters (MatmulPlan.split, MatmulPlan.row_share)
    ROW_SUMS_LAST = False  # whether a K step sums A's rows after its products and copies (row_stats.py)
    # Whether the epilogue's operands are read before the K loop (OutputWriter.read_epilogue_early)
    early_epilogue = True
    # Whether a walk's copies count its iterations on their own (persistent.TileWalk.loops).
    WALK_ITERATIONS = False

    def walk_refusal(self) -> str | None:
        """Why this kernel cannot walk its tiles, beyond what persistent.refusal asks of all."""
        return None

    def barrier(self) -> None:
        """A barrier of the threads that compute and store the tile (all of them here)."""
        gpu.barrier()

    def store(self, acc: list[ir.Value]) -> None:
        """Stores the finished accumulators (`finish_products`') through the output writer."""
        self.writer.store_all(acc)

    def thread_origins(self) -> None:
        """Sets `frag_origin[role]`: where this thread's fragments start in the tile, along M (A)
        or N (B)."""
        raise NotImplementedError

    def acc_init(self, value: ir.Value) -> list[ir.Value]:
        raise NotImplementedError

    def multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value],
                 fragments: list[ir.Value] | None = None) -> list[ir.Value]:
        """The accumulators after the K sub-steps of `k_group` elements at `kk` of LDS buffer
        `buf`; `fragments`: that group's as `carried_fragments` read them, where the loop
        carries them (else read here)."""
        raise NotImplementedError

    def finish_products(self, acc: list[ir.Value]) -> list[ir.Value]:
        """The accumulators after the K loop, once the products are done (asynchronous ones:
        the wgmma scheme waits for them)."""
        return acc

    def carried_fragments(self, buf: ir.Value) -> list[ir.Value]:
        """The fragments of the first read group of LDS tile `buf` that the K loop carries into
        the step that multiplies it (none: each step reads its own)."""
        return []

    def k_group(self) -> int:
        """K elements each `multiply` covers."""
        return self.pl.scheme.k_step

    def overlaps_epilogue(self) -> bool:
        """Whether the last K step is taken out of the loop (`last_step_storing`) so that the
        consumer's math on each finished accumulator overlaps the products of the others."""
        return False

    def last_step_storing(self, acc: list[ir.Value]) -> None:
        """The last K step (its tile landed by the loop's last barrier), each accumulator
        stored (`OutputWriter.store_accumulator`) as soon as it is final, then the output stage
        copied out."""
        raise NotImplementedError

    def output_pieces(self) -> list[tuple[int, int, int, int, int]]:
        """This thread's output vectors, in store order: (accumulator, first element of its
        `flat` vector, width, m and n offsets from `output_origin`)."""
        raise NotImplementedError

    def output_origin(self) -> tuple[ir.Value, ir.Value]:
        """(m, n) of this thread's first output element."""
        return (arith.addi(self.origin["m"], self.frag_origin["A"]),
                arith.addi(self.origin["n"], self.frag_origin["B"]))

    def output_local(self) -> tuple[ir.Value, ir.Value]:
        """(m, n) of this thread's first output element in the workgroup's tile."""
        return self.frag_origin["A"], self.frag_origin["B"]

    def lane_output(self, lane: int) -> tuple[int, int]:
        """`output_local` of lane `lane` of the first wave, on ints (the output stage's bank model)."""
        raise NotImplementedError

    def flat(self, acc: ir.Value) -> ir.Value:
        """Accumulator `acc` as the 1-D vector `output_pieces` counts elements of."""
        return acc

    # --- the operands in LDS ---

    def _alloc(self, s: TileLayout) -> ir.Value:
        buf = lds_alloc(list(s.lds_shape), self.p.elem_type)
        buf.owner.attributes[ATTR] = s.attr()
        self.k.record_bank_conflicts(s.operand, *planner.lds_conflicts(
            s, self.pl.scheme, element_bits(self.p.elem_type) // 8, self.k.target.bank_model()))
        return buf

    def lds_indices(self, role: str, buf: ir.Value, row: ir.Value, col: ir.Value) -> list[ir.Value]:
        """The indices into the operand's LDS memref of the element at LDS (row, col) of LDS
        tile `buf`: where the layout's LDS map places it."""
        lds = self.pl.staging[role].lds
        return [buf, *self.k.index(lds.index_exprs(index_expr.var("row"), index_expr.var("col")), row=row, col=col)]

    def lds_read(self, role: str, buf: ir.Value, row: ir.Value, col: ir.Value, n: int) -> ir.Value:
        """A fragment read of n elements along the LDS row at LDS (row, col) of LDS tile `buf`."""
        return read_vector(ir.VectorType.get([n], self.p.elem_type), self.lds[role],
                           self.lds_indices(role, buf, row, col), self.lds_align(role, n))

    def lds_align(self, role: str, n: int) -> int:
        """Bytes of alignment to state on an LDS access of n elements of the operand (0: none;
        SPIR-V, scalars): its LDS map's, which LLVM cannot see through the index math."""
        if self.k.target.backend == "vulkan" or n == 1:
            return 0
        s = self.pl.staging[role]
        return s.lds.alignment(n, element_bits(self.p.elem_type) // 8, s.lds_shape)

    def lds_alignment(self, n: int, elem_bytes: int, shape: tuple[int, ...]) -> int:
        """Bytes of alignment of an access of n elements at a multiple of n in an LDS buffer of
        `shape` (0: none stated; SPIR-V, scalars): its size, a row's and a buffer's stride."""
        if self.k.target.backend == "vulkan" or n == 1:
            return 0
        return math.gcd(n * elem_bytes, shape[-1] * elem_bytes, math.prod(shape[1:]) * elem_bytes)

    # --- the K loop ---

    def _k_loop(self, lo: ir.Value, hi: ir.Value, state: list[ir.Value], n_acc: int) -> list[ir.Value]:
        """The K steps [lo, hi) in one loop carrying `state` (the `n_acc` accumulators, then the
        carried fragments) and the row sums where the kernel has them (`row_sums`, which it
        updates); its results but those."""
        sums = len(self.row_sums) if self.row_sums is not None else 0
        loop = scf.ForOp(lo, hi, self.k.const(1), state + (self.row_sums or []))
        with ir.InsertionPoint(loop.body):
            args = list(loop.inner_iter_args)
            kt = loop.induction_variable
            step = functools.partial(self._k_step, kt, args[:n_acc], args[n_acc:len(args) - sums])
            stepped, summed = self.row_stats.stepped(kt, args[len(args) - sums:], step) if sums else (step(), [])
            scf.yield_(stepped + summed)
        results = list(loop.results)
        if sums:
            self.row_sums = results[len(results) - sums:]
        return results[:len(results) - sums]

    def lds_tile(self, tile: ir.Value, ahead: int = 0) -> ir.Value:
        """The LDS tile of the pipeline's tile `tile`, `ahead` steps past the step being emitted:
        tile % S; under a walk whose loops count it, that count (TileWalk.lds_tile)."""
        if self.walk is not None and not self.WALK_ITERATIONS:
            return self.walk.lds_tile(ahead)
        return arith.remui(tile, self.k.const(self.pl.stages))

    def _k_step(self, kt: ir.Value, acc: list[ir.Value], carried: list[ir.Value]) -> list[ir.Value]:
        """Emits K step `kt`; the accumulators and carried fragments after it."""
        stages = self.pl.stages
        # A K of one step with every operand in registers: no tile follows, so none is read
        # ahead, stored or published (the module docstring says why). Copied operands keep the
        # pipeline: their wait counts on the groups that the prologue started; a walk's next
        # step may be its next tile's.
        ahead = self.n_steps is None or self.n_steps > 1 or bool(self.copied) or self.walk is not None
        if self.copied:
            self._copy_ahead(self.offset(kt, stages - 1), stages - 1)
        cur = self.lds_tile(kt)
        following = self.offset(kt, 1)
        if ahead:
            for c in self.copies.values():
                c.prefetch(kt)
            with self.pipeline_tile(following, 1) as tile:
                loaded = self._read_tiles(self.k0(tile))
        for kk in range(0, self.pl.bk, self.k_group()):
            acc = self.multiply(cur, kk, acc, carried if kk == 0 and carried else None)
        if ahead:
            self._land(loaded, self.lds_tile(following, 1), self._slot(following))
            self.barrier()
        # The next step's first fragments, from the tile the barrier just published (past the
        # last step: a tile no step reads, a harmless read of LDS).
        return acc + (self.carried_fragments(self.lds_tile(following, 1)) if carried else [])

    def past_steps(self, steps: int) -> int:
        """Of the loop's first `steps` K steps, the last ones whose copies start a tile past the
        last K step, in a loop of their own whose copies read nothing (`past_tile`); 0 here:
        the copies read the clamped last tile again (emit_wgmma.py overrides it)."""
        return 0

    def past_tile(self) -> ir.Value | None:
        """The K tile the step's copies start where the loop knows it lies past K (a tile index
        of n_steps: the copies read nothing), else None (the copies read the clamped tile)."""
        return self.k.const(self.n_steps) if self.copies_past else None

    def _start_pipeline(self) -> None:
        """The prologue's copies: the copied operands run stages - 1 tiles ahead. A dynamic K's
        tiles are not clamped: each K index is guarded against K, so a tile past it reads
        nothing."""
        if self.copied and self.walk is not None:
            for tile in range(self.pl.stages - 1):
                self._copy_ahead(self.k.const(tile), tile)
        elif self.copied:
            dynamic = self.n_steps is None
            for tile in range(self.pl.stages - 1):
                self._start_copies(self._from_base(self.k.const((tile if dynamic else min(tile, self.n_steps - 1))
                                                                * self.pl.bk)),
                                   self.k.const(tile), self._slot(self.k.const(tile)),
                                   self.k.const(tile) if not dynamic and tile >= self.n_steps else None)

    @contextlib.contextmanager
    def pipeline_tile(self, tile: ir.Value, ahead: int):
        """The K tile of the pipeline's tile `tile`, `ahead` steps past the step being emitted:
        `tile`; under a walk that of the tile it falls in (TileWalk.at), with `origin` that
        tile's while the body copies or reads it."""
        if self.walk is None:
            yield tile
            return
        plain = self.origin
        self.origin, k_tile = self.walk.at(ahead)
        try:
            yield k_tile
        finally:
            self.origin = plain

    def _copy_ahead(self, tile: ir.Value, ahead: int) -> None:
        """Starts the copies of the pipeline's tile `tile` (`pipeline_tile`) into its LDS tile."""
        with self.pipeline_tile(tile, ahead) as k_tile:
            self._start_copies(self.k0(k_tile), self.lds_tile(tile, ahead), self._slot(tile),
                               k_tile if self.walk is not None else self.past_tile())

    def _slot(self, tile: ir.Value) -> ir.Value | None:
        """The staging slot of the pipeline's tile `tile` (under a walk its iteration): tile %
        (S - 1); None without a copy that lands in one."""
        if not any(c.slotted for c in self.copies.values()):
            return None
        slots = self.pl.stages - 1
        return arith.remui(tile, self.k.const(slots)) if slots > 1 else self.k.const(0)

    def k0(self, tile: ir.Value) -> ir.Value:
        """K offset of this workgroup's K tile `tile`, clamped to its last tile; a dynamic K's
        unclamped (every K index of its tiles is guarded against K: a tile past it reads
        nothing)."""
        if self.n_steps is None:
            return arith.muli(tile, self.k.const(self.pl.bk))
        return self._from_base(arith.minui(arith.muli(tile, self.k.const(self.pl.bk)),
                                           self.k.const((self.n_steps - 1) * self.pl.bk)))

    def _from_base(self, k0: ir.Value) -> ir.Value:
        """K offset `k0` of this workgroup's chunk of K as an offset into K."""
        return k0 if self.k_base is None else arith.addi(self.k_base, k0)

    def _read_tiles(self, k0: ir.Value) -> dict[str, list]:
        """The register-staged operands' chunks of the tiles at K offset `k0`."""
        return {r: c.read(k0) for r, c in self.copies.items() if not c.copied}

    def _start_copies(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None, tile: ir.Value | None = None) -> None:
        """Starts the copied operands' copies of the tiles at K offset `k0` (into LDS tile
        `buf`, staging slot `slot`; K tile `tile` where it may lie past the last K step, whose
        copies then read nothing but still form their group, which the waits count); on CUDA
        closes them into one cp.async group."""
        tokens = [t for c in self.copied for t in c.copy(k0, buf, slot, tile)]
        if tokens:
            self.group = ir.Operation.create("nvgpu.device_async_create_group", results=[async_token()],
                                             operands=tokens).result

    def _land(self, regs: dict[str, list], buf: ir.Value, slot: ir.Value | None) -> None:
        """Puts the next tile into LDS tile `buf`, before the barrier that publishes it: waits
        for its copies, then each operand lands its registers or staging slot."""
        if self.copied:
            self.copied[0].wait(self, self.copied)
        for r, c in self.copies.items():
            c.land(regs.get(r), buf, slot)

    # --- arithmetic and guards, shared with the copies and the output ---

    def offset(self, base: ir.Value, off: int) -> ir.Value:
        return arith.addi(base, self.k.const(off)) if off else base

    def zero(self, elem: ir.Type) -> ir.Value:
        return self.k.const(0 if isinstance(elem, ir.IntegerType) else 0.0, elem)

    def add(self, x: ir.Value, y: ir.Value) -> ir.Value:
        """x + y in the accumulator's arithmetic (addi for i32, addf for f32)."""
        return arith.addi(x, y) if isinstance(self.acc_type, ir.IntegerType) else arith.addf(x, y)

    def inside(self, ragged: list[tuple[ir.Value, int | ir.Value]]) -> ir.Value:
        """Whether every index of `ragged` is below its extent (an int, or a dynamic dim's value)."""
        conds = [arith.cmpi(arith.CmpIPredicate.ult, x, self.k.const(n) if isinstance(n, int) else n)
                 for x, n in ragged]
        cond = conds[0]
        for c in conds[1:]:
            cond = arith.andi(cond, c)
        return cond

    def last_index(self, dim: str, last: int) -> ir.Value:
        """The largest index along matrix dim `dim` at which `last` elements still fit, which
        the copies clamp their indices to (Kernel.last_fit: a dynamic extent under `last`
        clamps to 0)."""
        return self.k.last_fit(self.p.extent(dim), last)

    def or_zero(self, ragged: list[tuple[ir.Value, int | ir.Value]], vtype: ir.VectorType, value) -> ir.Value:
        """`value()` (emitted under the guard: it may read) where all of `ragged` is inside, else
        zeros of `vtype` (past K they add nothing to the product, whatever a prologue computes)."""
        if not ragged:
            return value()
        guard = scf.IfOp(self.inside(ragged), [vtype], has_else=True)
        with ir.InsertionPoint(guard.then_block):
            scf.yield_([value()])
        with ir.InsertionPoint(guard.else_block):
            scf.yield_([vector.broadcast(vtype, self.zero(vtype.element_type))])
        return guard.result

    def guard(self, ragged: list[tuple[ir.Value, int | ir.Value]]):
        """Emits the body of the `with` under `scf.if` all of `ragged` inside (directly if empty)."""
        return self.when(self.inside(ragged) if ragged else None)

    @contextlib.contextmanager
    def when(self, predicate: ir.Value | None):
        """Emits the body of the `with` under `scf.if` `predicate` (directly where None)."""
        if predicate is None:
            yield
            return
        branch = scf.IfOp(predicate)
        with ir.InsertionPoint(branch.then_block):
            yield
            scf.yield_([])
