"""The wgmma kernel's operand tiles copied by the tensor memory accelerator (ldsopt/codegen/tma.py)
instead of cp.async: one thread issues a K step's boxes, an mbarrier per LDS tile counts their
bytes, and every thread waits on it by phase parity before its wgmmas read the tile.

- Boxes: a K-contiguous operand's tile is one box of the K step's 64 elements (128 bytes) by
  its BM (BN) rows; an M/N-contiguous one's is a box of 64 M/N elements by the step's 64 K rows
  per 64-column block, one block after the other (wgmma_maps.SwizzledColumnBlocks). The copy
  engine writes each in the 128-byte swizzle, which is the layout wgmma's descriptors read.
- Tails: boxes past M, N or K read zeros, so the K tail adds nothing and rows past M or N feed
  outputs that are never stored.
- The tensor maps: built by warp 0 at the kernel's start and published in global memory where
  no other workgroup looks while the K loop runs: the first bytes of this workgroup's own
  output tile (its first row), which the output overwrites after the loop.
- The mbarrier of LDS tile s completes one phase per K tile t = s, s + S, ...: the issuing
  thread's arrival announces the tile's bytes, the copies complete them; K tile t is waited for
  with parity (t / S) % 2. Tiles past the last K step are not issued (nothing waits for them).

Refused (`refusal`, the kernel keeps cp.async): operands that are not whole bindings of a static
row-major layout (slices, convolutions' gathers, fused prologues), a loaded init or an
epilogue input bound to the output (the output holds the maps while the loop runs), an N that
the tiles do not divide or an output row of a tile under 384 bytes (room for two aligned maps),
a K split over a cluster, a K step other than 64 elements of a 16-bit type, and a plan that
leaves no LDS for the mbarriers and the maps.
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf

from ldsopt.codegen import tma
from ldsopt.codegen.dispatch import Binding
from ldsopt.ir_types import element_bits

BOX_K = 64  # elements of a K step: one 128-byte swizzled row of a 16-bit type
MN_BLOCK = 64  # M/N elements of one box of an M/N-contiguous operand


def lds_bytes(pl) -> int:
    """LDS the TMA copies take beside the plan's tiles: an mbarrier per LDS tile, the maps'
    scratch, and the alignment of each."""
    return 8 * pl.stages + tma.MAP_BYTES * len(pl.staging) + tma.MAP_ALIGNMENT


def _static(t: ir.RankedTensorType) -> bool:
    return all(d >= 0 for d in t.shape)


def refusal(em, lds_budget: int) -> str | None:
    """Why the kernel `em` (a WgmmaEmitter) cannot take its operands by TMA within `lds_budget`
    bytes of LDS a workgroup; None if it can."""
    p, pl = em.p, em.pl
    if pl.lds_bytes(element_bits(p.elem_type) // 8) + lds_bytes(pl) > lds_budget:
        return "no LDS left for the mbarriers and the maps"
    if pl.split > 1:
        return "a K split over a cluster"
    if pl.bk != BOX_K or str(p.elem_type) not in tma.ELEMTYPES:
        return f"a K step of {pl.bk} {p.elem_type}"
    if p.prologues or p.view is not None:
        return "an operand computed by a prologue or gathered by a convolution"
    for role, b in p.operands.items():
        if b.slice is not None or not _static(b.tensor_type):
            return f"operand {role} is a slice or has a dynamic shape"
        if b.tensor_type.shape[-1] * element_bits(p.elem_type) // 8 % 16:
            return f"operand {role}'s rows are not a multiple of 16 bytes"
    if isinstance(p.init, Binding) or p.output.slice is not None or not _static(p.output.tensor_type):
        return "a loaded init, or an output slice"
    if p.epilogue and any(x is not None and isinstance(x[0], Binding) and x[0].source == p.output.source
                          for x in p.epilogue.inputs):
        return "an epilogue input bound to the output"
    out_bytes = element_bits(p.output.tensor_type.element_type) // 8
    if p.sizes["n"] % pl.tiling.bn or pl.tiling.bn * out_bytes < 2 * tma.MAP_BYTES + tma.MAP_ALIGNMENT:
        return "an N tail, or an output tile row too short to hold two tensor maps"
    return None


class TmaOperands:
    """The TMA copies of the kernel `em`'s operands (module doc)."""

    def __init__(self, em):
        self.em = em
        self.bars = memref.AllocOp(ir.MemRefType.get([em.pl.stages], ir.IntegerType.get_signless(64),
                                                     memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>")),
                                   [], [], alignment=8).result
        self.scratch = memref.AllocOp(ir.MemRefType.get([tma.MAP_BYTES * len(em.pl.staging)],
                                                        ir.IntegerType.get_signless(8),
                                                        memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>")),
                                      [], [], alignment=tma.MAP_ALIGNMENT).result
        self.roles = list(em.pl.staging)
        self.bytes = sum(math.prod(s.lds_shape[1:]) for s in em.pl.staging.values()) \
            * element_bits(em.p.elem_type) // 8

    # --- at the kernel's start ---

    def build(self) -> None:
        """Thread 0 inits the mbarriers, warp 0 builds the tensor maps in LDS."""
        em, k = self.em, self.em.k
        self.first = arith.cmpi(arith.CmpIPredicate.eq, em.tid, k.const(0))
        self.lane, self.warp = arith.remui(em.tid, k.const(32)), arith.divui(em.tid, k.const(32))
        for i, role in enumerate(self.roles):
            dims, strides = self._tensor(role)
            tma.build_descriptor(self.scratch, i * tma.MAP_BYTES, self.lane, self.warp,
                                 self._global_address(em.mem[role]), em.p.elem_type, dims, strides, self._box(role))
        only = scf.IfOp(self.first)
        with ir.InsertionPoint(only.then_block):
            for s in range(em.pl.stages):
                tma.init(self._bar(k.const(s)), 1)
            tma.fence_init()
            scf.yield_([])

    def publish(self) -> None:
        """Warp 0 copies the maps to the first row of this workgroup's output tile, and thread
        0, which issues the copies, acquires them there."""
        k = self.em.k
        i64 = ir.IntegerType.get_signless(64)
        maps = self._map_address()
        self.desc = {r: arith.addi(maps, k.const(i * tma.MAP_BYTES, i64)) for i, r in enumerate(self.roles)}
        for i, role in enumerate(self.roles):
            tma.publish(self.scratch, i * tma.MAP_BYTES, self.warp, self.desc[role])
        only = scf.IfOp(self.first)
        with ir.InsertionPoint(only.then_block):
            for role in self.roles:
                tma.acquire(self.desc[role])
            scf.yield_([])
        self.pointers = {r: tma.generic_pointer(d) for r, d in self.desc.items()}

    def _map_address(self) -> ir.Value:
        """Where the maps go (i64): the first 128-byte boundary in this workgroup's first output row."""
        em, k = self.em, self.em.k
        i64 = ir.IntegerType.get_signless(64)
        at = self._element_address(em.out, em.output_index(em.origin["m"], em.origin["n"]),
                                   element_bits(em.p.output.tensor_type.element_type) // 8)
        return arith.andi(arith.addi(at, k.const(tma.MAP_ALIGNMENT - 1, i64)), k.const(-tma.MAP_ALIGNMENT, i64))

    def _element_address(self, mem: ir.Value, idx: list[ir.Value], elem_bytes: int) -> ir.Value:
        i64 = ir.IntegerType.get_signless(64)
        shape = ir.MemRefType(mem.type).shape
        linear = None
        for i, x in enumerate(idx):
            term = arith.muli(x, self.em.k.const(math.prod(shape[i + 1:])))
            linear = term if linear is None else arith.addi(linear, term)
        return arith.addi(self._global_address(mem), arith.index_cast(i64, arith.muli(linear, self.em.k.const(elem_bytes))))

    def _global_address(self, mem: ir.Value) -> ir.Value:
        """The i64 address of `mem`'s first element (its base plus its offset)."""
        meta = memref.ExtractStridedMetadataOp(mem)
        base = memref.extract_aligned_pointer_as_index(mem)
        elem_bytes = element_bits(ir.MemRefType(mem.type).element_type) // 8
        at = arith.addi(base, arith.muli(meta.offset, self.em.k.const(elem_bytes)))
        return arith.index_cast(ir.IntegerType.get_signless(64), at)

    # --- the tensor and its boxes ---

    def _full_index(self, role: str, r, c) -> list:
        """Operand `role`'s tensor index (outermost first) of its matrix element (r, c): its outer
        matrix dim at r, its contiguous one at c, the batch dims at this workgroup's."""
        return self.em.p.operand_index(role, self.em.batch, [r, c])

    def _tensor(self, role: str) -> tuple[list[int], list[int]]:
        """Dims (innermost first) and byte strides of the outer dims of operand `role`'s tensor."""
        dims = list(self.em.p.operands[role].tensor_type.shape)[::-1]
        eb = element_bits(self.em.p.elem_type) // 8
        return dims, [math.prod(dims[:i + 1]) * eb for i in range(len(dims) - 1)]

    def _box(self, role: str) -> list[int]:
        """The box (innermost first): 64 elements along the contiguous dim, the tile's extent
        along the outer matrix dim (BM/BN rows, or the K step's rows), 1 along the batch dims."""
        s = self.em.pl.staging[role]
        box = {"r": s.tile[0], "c": BOX_K if s.k_contiguous else MN_BLOCK}
        p = self.em.p
        batch_dims = len(p.batch_shape) if p.batch_shape else int(p.batched)
        return [box.get(x, 1) for x in p.operand_index(role, ["b"] * batch_dims, ["r", "c"])][::-1]

    def _bar(self, s: ir.Value) -> ir.Value:
        return tma.shared_pointer(self.bars, arith.muli(s, self.em.k.const(8)))

    # --- each K tile ---

    def slot(self, tile: ir.Value) -> ir.Value:
        """The LDS tile of K tile `tile`: the K tiles take them in turn."""
        return arith.remui(tile, self.em.k.const(self.em.pl.stages))

    def issue(self, tile: ir.Value) -> None:
        """Thread 0 announces K tile `tile`'s bytes and starts its boxes into its LDS tile (a
        tile past the last K step: nothing)."""
        em, k = self.em, self.em.k
        eb = element_bits(em.p.elem_type) // 8
        buf = self.slot(tile)
        i32 = ir.IntegerType.get_signless(32)
        go = scf.IfOp(arith.andi(self.first, arith.cmpi(arith.CmpIPredicate.ult, tile, k.const(em.n_steps))))
        with ir.InsertionPoint(go.then_block):
            bar = self._bar(buf)
            tma.expect_bytes(bar, self.bytes)
            k0 = arith.muli(tile, k.const(em.pl.bk))  # no K split (`refusal`)
            for role in self.roles:
                s = em.pl.staging[role]
                start = arith.muli(buf, k.const(math.prod(s.lds_shape[1:]) * eb))
                # K-major: one box of the tile's rows; MN-major: one per 64-column block, K rows down.
                for j in range(1 if s.k_contiguous else s.tile[1] // MN_BLOCK):
                    if s.dims[0] == "k":
                        r, c = k0, em.offset(em.origin[s.dims[1]], j * MN_BLOCK)
                    else:
                        r, c = em.origin[s.dims[0]], k0
                    coords = [arith.index_cast(i32, x) for x in self._full_index(role, r, c)[::-1]]
                    dest = tma.shared_pointer(em.lds[role], arith.addi(start, k.const(j * MN_BLOCK * BOX_K * eb)))
                    tma.load(dest, self.pointers[role], coords, bar)
            scf.yield_([])

    def wait(self, tile: ir.Value) -> None:
        """Every thread waits for K tile `tile`'s bytes (a tile of the K steps)."""
        k = self.em.k
        phase = arith.divui(tile, k.const(self.em.pl.stages))
        parity = arith.index_cast(ir.IntegerType.get_signless(32), arith.remui(phase, k.const(2)))
        tma.wait(self._bar(self.slot(tile)), parity)

