"""The matmul emitter (emit.py) for operands staged with a DTL layout (`TileLayout.lds` an `LdsDtl`
set by ldsopt-dtl-layout); the math is ldsopt/layout/dtl.py, whose pure-Python maps this file emits.

`with_dtl(Emitter)` is the one hook ldsopt-matmul-lds calls: a subclass whose staging methods take
the operands with a DTL layout and leave the others to emit.py:
- chunk coordinates (once, before the K loop): chunk c = tid + threads * j is split by the
  threads along the coalesced dim (shift/mask, or a magic multiply-shift proven exact for the
  chunk range: `dtl.divisions`), its source is the inverse placement (forward permutation /
  inverse rotation) and its LDS destination the padded storage index;
- the copy, by `TileLayout.copy`:
  "direct" on gfx942: `amdgpu.gather_to_lds` of one 4-byte lane (f32, vector<2xf16>) from the
  operand's binding relabelled `#amdgpu.address_space<fat_raw_buffer>` by a
  `memref.memory_space_cast` (IREE's ROCm lowering makes bindings buffer resources itself, so
  the cast is the identity; an `amdgpu.fat_raw_buffer_cast` made a buffer resource of a buffer
  resource, which the AMDGPU backend cannot select, and a cast to global memory one it cannot
  cast back), into the flat LDS buffer at the chunk's destination (lane 0's is the wave's
  base: the destinations of a wave are contiguous);
  "direct" on CUDA: `nvgpu.device_async_copy` (cp.async of one lane, 16 bytes by default:
  `.cg`, L1 bypassed) from the operand cast to `#gpu.address_space<global>`, the step's copies
  of both operands closed into one group;
  "registers": a vector read and an LDS write at the same source and destination (targets
  without DTL; the same layout, checked by values);
  M/N indices past the operand's extent are clamped (rows and columns past M or N only feed
  outputs that are never stored; a DMA cannot zero-fill); so are K indices past K, whose
  chunks must be zeros (their products would add to the sums): cp.async copies no source
  element there (srcElements = 0: zero-fill), the register path reads zeros (emit.py's guarded read), and gfx942's
  DMA cannot, so dtl_layout refuses K tails there;
- fragment reads: logical (row, col) -> flat LDS offset (inverse permutation / rotation, then
  the padding), as `vector.load`s stating their alignment (n elements: every layout keeps
  it) except on SPIR-V.
Overlap: direct copies are emit.py's copied operands (`_copied`), `stages - 1` K tiles ahead
(emit.py's header): step kt starts those of tile kt+stages-1 before its math and, after it,
waits for tile kt+1's before the barrier: `nvgpu.device_async_wait` with `numGroups = stages -
2` on CUDA (one cp.async group per tile), `amdgpu.memory_counter_wait load(N)` on gfx942 with N
this thread's copies of the stages - 2 newer tiles (s_waitcnt vmcnt(N): loads return in order;
0 with two tiles). On gfx942 the overlap is the IR's only: LLVM's waitcnt insertion cannot tell
the LDS tiles of one alloc apart, so it waits for every copy in flight (vmcnt(0)) before the
step's first LDS read (seen in the ISA of NN f16 256^3, 2 and 3 stages). Alias scopes on the
copies and the reads (LLVM metadata that its waitcnt insertion consults for LDS DMA; Triton's
AMD backend sets them) would let the copies run during the math; the IR this pass emits cannot
carry them, so that is for the lowering below it.
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import amdgpu, arith, memref, vector

from ldsopt.layout import dtl
from ldsopt.layout import index_expr
from ldsopt.ir_types import element_bits
from ldsopt.codegen.kernel import read_vector, write_vector
from ldsopt.layout.tile_layout import Direct, LdsDtl, TileLayout

VMCNT_MAX = 63  # the largest count s_waitcnt vmcnt takes on gfx942 (6 bits); waiting for fewer is safe


def uses_dtl(s: TileLayout) -> bool:
    return isinstance(s.lds, LdsDtl)


def with_dtl(emitter: type) -> type:
    """`emitter` staging the operands that have a DTL layout as this module says."""

    class DtlEmitter(emitter):
        def __init__(self, *args):
            super().__init__(*args)
            self.dtl_sources = {}  # operand -> its binding cast for the DMA

        def _chunk_coords(self, s: TileLayout):
            if not uses_dtl(s):
                return super()._chunk_coords(s)
            if _direct(s):  # before the K loop, like the chunk coordinates
                self.dtl_sources[s.operand] = dma_source(self, self.mem[s.operand])
            return _chunk_coords(self, s)

        def _copied(self, role: str) -> bool:
            s = self.pl.staging[role]
            return _direct(s) or super()._copied(role)

        def _copy_tile(self, role: str, k0: ir.Value, buf: ir.Value, slot: ir.Value | None) -> list[ir.Value]:
            if not _direct(self.pl.staging[role]):
                return super()._copy_tile(role, k0, buf, slot)
            return _direct_copy(self, role, k0, buf)

        def _wait_copies(self) -> None:
            if self.k.target.backend != "rocm":
                return super()._wait_copies()
            # Loads return in order (vmcnt): the newer tiles' gather_to_lds of this thread may
            # stay in flight.
            newer = (self.pl.stages - 2) * sum(s.chunks_per_thread for s in self.pl.staging.values() if _direct(s))
            amdgpu.memory_counter_wait(load=min(newer, VMCNT_MAX))

        def _read_tile(self, role: str, k0: ir.Value):
            if not uses_dtl(self.pl.staging[role]):
                return super()._read_tile(role, k0)
            return [_read_lane(self, role, k0, src) for src, _ in self.chunks[role]]

        def _store_tile(self, role: str, regs, buf: ir.Value) -> None:
            if not uses_dtl(self.pl.staging[role]):
                return super()._store_tile(role, regs, buf)
            for value, (_, dest) in zip(regs, self.chunks[role]):
                write_vector(value, self.lds[role], [buf, dest])

        def _lds_indices(self, role: str, buf: ir.Value, row: ir.Value, col: ir.Value) -> list[ir.Value]:
            s = self.pl.staging[role]
            if not uses_dtl(s):
                return super()._lds_indices(role, buf, row, col)
            return [buf, _lds_offset(self, s, row, col)]

        def _lds_read(self, role: str, buf: ir.Value, row: ir.Value, col: ir.Value, n: int) -> ir.Value:
            s = self.pl.staging[role]
            if not uses_dtl(s):
                return super()._lds_read(role, buf, row, col, n)
            return _aligned_read(self, s, n, self._lds_indices(role, buf, row, col))

    return DtlEmitter


# --- index math: the maps of ldsopt/layout/dtl.py, each static division by the divider proven for
# its range (`dtl.divisions`) ---

def _maps(em, s: TileLayout) -> tuple[dtl.DtlSpec, dtl.Geometry, index_expr.Proven]:
    elem_bytes = element_bits(em.p.elem_type) // 8
    g = dtl.Geometry(s.tile[0], s.tile[1], elem_bytes, s.threads, em.k.target.subgroup_size, s.vector * elem_bytes)
    spec = s.lds.spec
    return spec, g, index_expr.Proven(dtl.divisions(g, spec))


def _chunk_coords(em, s: TileLayout) -> list[tuple[tuple[ir.Value, ir.Value], ir.Value]]:
    """((source row, source col), LDS destination) of each chunk of this thread
    (`dtl.Geometry.chunk_expr` of chunk tid + threads * j)."""
    spec, g, div = _maps(em, s)
    tid = index_expr.var("tid")
    out = []
    for j in range(s.chunks_per_thread):
        (row, col), dest = g.chunk_expr(index_expr.offset(tid, s.threads * j), spec, div)
        row, col, dest = em.k.index([row, col, dest], tid=em.tid)
        out.append(((row, col), dest))
    return out


def _lds_offset(em, s: TileLayout, row: ir.Value, col: ir.Value) -> ir.Value:
    """Flat LDS offset of logical tile element (row, col): `TileLayout.address_map`."""
    spec, _, div = _maps(em, s)
    return em.k.index([spec.offset_expr(s.tile[1], index_expr.var("row"), index_expr.var("col"), div)],
                      row=row, col=col)[0]


def _aligned_read(em, s: TileLayout, n: int, idx: list[ir.Value]) -> ir.Value:
    """A fragment read of n elements, stating its alignment where the target takes it: every
    layout keeps a read's start a multiple of n (rotation chunks and pads are multiples of the
    widest read) and the buffers' stride too, which the index math hides from LLVM (CUDA split
    such reads into 2-byte loads). SPIR-V gets the transfer read (see kernel.read_vector)."""
    vtype = ir.VectorType.get([n], em.p.elem_type)
    if em.k.target.backend == "vulkan" or n == 1:
        return read_vector(vtype, em.lds[s.operand], idx)
    elem_bytes = element_bits(em.p.elem_type) // 8
    stride = s.lds_shape[1] * elem_bytes
    align = math.gcd(n * elem_bytes, stride & -stride)
    return vector.load(vtype, em.lds[s.operand], idx, alignment=align)


def global_index(em, role: str, k0: ir.Value, src: tuple[ir.Value, ir.Value]):
    """The operand's index of a chunk's source, clamped inside the operand (see the header),
    and `[(K index, K)]` where the K steps do not divide K (else []): the chunk is zeros unless
    the index is below K (lanes do not straddle K: the guards)."""
    s = em.pl.staging[role]
    origin = {**em.origin, "k": k0}
    idx, k_tail = [], []
    for dim, local, extent, last in zip(s.dims, src, s.tile, (1, s.vector)):
        g = arith.addi(origin[dim], local)
        size = em.p.sizes[dim]
        if size % extent:  # the K extent is the K step
            k_tail += [(g, size)] if dim == "k" else []
            g = arith.minui(g, em.k.const(size - last))
        idx.append(g)
    return ([em.batch] if em.batch is not None else []) + idx, k_tail


def _read_lane(em, role: str, k0: ir.Value, src: tuple[ir.Value, ir.Value]) -> ir.Value:
    """The register path's read of one chunk: zeros past K (as cp.async's zero-fill)."""
    idx, k_tail = global_index(em, role, k0, src)
    return em._read_or_zero(k_tail, _lane_type(em, em.pl.staging[role]), em.mem[role], idx)


def _lane_type(em, s: TileLayout) -> ir.Type:
    return ir.VectorType.get([s.vector], em.p.elem_type)


# --- direct copies -----------------------------------------------------------------------------

def _direct(s: TileLayout) -> bool:
    """Whether the operand is copied global -> LDS by the DMA (its own DTL layout)."""
    return uses_dtl(s) and isinstance(s.copy, Direct)


def _direct_copy(em, role: str, k0: ir.Value, buf: ir.Value) -> list[ir.Value]:
    """Starts the operand's copies of the tile at K offset `k0` into LDS tile `buf`; returns
    their cp.async tokens (CUDA; none on gfx942, whose copies vmcnt counts)."""
    s = em.pl.staging[role]
    src = em.dtl_sources[role]
    if em.k.target.backend == "rocm":
        transfer = _lane_type(em, s) if s.vector > 1 else em.p.elem_type
        for chunk_src, dest in em.chunks[role]:  # dtl_layout refuses K tails here
            amdgpu.gather_to_lds(src, global_index(em, role, k0, chunk_src)[0], em.lds[role], [buf, dest], transfer)
        return []
    tokens = []
    for chunk_src, dest in em.chunks[role]:
        idx, k_tail = global_index(em, role, k0, chunk_src)
        inside = em._inside(k_tail) if k_tail else None
        tokens.append(async_copy(em.lds[role], [buf, dest], src, idx, s.vector, inside))
    return tokens


def dma_source(em, mem: ir.Value) -> ir.Value:
    """The operand's binding as a DMA source: a fat raw buffer (gfx942, see the header) or
    global memory (CUDA: cp.async reads `#gpu.address_space<global>`)."""
    space = ir.Attribute.parse("#amdgpu.address_space<fat_raw_buffer>" if em.k.target.backend == "rocm"
                               else "#gpu.address_space<global>")
    t = ir.MemRefType(mem.type)
    return memref.memory_space_cast(ir.MemRefType.get(t.shape, t.element_type, t.layout, space), mem)


def async_token() -> ir.Type:
    return ir.Type.parse("!nvgpu.device.async.token")


def async_copy(dst: ir.Value, dst_idx: list[ir.Value], src: ir.Value, src_idx: list[ir.Value], n: int,
                inside: ir.Value | None = None) -> ir.Value:
    """cp.async of n elements; 16-byte copies bypass L1 (`cp.async.cg`, the only 16-byte form
    that skips it; smaller ones are `.ca`). Where `inside` is given, a chunk outside copies no
    source element (srcElements = 0) and the copy zero-fills its n."""
    extra = []
    if inside is not None:
        extra = [arith.select(inside, arith.constant(ir.IndexType.get(), n), arith.constant(ir.IndexType.get(), 0))]
    sizes = ir.DenseI32ArrayAttr.get([1, len(dst_idx), 1, len(src_idx), len(extra)])
    attrs = {"operandSegmentSizes": sizes, "dstElements": ir.IntegerAttr.get(ir.IndexType.get(), n)}
    if n * element_bits(ir.MemRefType(dst.type).element_type) == 128:
        attrs["bypassL1"] = ir.UnitAttr.get()
    return ir.Operation.create("nvgpu.device_async_copy", results=[async_token()],
                               operands=[dst, *dst_idx, src, *src_idx, *extra], attributes=attrs).result
