"""The Hopper attention kernel (plan.plan_wgmma, sm_90a): warpgroup MMA (`wgmma.mma_async`),
FlashAttention-3's products on FlashAttention-2's loop (emit_mma.py's, whose softmax it shares).

`plan.bm / 64` warpgroups of 128 threads, each owning 64 query rows; BN keys a tile.
- LDS: Q's tile [BM, head dim] once, and `plan.stages` tiles of K [BN, head dim] and V [BN,
  value dim], each in the 128-byte swizzle wgmma's descriptors read (wgmma_maps.SwizzledColumnBlocks
  of 64-element blocks: each 64 columns of the tile are its rows of 128 bytes, 16-byte unit u
  of row r at u ^ r % 8, one block after the other), 1024-byte aligned, filled by cp.async of
  16-byte chunks (emit_mma's copies, rows past the end zero-filled); each round waits for its
  tile, fences the copies into wgmma's async proxy (`fence.proxy.async`), meets at one
  barrier and starts the tile stages - 1 ahead.
- S = Q K^T: head dim / 16 wgmmas m64nBNk16, both operands by descriptor, K-major (Q's rows
  are queries, K's keys, both head dim contiguous), committed as one group and waited for.
- The online softmax on S's accumulators in registers: a warp of the warpgroup holds 16 rows
  of them in mma.sync's m16n8 C layout, each 8 keys one C tile (wgmma_maps.accumulator_coords),
  so emit_mma's `_softmax_step` runs on them as it is (the scale folded where it may, the
  region, mask and key bound, the lazy rescale of O by a warp vote).
- O += P V: BN / 16 wgmmas m64n{value dim}k16 with A from registers: P's f16 (bf16) A fragment
  of each 16 keys is mma.sync's m16n8k16 one (wgmma_maps.register_a_coords), built from S's
  accumulators by emit_mma's `_p_operand`, packed two to a .b32; V by descriptor, MN-major (V's
  rows are keys, the value dim contiguous: read transposed), its leading byte offset the BN x 128
  bytes from one 64-column block to the next. The accumulator of O is an !llvm.struct for the
  wgmmas and mma.sync's C tiles for the softmax and the output (emit_mma's `finish_rows`);
  the conversions are register renames.
Taken and refused: plan.wgmma_refusal.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, vector

from ldsopt.attention.emit import _f32
from ldsopt.attention.emit_mma import MmaEmitter
from ldsopt.codegen import wgmma
from ldsopt.codegen.async_copy import GLOBAL, async_wait, dma_source
from ldsopt.ir_types import element_bits
from ldsopt.layout import index_expr, mma
from ldsopt.layout.wgmma_maps import SwizzledColumnBlocks, accumulator_coords, register_a_coords

WARPGROUP = 128
ROWS = 64          # query rows of a warpgroup: wgmma's M
BLOCK = 64         # elements of a 128-byte swizzled row: one column block of a tile


def warp_layouts_match(intr: mma.Intrinsic, n: int) -> bool:
    """Whether each warp of the warpgroup holds wgmma's m64nNk16 accumulator as N / 8 C tiles
    of `intr` (register 4 i + e: element e of tile i) and its register A operand as `intr`'s A
    fragment (element for element), the warp's 16 rows at 16 w."""
    for t in range(WARPGROUP):
        w, lane = divmod(t, intr.subgroup)
        c = [(r + 16 * w, k + intr.n * i) for i in range(n // intr.n) for r, k in intr.c.coords(lane)]
        a = [(r + 16 * w, k) for r, k in intr.a.coords(lane)]
        if c != accumulator_coords(t, n) or a != register_a_coords(t):
            return False
    return True


class WgmmaEmitter(MmaEmitter):

    def setup(self) -> None:
        p, pl = self.p, self.pl
        intr = mma.INTRINSICS[("sm80", str(p.elem_type))]  # a warp's part of wgmma's fragments
        self.softmax_setup(intr)
        assert pl.warp_rows == 1 and intr.m * WARPGROUP // intr.subgroup == ROWS
        assert warp_layouts_match(intr, pl.bn) and warp_layouts_match(intr, self.dn)
        self.vt, self.q = False, None
        self.eb = element_bits(p.elem_type) // 8
        widths = {"q": self.d1, "k": self.d1, "v": self.dn}
        rows = {"q": pl.bm, "k": pl.bn, "v": pl.bn}
        self.maps = {r: SwizzledColumnBlocks(8, 1, 8, block=BLOCK, rows=rows[r], row_elems=widths[r]) for r in rows}
        self.lds = {"q": wgmma.alloc_swizzled([pl.bm, self.d1], p.elem_type)}
        for r in ("k", "v"):
            self.lds[r] = wgmma.alloc_swizzled([pl.stages, pl.bn, widths[r]], p.elem_type)
        self.tile_bytes = {r: rows[r] * widths[r] * self.eb for r in rows}
        self.src = {r: dma_source(self.mem[r], GLOBAL) for r in self.lds}
        warpgroup = arith.divui(self.tid, self.idx(WARPGROUP))
        const = self.k.const
        self.desc = {"q": wgmma.descriptor(const, self.lds["q"], 0,
                                           arith.muli(warpgroup, self.idx(ROWS * wgmma.SWIZZLE_ROW_BYTES))),
                     "k": wgmma.descriptor(const, self.lds["k"], 0),
                     # MN-major: the leading offset steps from one 64-column block of BN rows to the next.
                     "v": wgmma.descriptor(const, self.lds["v"], pl.bn * wgmma.SWIZZLE_ROW_BYTES)}

    def lds_at(self, role: str, buf: ir.Value | None, row: ir.Value, col: ir.Value) -> list[ir.Value]:
        r, c = self.k.index(list(self.maps[role].place(index_expr.var("row"), index_expr.var("col"))), row=row, col=col)
        return ([] if buf is None else [buf]) + [r, c]

    def wait_copies(self, in_flight: int) -> None:
        async_wait(self.first_group, in_flight)
        wgmma.proxy_fence()

    # --- descriptors of K slices ---

    def _k_major(self, role: str, j: int) -> int:
        """Bytes into role's (Q, K) tile where its K slice j (16 of the head dim) starts: in
        column block j / 4, 32 bytes a slice into its 128-byte rows."""
        rows = self.tile_bytes[role] // (self.d1 * self.eb)
        return (j * wgmma.K_STEP) // BLOCK * rows * wgmma.SWIZZLE_ROW_BYTES + (j * wgmma.K_STEP) % BLOCK * self.eb

    def _at_buf(self, role: str, buf: ir.Value) -> ir.Value:
        """role's (K, V) descriptor at LDS tile `buf`."""
        i64 = ir.IntegerType.get_signless(64)
        units = arith.index_cast(i64, arith.muli(buf, self.idx(self.tile_bytes[role] // 16)))
        return arith.addi(self.desc[role], units)

    # --- one tile ---

    def tile_step(self, tile: ir.Value, buf: ir.Value, state: list[ir.Value], with_region: bool) -> list[ir.Value]:
        p, pl, c = self.p, self.pl, self.intr.c
        const = self.k.const
        kv0 = arith.muli(tile, self.idx(pl.bn))
        k_desc, v_desc = self._at_buf("k", buf), self._at_buf("v", buf)
        wgmma.fence()
        s = wgmma.acc_splat(pl.bn, self.const(0.0))
        for j in range(self.d1 // wgmma.K_STEP):
            s = wgmma.mma_async(s, pl.bn, wgmma.advanced(const, self.desc["q"], self._k_major("q", j)),
                                wgmma.advanced(const, k_desc, self._k_major("k", j)), p.elem_type, True, True)
        wgmma.commit()
        wgmma.wait(0)
        ((m, l, acc),) = self._split(state)
        m, l, acc, probs = self._softmax_step(0, self._c_tiles(s, pl.bn), m, l, acc, kv0, with_region)
        flat_t = ir.VectorType.get([c.elems], _f32())
        o = wgmma.acc_from_elements([vector.extract(vector.shape_cast(flat_t, a), [], [e])
                                     for a in acc for e in range(c.elems)])
        wgmma.fence()
        for kc in range(pl.bn // wgmma.K_STEP):  # V's key slice kc: 16 of its 128-byte rows
            regs = self._packed(self._p_operand(probs, kc))
            o = wgmma.mma_async_register_a(o, self.dn, regs, wgmma.advanced(const, v_desc, kc * 16 * wgmma.SWIZZLE_ROW_BYTES),
                                           p.elem_type, b_k_major=False)
        wgmma.commit()
        wgmma.wait(0)
        return m + l + self._c_tiles(o, self.dn)

    def _c_tiles(self, acc: ir.Value, n: int) -> list[ir.Value]:
        """The accumulator struct as n / 8 m16n8 C tiles (`warp_layouts_match`)."""
        c = self.intr.c
        elems = wgmma.acc_elements(acc, n)
        flat_t = ir.VectorType.get([c.elems], _f32())
        return [vector.shape_cast(c.register_type(_f32()), vector.from_elements(flat_t, elems[i:i + c.elems]))
                for i in range(0, len(elems), c.elems)]

    def _packed(self, a: ir.Value) -> list[ir.Value]:
        """An A fragment (4 x 2 16-bit elements) as wgmma's 4 .b32 registers."""
        halves = vector.shape_cast(ir.VectorType.get([8], self.p.elem_type), a)
        i32 = ir.IntegerType.get_signless(32)
        words = vector.bitcast(ir.VectorType.get([4], i32), halves)
        return [vector.extract(words, [], [i]) for i in range(4)]
