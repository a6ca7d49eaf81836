"""The matmul kernel of a plan (`Emitter`; its scheme's subclass, emit_fma.py or emit_mma.py,
emits the product and the output store).

The kernel. Workgroup (x, y, z) computes the BM x BN tile (y, x) of batch z: the tiling of
TILINGS (128x128 to 32x32 in 256 threads, 16-wide ones in 64 for skinny products) that the
target's threads, vector width and LDS take and that `plan_cost`, a model of how the tiles
spread over the target's compute units, finds fastest; the `tiles` option gives the tilings
to choose from, BMxBNxTMxTN, any sizes (96, 160, 192, 320, ...) whose BM/TM * BN/TN threads
split both tiles evenly and are whole subgroups. Per K step of BK (`k-bytes`; by default the
plan's choice of 64 bytes of K, 16 f32, 32 f16/bf16, 64 i8, or 128 where its cost is less):
- each operand's tile is staged global -> registers -> LDS as its `TileLayout`
  (ldsopt/layout/tile_layout.py) says; an operand computed by a fused prologue is computed from the
  prologue's inputs, read at the same place, before the LDS store. Planned here: vector
  reads in the operand's own memory order (no transpose), rows padded by the pad the bank
  model (ldsopt/layout/banks.py) finds cheapest for the first wave's stores and fragment reads. A
  pass before this one (inthread_transpose) may record a rewritten layout for an operand on
  the root op (`ldsopt.staging = {B = {...}}`,
  `record_staging`): it must stage the tile this plan stages (same tile, threads, fragment),
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
  of MFMA is one 4-element read, a K-strided one four scalar reads). When both operands are
  K-contiguous in LDS (`packing`), a read group covers k_pack K steps whose K slots are fed in
  mma.k_order, the same order for A and B, so that a lane's slots are consecutive K: one
  16-byte read (mma.sync f16: 8 K for four 4-byte reads; MFMA: ds_read_b128 for two
  ds_read_b64). B's fragments of a group are read first and kept, A's one repetition at a
  time, each followed by its products.
Output: each thread stores its accumulators (f32, i32 for i8) in vectors along N, adding a
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
operands) past M or N are guarded.
Vector widths divide the extents they run along, so a vector is all in or all out.
"""

from __future__ import annotations

import contextlib
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt.layout import index_expr
from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Binding, Dispatch
from ldsopt.codegen.elementwise import vectorize_body
from ldsopt.ir_types import element_bits
from ldsopt.codegen.kernel import Kernel, L1Prefetch, global_alignment, read_vector, transposed, write_vector
from ldsopt.matmul import dtl_emit
from ldsopt.matmul import output_stage, planner
from ldsopt.matmul.match import MatmulProblem
from ldsopt.matmul.output_stage import OutputStage
from ldsopt.matmul.schemes import MatmulPlan
from ldsopt.layout.tile_layout import ATTR, TileLayout


# Registers (bytes per thread) the epilogue's early operand reads may hold through the K loop:
# 32 registers, a 64x64 f16 tile's residual and bias on 128 threads.
EARLY_READ_BYTES = 128


def _along_last(x: tuple, rank: int) -> bool:
    """Whether an elementwise body's input `x` (binding, loops) has the last of the body's
    `rank` loops as its last dim (it is read as a vector along it, else as a broadcast scalar)."""
    return bool(x[1]) and x[1][-1] == rank - 1


class _Offsets:
    """The output's m and n at offsets from (m0, n0), each made once (so that the early
    reads of a bias shared by several output vectors are one read)."""

    def __init__(self, emitter: "Emitter", m0: ir.Value, n0: ir.Value):
        self._emitter = emitter
        self._at = {"m": {0: m0}, "n": {0: n0}}

    def _get(self, dim: str, off: int) -> ir.Value:
        known = self._at[dim]
        if off not in known:
            known[off] = self._emitter._offset(known[0], off)
        return known[off]

    def m(self, dm: int) -> ir.Value:
        return self._get("m", dm)

    def n(self, dn: int) -> ir.Value:
        return self._get("n", dn)


class Emitter:
    """Builds the kernel of one planned dispatch: staging and the K loop here; the product
    and the output store in the scheme's subclass."""

    def __init__(self, d: Dispatch, p: MatmulProblem, pl: MatmulPlan, tgt: target_model.Target):
        self.d, self.p, self.pl = d, p, pl
        t = pl.tiling
        self.k = Kernel(d, tgt, (t.threads, 1, 1), pl.grid(p.sizes))
        self.acc_type = p.acc_type  # f32, i32 for i8 inputs
        self.n_steps = math.ceil(p.sizes["k"] / pl.bk)
        self.output_stage: OutputStage | None = None

    def plan_output_stage(self, lds_left: int) -> OutputStage | None:
        """Sets and returns the output stage (ldsopt/matmul/output_stage.py) of this kernel: its
        pad priced by the target's bank model on this thread layout's pieces, within `lds_left`
        bytes of LDS; None where it does not pay or fit."""
        t, model = self.pl.tiling, self.k.target.bank_model()
        pieces = self._output_pieces()

        def writes(lane: int) -> list[tuple[int, int, int]]:
            m0, n0 = self._lane_output(lane)
            return [(m0 + dm, n0 + dn, width) for _, _, width, dm, dn in pieces]
        self.output_stage = output_stage.plan(t.bm, t.bn, self.p.sizes["n"], t.threads,
                                              element_bits(self.p.output.tensor_type.element_type) // 8,
                                              writes, model, lds_left, self.k.target.max_vector_elems)
        return self.output_stage

    def emit(self, pass_name: str, workgroups_per_cu: int = 1) -> None:
        k, p, pl, t = self.k, self.p, self.pl, self.pl.tiling
        with k.ip, self.d.location:
            loaded = isinstance(p.init, Binding)
            init_is_output = loaded and p.init.source == p.output.source  # before memref() rebinds it
            self.out = p.output.memref()
            self.init = None if not loaded else self.out if init_is_output else p.init.memref()
            self.mem = {r: b.memref() for r, b in p.operands.items()}
            self.epilogue_mem = [None if x is None else x[0].memref() for x in p.epilogue.inputs] if p.epilogue else []
            self.prologue_mem = {r: [b.memref() for b, _ in pro.inputs] for r, pro in p.prologues.items()}
            self.lds = {r: self._alloc(s) for r, s in pl.staging.items()}
            self.out_lds = None if self.output_stage is None else self._alloc_output_stage()
            self.tid = k.thread_id()
            self.raw = {r: self._raw_staging(s) for r, s in pl.staging.items() if s.raw_elems}
            self.batch = k.block_id("z") if p.batched else None
            self.origin = {"m": arith.muli(k.block_id("y"), k.const(t.bm)),
                           "n": arith.muli(k.block_id("x"), k.const(t.bn))}
            self._thread_origins()
            self.chunks = {r: self._chunk_coords(s) for r, s in pl.staging.items()}
            self.prefetchers = {r: L1Prefetch(self.mem[r]) for r, s in pl.staging.items() if s.copy.prefetch}
            self.group = None  # the cp.async group of the newest tile's copies (CUDA)
            if self._any_copied():  # the copied operands run stages - 1 tiles ahead
                for tile in range(pl.stages - 1):
                    self._start_copies(k.const(min(tile, self.n_steps - 1) * pl.bk), k.const(tile),
                                       self._slot(k.const(tile)))
            self._land(self._read_tiles(k.const(0)), k.const(0), self._slot(k.const(0)))
            gpu.barrier()
            acc0 = self._acc_init(k.const(p.init, self.acc_type) if not loaded else self._zero(self.acc_type))
            self.early = self._read_epilogue_early()
            peel = self._overlaps_epilogue()
            acc = acc0
            if self.n_steps - peel:
                loop = scf.ForOp(k.const(0), k.const(self.n_steps - peel), k.const(1), acc0)
                with ir.InsertionPoint(loop.body):
                    self._k_step(loop.induction_variable, list(loop.inner_iter_args))
                acc = list(loop.results)
            if peel:
                self._last_step_storing(acc)
            else:
                self._store_output(acc)
        k.finish(pass_name, workgroups_per_cu)

    # --- what a scheme provides ---

    def _thread_origins(self) -> None:
        """Sets `frag_origin[role]`: where this thread's fragments start in the tile, along M (A)
        or N (B)."""
        raise NotImplementedError

    def _acc_init(self, value: ir.Value) -> list[ir.Value]:
        raise NotImplementedError

    def _multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value]) -> list[ir.Value]:
        """The accumulators after the K sub-steps of `_k_group` elements at `kk` of LDS buffer `buf`."""
        raise NotImplementedError

    def _overlaps_epilogue(self) -> bool:
        """Whether the last K step is taken out of the loop (`_last_step_storing`) so that the
        consumer's math on each finished accumulator overlaps the products of the others."""
        return False

    def _last_step_storing(self, acc: list[ir.Value]) -> None:
        """The last K step (its tile landed by the loop's last barrier), each accumulator
        stored (`_store_accumulator`) as soon as it is final, then the output stage copied out."""
        raise NotImplementedError

    def _output_pieces(self) -> list[tuple[int, int, int, int, int]]:
        """This thread's output vectors, in store order: (accumulator, first element of its
        `_flat` vector, width, m and n offsets from `_output_origin`)."""
        raise NotImplementedError

    def _output_origin(self) -> tuple[ir.Value, ir.Value]:
        """(m, n) of this thread's first output element."""
        return (arith.addi(self.origin["m"], self.frag_origin["A"]),
                arith.addi(self.origin["n"], self.frag_origin["B"]))

    def _output_local(self) -> tuple[ir.Value, ir.Value]:
        """(m, n) of this thread's first output element in the workgroup's tile."""
        return self.frag_origin["A"], self.frag_origin["B"]

    def _lane_output(self, lane: int) -> tuple[int, int]:
        """`_output_local` of lane `lane` of the first wave, on ints (the output stage's bank model)."""
        raise NotImplementedError

    def _flat(self, acc: ir.Value) -> ir.Value:
        """Accumulator `acc` as the 1-D vector `_output_pieces` counts elements of."""
        return acc

    # --- staging ---

    def _alloc(self, s: TileLayout) -> ir.Value:
        mtype = ir.MemRefType.get(list(s.lds_shape), self.p.elem_type,
                                  memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>"))
        buf = memref.alloc(mtype, [], [])
        buf.owner.attributes[ATTR] = s.attr()
        self.k.record_bank_conflicts(s.operand, *planner.lds_conflicts(
            s, self.pl.scheme, element_bits(self.p.elem_type) // 8, self.k.target.bank_model()))
        return buf

    def _alloc_output_stage(self) -> ir.Value:
        """The output stage's LDS tile, its layout recorded on the alloc (`ldsopt.output_stage`)."""
        st = self.output_stage
        mtype = ir.MemRefType.get(list(st.shape), ir.MemRefType(self.out.type).element_type,
                                  memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>"))
        buf = memref.alloc(mtype, [], [])
        i64 = ir.IntegerType.get_signless(64)
        buf.owner.attributes[output_stage.ATTR] = ir.DictAttr.get(
            {"pad": ir.IntegerAttr.get(i64, st.pad), "vec": ir.IntegerAttr.get(i64, st.vec)})
        return buf

    def _raw_staging(self, s: TileLayout) -> tuple[ir.Value, ir.Value, ir.Value]:
        """(staging buffer, the operand as cp.async's source, this thread's first element) of a
        transposed tile copied directly: the buffer holds stages - 1 tiles in flight (its
        slots); raked row i of chunk j of thread t lands at element ((j * rake + i) * threads +
        t) * vector of its slot, so a warp's copies (and its reads back) of one row are
        consecutive vectors, free of bank conflicts."""
        space = ir.Attribute.parse("#gpu.address_space<workgroup>")
        shape = [s.buffers - 1, s.tile[0] * s.tile[1]]
        buf = memref.alloc(ir.MemRefType.get(shape, self.p.elem_type, memory_space=space), [], [])
        return buf, dtl_emit.dma_source(self, self.mem[s.operand]), self._scaled(self.tid, s.vector)

    def _chunk_coords(self, s: TileLayout) -> list[tuple[ir.Value, ir.Value]]:
        """Tile (row, col) of each chunk this thread moves (`TileLayout.chunk_expr`
        of chunk tid + threads * j); the same every K step, so computed once."""
        tid = index_expr.var("tid")
        return [tuple(self.k.index(list(s.chunk_expr(index_expr.offset(tid, s.threads * j))[0]), tid=self.tid))
                for j in range(s.chunks_per_thread)]

    def _scaled(self, v: ir.Value, factor: int) -> ir.Value:
        return arith.muli(v, self.k.const(factor)) if factor > 1 else v

    def _row_reads(self, role: str, k0: ir.Value) -> list[list[tuple[list[tuple[ir.Value, int]], list[ir.Value]]]]:
        """Per chunk this thread reads of the operand's tile at K offset `k0`, per raked row:
        (its global indices past a tile-ragged end, as `_inside` takes them; its global index)."""
        s = self.pl.staging[role]
        origin = {**self.origin, "k": k0}
        tile_extent = dict(zip(s.dims, s.tile))
        out = []
        for row0, col in self.chunks[role]:
            rows = []
            for i in range(s.rake):
                glob = [arith.addi(origin[dim], x) for dim, x in zip(s.dims, (self._offset(row0, i), col))]
                ragged = [(g, self.p.sizes[dim]) for dim, g in zip(s.dims, glob)
                          if self.p.sizes[dim] % tile_extent[dim]]
                rows.append((ragged, ([self.batch] if self.batch is not None else []) + glob))
            out.append(rows)
        return out

    def _read_tile(self, role: str, k0: ir.Value) -> list[list[ir.Value]]:
        """This thread's chunks of the operand's tile at K offset `k0`, zeros past the ends:
        per chunk, the vectors its LDS writes store (`TileLayout.lds_writes` order)."""
        s = self.pl.staging[role]
        vtype = ir.VectorType.get([s.vector], self.p.elem_type)
        regs = []
        for chunk in self._row_reads(role, k0):
            rows = [self._or_zero(ragged, vtype, lambda idx=idx: self._operand_vector(role, vtype, idx))
                    for ragged, idx in chunk]
            regs.append(self._transposed(rows) if s.thread_map.transposed else rows)
        return regs

    def _operand_vector(self, role: str, vtype: ir.VectorType, idx: list[ir.Value]) -> ir.Value:
        """The operand's vector `vtype` at global `idx` (b?, r0, r1), along its last dim: read,
        or computed by its prologue from its inputs read there. The prologue runs here, once per
        element a workgroup loads, rather than on the fragments read back from LDS, which the
        threads along the other tile dim each read again (TM or TN times as many bodies with
        FMA), and so that LDS, the staging layouts and the product schemes see the
        contraction's operand type as if it were loaded."""
        pro = self.p.prologues.get(role)
        if pro is None:
            return read_vector(vtype, self.mem[role], idx)
        return self._body_at(pro.op, pro.inputs, self.prologue_mem[role], idx, vtype.shape[0])

    def _prefetch_tile(self, role: str, k0: ir.Value) -> None:
        """Prefetches into L1 each line this thread's reads of the operand's tile at K offset `k0`
        touch (its copy's `prefetch`), under the reads' guards."""
        for chunk in self._row_reads(role, k0):
            for ragged, idx in chunk:
                with self._guard(ragged):
                    self.prefetchers[role](idx)

    def _raw_index(self, s: TileLayout, slot: ir.Value, j: int, i: int) -> list[ir.Value]:
        return [slot, self._offset(self.raw[s.operand][2], (j * s.rake + i) * s.threads * s.vector)]

    def _copy_tile(self, role: str, k0: ir.Value, buf: ir.Value, slot: ir.Value | None) -> list[ir.Value]:
        """Starts the copies of the operand's tile at K offset `k0` that need no registers
        (`_copied`), into LDS tile `buf` or staging slot `slot`; returns their cp.async tokens.
        Here the raked rows of a transposed tile, into this thread's part of the slot (rows past
        K zero-filled, indices past M/N clamped: they only feed outputs never stored, as
        dtl_emit's copies)."""
        s = self.pl.staging[role]
        raw, src, _ = self.raw[role]
        tokens = []
        for j, (row0, col) in enumerate(self.chunks[role]):
            for i in range(s.rake):
                idx, k_tail = dtl_emit.global_index(self, role, k0, (self._offset(row0, i), col))
                tokens.append(dtl_emit.async_copy(raw, self._raw_index(s, slot, j, i), src, idx, s.vector,
                                                  self._inside(k_tail) if k_tail else None))
        return tokens

    def _raked_from_staging(self, role: str, slot: ir.Value) -> list[list[ir.Value]]:
        """This thread's raked rows read back from staging slot `slot` (landed: `_land`): per
        chunk, the columns of its transposed register tile."""
        s = self.pl.staging[role]
        vtype = ir.VectorType.get([s.vector], self.p.elem_type)
        elem_bytes = element_bits(self.p.elem_type) // 8
        return [self._transposed([read_vector(vtype, self.raw[role][0], self._raw_index(s, slot, j, i),
                                              s.vector * elem_bytes)
                                  for i in range(s.rake)]) for j in range(s.chunks_per_thread)]

    def _transposed(self, rows: list[ir.Value]) -> list[ir.Value]:
        return transposed(rows)

    def _store_tile(self, role: str, regs: list[list[ir.Value]], buf: ir.Value) -> None:
        s = self.pl.staging[role]
        for values, (row, col) in zip(regs, self.chunks[role]):
            # Transposed: column j of the register tile goes to LDS row col + j, at K = row.
            row, col = s.thread_map.lds_coords(row, col)
            for reg, dr, n in s.thread_map.write_slices():
                write_vector(values[reg], self.lds[role], self._lds_indices(role, buf, self._offset(row, dr), col),
                             self._align(s, n))

    def _align(self, s: TileLayout, n: int) -> int:
        """Bytes of alignment of an LDS access of n elements (0: none stated; SPIR-V, scalars):
        every layout starts an access at a multiple of its elements (pads and swizzle units
        are multiples of the widest access; unit-tested), so a row's and a buffer's stride
        bound it."""
        return self._lds_alignment(n, element_bits(self.p.elem_type) // 8, s.lds_shape)

    def _lds_alignment(self, n: int, elem_bytes: int, shape: tuple[int, ...]) -> int:
        """Bytes of alignment of an access of n elements at a multiple of n in an LDS buffer of
        `shape` (0: none stated; SPIR-V, scalars): its size, a row's and a buffer's stride."""
        if self.k.target.backend == "vulkan" or n == 1:
            return 0
        return math.gcd(n * elem_bytes, shape[-1] * elem_bytes, math.prod(shape[1:]) * elem_bytes)

    # --- the K loop ---

    def _k_step(self, kt: ir.Value, acc: list[ir.Value]) -> None:
        k, stages = self.k, self.pl.stages
        # A K of one step with every operand in registers: no tile follows, so none is read
        # ahead, stored or published (the module docstring says why). Copied operands keep the
        # pipeline: their wait counts on the groups that the prologue started.
        ahead = self.n_steps > 1 or self._any_copied()
        if self._any_copied():
            copy = self._offset(kt, stages - 1)
            self._start_copies(self._k0(copy), arith.remui(copy, k.const(stages)), self._slot(copy))
        cur = arith.remui(kt, k.const(stages))
        following = self._offset(kt, 1)
        if ahead:
            for r in self.prefetchers:
                self._prefetch_tile(r, self._k0(self._offset(kt, self.pl.staging[r].copy.prefetch)))
            loaded = self._read_tiles(self._k0(following))
        for kk in range(0, self.pl.bk, self._k_group()):
            acc = self._multiply(cur, kk, acc)
        if ahead:
            self._land(loaded, arith.remui(following, k.const(stages)), self._slot(following))
            gpu.barrier()
        scf.yield_(acc)

    def _slot(self, tile: ir.Value) -> ir.Value | None:
        """The staging slot of K tile `tile` (tile % (stages - 1)); None without a raked tile
        copied directly."""
        if not self.raw:
            return None
        slots = self.pl.stages - 1
        return arith.remui(tile, self.k.const(slots)) if slots > 1 else self.k.const(0)

    def _k0(self, tile: ir.Value) -> ir.Value:
        """K offset of K tile `tile`, clamped to the last tile."""
        return arith.minui(arith.muli(tile, self.k.const(self.pl.bk)), self.k.const((self.n_steps - 1) * self.pl.bk))

    def _copied(self, role: str) -> bool:
        """Whether the operand's tiles travel by copies that hold no registers (`_copy_tile`)."""
        return role in self.raw

    def _any_copied(self) -> bool:
        return any(self._copied(r) for r in self.pl.staging)

    def _read_tiles(self, k0: ir.Value) -> dict[str, list[list[ir.Value]]]:
        """The register-staged operands' chunks of the tiles at K offset `k0`."""
        return {r: self._read_tile(r, k0) for r in self.pl.staging if not self._copied(r)}

    def _start_copies(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None) -> None:
        """Starts the copied operands' copies of the tiles at K offset `k0` (into LDS tile
        `buf`, staging slot `slot`); on CUDA closes them into one cp.async group."""
        tokens = [t for r in self.pl.staging if self._copied(r) for t in self._copy_tile(r, k0, buf, slot)]
        if tokens:
            self.group = ir.Operation.create("nvgpu.device_async_create_group", results=[dtl_emit.async_token()],
                                             operands=tokens).result

    def _wait_copies(self) -> None:
        """Waits for this thread's copies of the next tile: the stages - 2 newer groups stay
        in flight (cp.async.wait_group)."""
        i32 = ir.IntegerType.get_signless(32)
        ir.Operation.create("nvgpu.device_async_wait", operands=[self.group],
                            attributes={"numGroups": ir.IntegerAttr.get(i32, self.pl.stages - 2)})

    def _land(self, regs: dict[str, list[list[ir.Value]]], buf: ir.Value, slot: ir.Value | None) -> None:
        """Puts the next tile into LDS tile `buf`, before the barrier that publishes it: waits
        for its copies, transposes a raked tile from its staging slot `slot`, stores `regs`."""
        if self._any_copied():
            self._wait_copies()
        for r in self.pl.staging:
            if r in self.raw:
                self._store_tile(r, self._raked_from_staging(r, slot), buf)
            elif r in regs:
                self._store_tile(r, regs[r], buf)

    def _k_group(self) -> int:
        """K elements each `_multiply` covers."""
        return self.pl.scheme.k_step

    def _lds_indices(self, role: str, buf: ir.Value, row: ir.Value, col: ir.Value) -> list[ir.Value]:
        """The indices into the operand's LDS memref of tile element (row, col) of LDS tile
        `buf`: the LDS (row, col) where the layout's LDS map places it."""
        placed = self.pl.staging[role].lds.index_exprs(index_expr.var("row"), index_expr.var("col"))
        return [buf, *self.k.index(placed, row=row, col=col)]

    def _lds_read(self, role: str, buf: ir.Value, row: ir.Value, col: ir.Value, n: int) -> ir.Value:
        s = self.pl.staging[role]
        return read_vector(ir.VectorType.get([n], self.p.elem_type), self.lds[role],
                           self._lds_indices(role, buf, row, col), self._align(s, n))

    def _offset(self, base: ir.Value, off: int) -> ir.Value:
        return arith.addi(base, self.k.const(off)) if off else base

    def _zero(self, elem: ir.Type) -> ir.Value:
        return self.k.const(0 if isinstance(elem, ir.IntegerType) else 0.0, elem)

    def _add(self, x: ir.Value, y: ir.Value) -> ir.Value:
        """x + y in the accumulator's arithmetic (addi for i32, addf for f32)."""
        return arith.addi(x, y) if isinstance(self.acc_type, ir.IntegerType) else arith.addf(x, y)

    # --- output ---

    def _store_output(self, acc: list[ir.Value]) -> None:
        offsets = self._output_offsets()
        for i, value in enumerate(acc):
            self._store_accumulator(i, value, offsets)
        self._finish_output()

    def _output_offsets(self) -> tuple[_Offsets, _Offsets | None, dict[int, list[tuple[int, int, int, int]]]]:
        """Where this thread's output pieces go (in the output, and in the output stage if
        any), and each accumulator's pieces of `_output_pieces`."""
        pieces: dict[int, list[tuple[int, int, int, int]]] = {}
        for i, *piece in self._output_pieces():
            pieces.setdefault(i, []).append(tuple(piece))
        return (_Offsets(self, *self._output_origin()),
                None if self.output_stage is None else _Offsets(self, *self._output_local()), pieces)

    def _store_accumulator(self, i: int, value: ir.Value, offsets: tuple) -> None:
        """Stores accumulator `i` (holding `value`): its pieces, at `offsets` (`_output_offsets`)."""
        at, local, pieces = offsets
        flat = self._flat(value)
        for first, width, dm, dn in pieces.get(i, []):
            piece = flat if width == ir.VectorType(flat.type).shape[0] else vector.extract_strided_slice(
                ir.VectorType.get([width], self.acc_type), flat, [first], [width], [1])
            early = [self.early.get(key) for key in self._epilogue_keys(width, dm, dn)] if self.early else None
            self._store_piece(piece, at.m(dm), at.n(dn), early, local and (local.m(dm), local.n(dn)))

    def _finish_output(self) -> None:
        """After every accumulator is stored: the output stage's copy out, if there is one."""
        if self.output_stage is not None:
            self._copy_out()

    def _copy_out(self) -> None:
        """The staged output tile from LDS to the output, `vec` elements a copy (guarded past M
        and N, and past the tile in a last round the threads do not fill)."""
        st, k = self.output_stage, self.k
        gpu.barrier()
        vtype = ir.VectorType.get([st.vec], ir.MemRefType(self.out.type).element_type)
        c = index_expr.var("c")
        for j in range(st.copies):
            chunk = arith.addi(self.tid, k.const(st.threads * j)) if j else self.tid
            row, col = k.index(list(st.copy_origin(c)), c=chunk)
            m, n = arith.addi(self.origin["m"], row), arith.addi(self.origin["n"], col)
            last = st.threads * (j + 1) > st.chunks
            with self._guard(self._ragged(m, n) + ([(chunk, st.chunks)] if last else [])):
                value = read_vector(vtype, self.out_lds, self._out_lds_indices(row, col), self._out_lds_align(st.vec))
                self._write_output(value, ([self.batch] if self.batch is not None else []) + [m, n], st.vec)

    def _out_lds_indices(self, row: ir.Value, col: ir.Value) -> list[ir.Value]:
        placed = self.output_stage.address_map.place(index_expr.var("row"), index_expr.var("col"))
        return self.k.index(list(placed), row=row, col=col)

    def _out_lds_align(self, n: int) -> int:
        """`_lds_alignment` of an output-stage access of n elements (the pads keep every row a
        multiple of the widest access)."""
        return self._lds_alignment(n, element_bits(ir.MemRefType(self.out.type).element_type) // 8,
                                   self.output_stage.shape)

    def _epilogue_keys(self, width: int, dm: int, dn: int) -> list[tuple]:
        """The key of each epilogue input's read for the output vector of `width` at offsets
        (dm, dn): the input, the offsets along the dims it has, the width (None for the
        contraction's result, which is not read)."""
        dims = (["b"] if self.batch is not None else []) + ["m", "n"]
        offset = {"b": 0, "m": dm, "n": dn}
        return [None if x is None else (pos, tuple(offset[dims[i]] for i in x[1]), width)
                for pos, x in enumerate(self.p.epilogue.inputs)]

    def _read_epilogue_early(self) -> dict | None:
        """The epilogue's operand reads of every output vector, emitted before the K loop, so
        that their latency hides behind the loop instead of stalling the stores after it (a
        grid of about one tile per CU, such as a BERT projection's, cannot hide one memory
        round trip per workgroup behind other workgroups); each distinct read once (a bias
        row's vector serves every output vector of its n). None where the epilogue reads no
        operand, or where the reads would hold more than EARLY_READ_BYTES of registers per
        thread through the loop: the epilogue then reads at the store."""
        if not self.p.epilogue or all(x is None for x in self.p.epilogue.inputs):
            return None
        reads = {}
        for _, _, width, dm, dn in self._output_pieces():
            for key in self._epilogue_keys(width, dm, dn):
                if key is not None:
                    reads.setdefault(key, (dm, dn))
        inputs = self.p.epilogue.inputs
        rank = 3 if self.batch is not None else 2
        held = sum((width if _along_last(inputs[pos], rank) else 1)
                   * element_bits(inputs[pos][0].tensor_type.element_type) // 8 for pos, _, width in reads)
        if held > EARLY_READ_BYTES:
            return None
        at = _Offsets(self, *self._output_origin())
        early = {}
        for (pos, offsets, width), (dm, dn) in reads.items():
            m, n = at.m(dm), at.n(dn)
            vtype = ir.VectorType.get([width], inputs[pos][0].tensor_type.element_type)
            idx = ([self.batch] if self.batch is not None else []) + [m, n]
            mem = self.epilogue_mem[pos]
            early[(pos, offsets, width)] = self._or_zero(  # calls the read at once, under the guard
                self._ragged(m, n), vtype,
                lambda: self._input_read(inputs[pos], mem, idx, vtype, self._global_align(mem, width)))
        return early

    def _ragged(self, m: ir.Value, n: ir.Value) -> list[tuple[ir.Value, int]]:
        """The guards of an output vector at (m, n): M and N where the tiles do not divide them."""
        p, t = self.p, self.pl.tiling
        return [(x, p.sizes[dim]) for dim, x, tile in (("m", m, t.bm), ("n", n, t.bn)) if p.sizes[dim] % tile]

    def _store_piece(self, piece: ir.Value, m: ir.Value, n: ir.Value, early: list | None = None,
                     staged: tuple[ir.Value, ir.Value] | None = None) -> None:
        """Stores a vector of the output along N at (m, n), adding the loaded init if any and
        applying the epilogue if any (`early`: its inputs' reads made before the K loop), to
        the output or, where `staged` gives its (row, col) in the tile, to the output stage;
        guarded where the tiles do not divide M or N (vector widths divide N)."""
        idx = ([self.batch] if self.batch is not None else []) + [m, n]
        width = ir.VectorType(piece.type).shape[0]
        with self._guard(self._ragged(m, n)):
            value = piece if self.init is None else self._add(piece, self._init_vector(piece.type, idx, width))
            if self.p.rounded:  # the contraction's result, in the operands' 16-bit type
                value = arith.truncf(ir.VectorType.get([width], self.p.elem_type), value)
            if self.p.epilogue:
                value = self._epilogue(value, idx, early)
            if staged is None:
                self._write_output(value, idx, width)
            else:
                write_vector(value, self.out_lds, self._out_lds_indices(*staged), self._out_lds_align(width))

    def _init_vector(self, vtype: ir.VectorType, idx: list[ir.Value], width: int) -> ir.Value:
        """The loaded init at `idx` as `vtype` (the accumulator's), extended from a rounded
        result's 16-bit type."""
        elem = ir.MemRefType(self.init.type).element_type
        value = read_vector(ir.VectorType.get([width], elem), self.init, idx, self._global_align(self.init, width))
        return value if elem == vtype.element_type else arith.extf(vtype, value)

    def _write_output(self, value: ir.Value, idx: list[ir.Value], width: int) -> None:
        """Writes a vector of the output along N at `idx` (b?, m, n): in the epilogue's result's
        dim order where there is one."""
        if not self.p.epilogue:
            write_vector(value, self.out, idx, self._global_align(self.out, width))
            return
        along_n = self.p.epilogue.out_dims[-1] == len(idx) - 1  # else stored in another order
        write_vector(value, self.out, [idx[i] for i in self.p.epilogue.out_dims],
                     self._global_align(self.out, width) if along_n else 0)

    def _global_align(self, buf: ir.Value, n: int) -> int:
        """The alignment to state on an output-stage access of `n` elements along N (its
        index along N is a multiple of n: pieces start at multiples of their width)."""
        return global_alignment(buf, n, self.k.target.backend)

    def _epilogue(self, value: ir.Value, idx: list[ir.Value], early: list | None = None) -> ir.Value:
        """The epilogue's body on vectors along N at `idx` (b?, m, n), `value` standing for the
        contraction's result."""
        return self._body_at(self.p.epilogue.op, self.p.epilogue.inputs, self.epilogue_mem, idx,
                             ir.VectorType(value.type).shape[0], value, early, aligned=True)

    @staticmethod
    def _input_read(x: tuple, buf: ir.Value, idx: list[ir.Value], vtype: ir.VectorType, align: int = 0) -> ir.Value:
        """Input `x` (binding, loops) of an elementwise body at `idx` (the body's loops' values),
        as `vtype` along the last loop: a vector read (of `align` bytes of alignment) where
        that loop is the input's last dim, else the scalar at its loops, broadcast."""
        at = [idx[i] for i in x[1]]
        return read_vector(vtype, buf, at, align) if _along_last(x, len(idx)) \
            else vector.broadcast(vtype, memref.load(buf, at))

    def _body_at(self, op: ir.Operation, inputs: list, mems: list, idx: list[ir.Value], width: int,
                 value: ir.Value | None = None, early: list | None = None, aligned: bool = False) -> ir.Value:
        """Elementwise `op`'s body on vectors of `width` along the last loop at `idx` (its
        loops' values), its inputs read by `_input_read` from `mems` (with their alignment
        stated where `aligned`: `idx`'s last loop at a multiple of `width`) or given by
        `early` (read before); a None input is `value`."""
        args = []
        for pos, (x, buf) in enumerate(zip(inputs, mems)):
            vtype = None if x is None else ir.VectorType.get([width], x[0].tensor_type.element_type)
            args.append(value if x is None else early[pos] if early is not None else
                        self._input_read(x, buf, idx, vtype, self._global_align(buf, width) if aligned else 0))
        return vectorize_body(op, args, width)

    # --- guards ---

    def _inside(self, ragged: list[tuple[ir.Value, int]]) -> ir.Value:
        conds = [arith.cmpi(arith.CmpIPredicate.ult, x, self.k.const(n)) for x, n in ragged]
        cond = conds[0]
        for c in conds[1:]:
            cond = arith.andi(cond, c)
        return cond

    def _read_or_zero(self, ragged: list[tuple[ir.Value, int]], vtype: ir.VectorType, buf: ir.Value,
                      idx: list[ir.Value]) -> ir.Value:
        return self._or_zero(ragged, vtype, lambda: read_vector(vtype, buf, idx))

    def _or_zero(self, ragged: list[tuple[ir.Value, int]], vtype: ir.VectorType, value) -> ir.Value:
        """`value()` (emitted under the guard: it may read) where all of `ragged` is inside, else
        zeros of `vtype` (past K they add nothing to the product, whatever a prologue computes)."""
        if not ragged:
            return value()
        guard = scf.IfOp(self._inside(ragged), [vtype], has_else=True)
        with ir.InsertionPoint(guard.then_block):
            scf.yield_([value()])
        with ir.InsertionPoint(guard.else_block):
            scf.yield_([vector.broadcast(vtype, self._zero(vtype.element_type))])
        return guard.result

    @contextlib.contextmanager
    def _guard(self, ragged: list[tuple[ir.Value, int]]):
        """Emits the body of the `with` under `scf.if` all of `ragged` inside (directly if empty)."""
        if not ragged:
            yield
            return
        guard = scf.IfOp(self._inside(ragged))
        with ir.InsertionPoint(guard.then_block):
            yield
            scf.yield_([])
