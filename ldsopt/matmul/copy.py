"""How the matmul kernel (emit.py) moves an operand's tiles global -> LDS: one copy strategy
per operand, chosen once (`strategy`) from its TileLayout's thread map and copy
(ldsopt/layout/tile_layout.py) and the target:

- `RegisterRows` (registers, row chunks): each chunk's `rake` rows read as vectors in the
  operand's own memory order, zeros past M, N or K (guarded reads); a strided run (a 1x1
  stride-2 NCHW image's output columns, implicit_gemm.py) read as one aligned vector of
  `vector * s` elements of which `vector.shuffle` keeps every s-th; an operand computed by a
  fused prologue is computed from the prologue's inputs, read at the same place, before the LDS
  store. A raked register tile is transposed (`vector.transpose`; gfx942 packs 16-bit columns
  with v_perm_b32) and stored as its columns, K-contiguous. With `prefetch = P` (CUDA), each
  K step first prefetches the L1 lines of the reads of tile kt+P (`prefetch.global.L1`, under
  the reads' guards);
- `RegisterLanes` (registers, storage order: a DTL placement on a target without DTL): each
  lane's vector read at its source and written at its fixed LDS slot, the same maps as the
  copies below, checked by values where DTL cannot run;
- `GatherToLds` (direct, storage order, gfx942): `amdgpu.gather_to_lds` of one 4-byte lane
  (f32, vector<2xf16>) from the operand's binding relabelled
  `#amdgpu.address_space<fat_raw_buffer>` (ldsopt/codegen/async_copy.py), into the flat LDS
  buffer at the chunk's slot (lane 0's is the wave's base: the slots of a wave are
  contiguous). Waited for by `amdgpu.memory_counter_wait load(N)`, N this thread's copies of
  the stages - 2 newer tiles (s_waitcnt vmcnt(N): loads return in order; 0 with two tiles);
- `CpAsync` (direct, storage order, CUDA): `nvgpu.device_async_copy` (cp.async of one lane, 16
  bytes by default: `.cg`, L1 bypassed) from the operand cast to `#gpu.address_space<global>`;
- `CpAsyncRows` (direct, row chunks of one row, CUDA): cp.async of each chunk to its place in LDS
  rows, as the LDS map (the wgmma scheme's 128-byte swizzle) places it;
- `StagedCpAsync` (direct, raked row chunks, CUDA): each raked row a cp.async into this
  thread's own slots of a staging buffer of `stages - 1` tiles (raked row i of chunk j of
  thread t at element ((j * rake + i) * threads + t) * vector of its slot, so a warp's copies
  and its reads back of one row are consecutive vectors, free of bank conflicts), read back
  after the step's math, transposed and stored like `RegisterRows`: the global reads hold no
  registers across the math.
The copies without registers run `stages - 1` tiles ahead (emit.py's header); on CUDA the
copies of a tile are one cp.async group, waited for with `numGroups = stages - 2`.
Past the operand's ends the copies read what registers would: M/N indices past the extent (a
dynamic dim's: its value read at run time, `Emitter.last_index`) are clamped (rows and columns
past M or N only feed outputs that are never stored; a DMA cannot zero-fill), and so are K
indices past K (a dynamic K's every tile guarded against it), whose chunks must be zeros
(their products would add to the sums): cp.async copies no source element there
(srcElements = 0: zero-fill), the register path reads zeros, and gfx942's DMA cannot, so
ldsopt-dtl-layout refuses K tails there.
A K tile past the last K step (`global_index`'s `tile`: the copies the pipeline's last steps
start, whose K offset is clamped to the last tile's and which no step reads) reads nothing on
CUDA either (zero-fill), where the kernel says so (the prologue's, and the wgmma scheme's last
steps, `Emitter.past_steps`).
On gfx942 the overlap is the IR's only: LLVM's waitcnt insertion cannot tell the LDS tiles of
one alloc apart, so it waits for every copy in flight (vmcnt(0)) before the step's first LDS
read (seen in the ISA of NN f16 256^3, 2 and 3 stages). Alias scopes on the copies and the
reads (LLVM metadata that its waitcnt insertion consults for LDS DMA; Triton's AMD backend
sets them) would let the copies run during the math; the IR this pass emits cannot carry them,
so that is for the lowering below it.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import amdgpu, arith, scf, vector

from ldsopt.codegen.async_copy import FAT_RAW_BUFFER, GLOBAL, async_copy, async_wait, dma_source
from ldsopt.codegen.kernel import L1Prefetch, lds_alloc, read_vector, transposed, write_vector
from ldsopt.ir_types import element_bits
from ldsopt.layout import index_expr
from ldsopt.layout.tile_layout import Direct, Registers, RowChunks, StorageOrder, TileLayout
from ldsopt.matmul.output import body_at

VMCNT_MAX = 63  # the largest count s_waitcnt vmcnt takes on gfx942 (6 bits); waiting for fewer is safe


class Copy:
    """The strategy of one operand (module doc): what the kernel asks of it at its start, each
    K step and at the tile's landing in LDS. `em` is the kernel's Emitter."""

    copied = False    # whether the tiles travel without registers (`stages - 1` tiles ahead)
    slotted = False   # whether they land in a staging slot first

    def __init__(self, em, role: str):
        self.em, self.role = em, role
        self.s: TileLayout = em.pl.staging[role]

    def allocate(self) -> None:
        """At the kernel's start, once the thread id is known: what the copies need besides the
        LDS tile."""

    def locate(self) -> None:
        """This thread's chunks (`chunks`: per chunk, its tile (row, col) and, in storage order,
        its LDS offset); the same every K step, so computed once."""
        tid = index_expr.var("tid")
        self.chunks = []
        for j in range(self.s.chunks_per_thread):
            (row, col), dest = self.s.chunk_expr(index_expr.offset(tid, self.s.threads * j))
            values = self.em.k.index([row, col] if dest is None else [row, col, dest], tid=self.em.tid)
            self.chunks.append(tuple(values) if dest is None else (tuple(values[:2]), values[2]))

    def start_prefetching(self) -> None:
        """After every operand's `locate`: what an L1 prefetch needs."""

    def prefetch(self, kt: ir.Value) -> None:
        """At the start of K step `kt`, before the next tile's reads."""

    def read(self, k0: ir.Value) -> list:
        """The registers of this thread's chunks of the tile at K offset `k0` (register copies)."""
        raise NotImplementedError

    def copy(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None, tile: ir.Value | None = None) -> list[ir.Value]:
        """Starts the copies of the tile at K offset `k0` into LDS tile `buf` (staging slot
        `slot`); returns their cp.async tokens (copies without registers). `tile`: the K tile's
        index where it may lie past the last K step (its copies then read nothing: `global_index`)."""
        raise NotImplementedError

    def land(self, regs: list | None, buf: ir.Value, slot: ir.Value | None) -> None:
        """Puts the tile into LDS tile `buf` before the barrier that publishes it: the registers
        `read` gave, or the staging slot `slot`'s tile."""

    @staticmethod
    def wait(em, copied: list["Copy"]) -> None:
        """Waits for this thread's copies of the next tile: the stages - 2 newer cp.async groups
        stay in flight (cp.async.wait_group)."""
        async_wait(em.group, em.pl.stages - 2)

    # --- shared by the strategies ---

    def vtype(self) -> ir.VectorType:
        return ir.VectorType.get([self.s.vector], self.em.p.elem_type)

    def global_index(self, k0: ir.Value, src: tuple[ir.Value, ir.Value], tile: ir.Value | None = None):
        """The operand's index of a chunk's source, clamped inside the operand (module doc), and
        the (index, extent) pairs that must all be inside for the chunk to be read, else it is
        zeros: the K index where the K steps do not divide K (lanes do not straddle K), a
        padded image's dims (`Emitter.operand_bounds`; a lane lies at one image position),
        whose indices are clamped into the image for the copy's address, and the K tile
        `tile` where given (a tile past the last K step, which no step reads, is not read
        again: `k0` is clamped to the last tile's)."""
        em, s = self.em, self.s
        origin = {**em.origin, "k": k0}
        idx, inside = [], [] if tile is None else [(tile, em.n_steps)]
        for dim, local, extent, last in zip(s.dims, src, s.tile, (1, s.vector)):
            g = arith.addi(origin[dim], local)
            if em.p.ragged(dim, extent):  # the K extent is the K step
                inside += [(g, em.p.extent(dim))] if dim == "k" else []
                g = arith.minui(g, em.last_index(dim, last))
            idx.append(g)
        idx = em.operand_index(self.role, idx)
        inside += em.operand_bounds(self.role, idx)
        for d, size in em.padded_dims(self.role):  # a negative index (the low border) is a large unsigned one
            idx[d] = arith.minui(idx[d], em.k.const(size - 1))
        return idx, inside

    def store(self, regs: list[list[ir.Value]], buf: ir.Value) -> None:
        """Stores this thread's chunks (their `write_slices` registers) at the LDS map's place
        of their LDS (row, col) in LDS tile `buf`."""
        em, tm = self.em, self.s.thread_map
        for values, (row, col) in zip(regs, self.chunks):
            row, col = tm.lds_coords(row, col)
            for reg, dr, n in tm.write_slices():
                write_vector(values[reg], em.lds[self.role], em.lds_indices(self.role, buf, em.offset(row, dr), col),
                             em.lds_align(self.role, n))

    def transposed(self, rows: list[ir.Value]) -> list[ir.Value]:
        """The columns of the register tile whose rows are `rows` (kernel.transposed); its rows
        as they are where the thread map does not transpose."""
        return transposed(rows) if self.s.thread_map.transposed else rows


class RegisterRows(Copy):
    def start_prefetching(self) -> None:
        self.prefetcher = L1Prefetch(self.em.mem[self.role]) if self.s.copy.prefetch else None

    def row_reads(self, k0: ir.Value) -> list[list[tuple[list[tuple[ir.Value, int]], list[ir.Value]]]]:
        """Per chunk this thread reads of the tile at K offset `k0`, per raked row: (its global
        indices past a tile-ragged end and a padded image's indices, as `Emitter.inside` takes
        them; its global index)."""
        em, s = self.em, self.s
        origin = {**em.origin, "k": k0}
        tile_extent = dict(zip(s.dims, s.tile))
        out = []
        for row0, col in self.chunks:
            rows = []
            for i in range(s.rake):
                glob = [arith.addi(origin[dim], x) for dim, x in zip(s.dims, (em.offset(row0, i), col))]
                ragged = [(g, em.p.extent(dim)) for dim, g in zip(s.dims, glob) if em.p.ragged(dim, tile_extent[dim])]
                idx = em.operand_index(self.role, glob)
                rows.append((ragged + em.operand_bounds(self.role, idx, s.vector), idx))
            out.append(rows)
        return out

    def read(self, k0: ir.Value) -> list[list[ir.Value]]:
        """Per chunk, the vectors its LDS writes store (`write_slices` order), zeros past the ends."""
        vtype = self.vtype()
        edge = self.em.straddle(self.role, vtype.shape[0])
        read = self.operand_vector if edge is None else lambda vtype, idx: self.straddling_vector(vtype, idx, edge)
        return [self.transposed([self.em.or_zero(ragged, vtype, lambda idx=idx: read(vtype, idx))
                                 for ragged, idx in chunk]) for chunk in self.row_reads(k0)]

    def straddling_vector(self, vtype: ir.VectorType, idx: list[ir.Value], edge: tuple[int, int]) -> ir.Value:
        """The vector at `idx` along a padded innermost dim (`edge`: its dim and extent) that it
        may straddle the border of: read whole where it is all inside the image, else element
        by element, each a border zero outside it."""
        em, (d, extent), n = self.em, edge, vtype.shape[0]
        mem = em.mem[self.role]

        def elements() -> ir.Value:
            one, values = ir.VectorType.get([1], vtype.element_type), []
            for i in range(n):
                at = [em.offset(x, i) if j == d else x for j, x in enumerate(idx)]
                value = em.or_zero([(at[d], extent)], one, lambda at=at: read_vector(one, mem, at))
                values.append(vector.extract(value, [], [0]))
            return vector.from_elements(vtype, values)

        if extent < n:
            return elements()
        whole = scf.IfOp(em.inside([(idx[d], extent - n + 1)]), [vtype], has_else=True)
        with ir.InsertionPoint(whole.then_block):
            scf.yield_([self.operand_vector(vtype, idx)])
        with ir.InsertionPoint(whole.else_block):
            scf.yield_([elements()])
        return whole.result

    def operand_vector(self, vtype: ir.VectorType, idx: list[ir.Value]) -> ir.Value:
        """The operand's vector `vtype` at global `idx` (b?, r0, r1), along its last dim: read,
        or computed by its prologue from its inputs read there. The prologue runs here, once per
        element a workgroup loads, rather than on the fragments read back from LDS, which the
        threads along the other tile dim each read again (TM or TN times as many bodies with
        FMA), and so that LDS, the staging layouts and the product schemes see the
        contraction's operand type as if it were loaded. A strided run's vector (a convolution's
        image, GemmView.strides) is read `read_width` wide, aligned, and every s-th kept."""
        em, n = self.em, vtype.shape[0]
        width = em.p.view.read_width(self.role, n) if em.p.view else n
        stride = width // n
        wide = ir.VectorType.get([width], vtype.element_type)
        pro = em.p.prologues.get(self.role)
        if pro is None:
            value = read_vector(wide, em.mem[self.role], idx, em.gathered_alignment(self.role, width))
        else:
            value = body_at(pro.op, pro.inputs, em.prologue_mem[self.role], idx, width)[0]
        return vector.shuffle(value, value, list(range(0, width, stride))) if stride > 1 else value

    def prefetch(self, kt: ir.Value) -> None:
        """Prefetches into L1 each line this thread's reads of the tile `prefetch` steps ahead
        touch, under the reads' guards."""
        if self.prefetcher is None:
            return
        em = self.em
        ahead = self.s.copy.prefetch
        with em.pipeline_tile(em.offset(kt, ahead), ahead) as tile:  # a walk's may be its next tile's
            reads = self.row_reads(em.k0(tile))
        for chunk in reads:
            for ragged, idx in chunk:
                with em.guard(ragged):
                    self.prefetcher(idx)

    def land(self, regs: list | None, buf: ir.Value, slot: ir.Value | None) -> None:
        self.store(regs, buf)


class StagedCpAsync(Copy):
    copied = slotted = True

    def allocate(self) -> None:
        em, s = self.em, self.s
        self.raw = lds_alloc([s.buffers - 1, s.tile[0] * s.tile[1]], em.p.elem_type)
        self.source = dma_source(em.mem[self.role], GLOBAL)
        self.first = arith.muli(em.tid, em.k.const(s.vector)) if s.vector > 1 else em.tid

    def raw_index(self, slot: ir.Value, j: int, i: int) -> list[ir.Value]:
        s = self.s
        return [slot, self.em.offset(self.first, (j * s.rake + i) * s.threads * s.vector)]

    def copy(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None, tile: ir.Value | None = None) -> list[ir.Value]:
        em, s = self.em, self.s
        tokens = []
        for j, (row0, col) in enumerate(self.chunks):
            for i in range(s.rake):
                idx, inside = self.global_index(k0, (em.offset(row0, i), col), tile)
                tokens.append(async_copy(self.raw, self.raw_index(slot, j, i), self.source, idx, s.vector,
                                         em.inside(inside) if inside else None))
        return tokens

    def land(self, regs: list | None, buf: ir.Value, slot: ir.Value | None) -> None:
        """The raked rows read back from staging slot `slot`, transposed and stored."""
        s, vtype = self.s, self.vtype()
        elem_bytes = element_bits(self.em.p.elem_type) // 8
        self.store([self.transposed([read_vector(vtype, self.raw, self.raw_index(slot, j, i), s.vector * elem_bytes)
                                     for i in range(s.rake)]) for j in range(s.chunks_per_thread)], buf)


class RegisterLanes(Copy):
    def read(self, k0: ir.Value) -> list[ir.Value]:
        em, vtype = self.em, self.vtype()
        out = []
        for src, _ in self.chunks:
            idx, inside = self.global_index(k0, src)
            out.append(em.or_zero(inside, vtype, lambda idx=idx: read_vector(vtype, em.mem[self.role], idx)))
        return out

    def land(self, regs: list | None, buf: ir.Value, slot: ir.Value | None) -> None:
        for value, (_, dest) in zip(regs, self.chunks):
            write_vector(value, self.em.lds[self.role], [buf, dest])


class _ToLds(Copy):
    """The copies by the target's engine straight into the chunks' LDS slots."""

    copied = True
    SPACE = ""  # the operand's memory space as the engine reads it

    def locate(self) -> None:
        self.source = dma_source(self.em.mem[self.role], self.SPACE)  # before the chunks, once
        super().locate()


class GatherToLds(_ToLds):
    SPACE = FAT_RAW_BUFFER

    def copy(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None, tile: ir.Value | None = None) -> list[ir.Value]:
        em, s = self.em, self.s
        transfer = self.vtype() if s.vector > 1 else em.p.elem_type
        for src, dest in self.chunks:  # ldsopt-dtl-layout refuses K tails and padded images here
            amdgpu.gather_to_lds(self.source, self.global_index(k0, src)[0], em.lds[self.role], [buf, dest], transfer)
        return []

    @staticmethod
    def wait(em, copied: list[Copy]) -> None:
        """Loads return in order (vmcnt): the newer tiles' copies of this thread may stay in flight."""
        newer = (em.pl.stages - 2) * sum(c.s.chunks_per_thread for c in copied)
        amdgpu.memory_counter_wait(load=min(newer, VMCNT_MAX))


class CpAsyncRows(_ToLds):
    """cp.async of each row chunk (`rake` 1) to its place in LDS rows, through the LDS map (the
    wgmma scheme's 128-byte swizzle): the direct-to-LDS copy into the layout the consumer reads."""

    SPACE = GLOBAL

    def copy(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None, tile: ir.Value | None = None) -> list[ir.Value]:
        em, tm = self.em, self.s.thread_map
        tokens = []
        for src in self.chunks:
            idx, inside = self.global_index(k0, src, tile)
            row, col = tm.lds_coords(*src)
            tokens.append(async_copy(em.lds[self.role], em.lds_indices(self.role, buf, row, col), self.source, idx,
                                     self.s.vector, em.inside(inside) if inside else None))
        return tokens


class CpAsync(_ToLds):
    SPACE = GLOBAL

    def copy(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None, tile: ir.Value | None = None) -> list[ir.Value]:
        em = self.em
        tokens = []
        for src, dest in self.chunks:
            idx, inside = self.global_index(k0, src, tile)
            tokens.append(async_copy(em.lds[self.role], [buf, dest], self.source, idx, self.s.vector,
                                     em.inside(inside) if inside else None))
        return tokens


def strategy(em, role: str) -> Copy:
    """The copy strategy of operand `role` on the kernel's target (module doc); ValueError for a
    direct copy the target has no engine for."""
    s, tgt = em.pl.staging[role], em.k.target
    if em.p.run_stride(role) > 1 and not (isinstance(s.copy, Registers) and isinstance(s.thread_map, RowChunks)):
        raise ValueError(f"operand {role}: its run is strided (a strided convolution's image); only the "
                         "register row staging reads it (wide reads, every other element kept)")
    if isinstance(s.copy, Registers):
        return (RegisterLanes if isinstance(s.thread_map, StorageOrder) else RegisterRows)(em, role)
    assert isinstance(s.copy, Direct)
    if isinstance(s.thread_map, RowChunks):
        engines = [StagedCpAsync if s.thread_map.transposed else CpAsyncRows] if tgt.async_copy else []
    else:
        engines = [GatherToLds] if 32 in tgt.dma_bits else [CpAsync] if tgt.async_copy else []
    if not engines:
        raise ValueError(f"operand {role}: a direct copy needs gather_to_lds (gfx942) or cp.async (CUDA sm_80+)")
    return engines[0](em, role)
