"""The Hopper attention kernel (plan.plan_wgmma, sm_90a): warpgroup MMA (`wgmma.mma_async`),
FlashAttention-3's products on FlashAttention-2's loop (emit_mma.py's, whose copies and softmax
it shares).

`plan.bm / 64` warpgroups of 128 threads, each owning 64 query rows; BN keys a tile. With
`plan.kv_splits` = 2 (few rows: plan.plan_wgmma) a second warpgroup owns the same 64 rows:
group s takes key tiles s, s + 2, ... in LDS tiles of its own, copied by its threads,
each round met at a named barrier of its own (Q, copied by all, at one barrier before the
loop); a group's tile past the visited ones is skipped. After the loop group 1 leaves its rows'
running max and sum and its O accumulators in LDS, each thread at its place in the group, and
group 0's thread at the same place (the same rows and columns) merges them and stores the
output (`_combined`).
- LDS: Q's tile [BM, head dim] once, and `plan.stages` tiles of K [BN, head dim] and V [BN,
  value dim], each in the 128-byte swizzle wgmma's descriptors read (wgmma_maps.SwizzledColumnBlocks
  of 64-element blocks: each 64 columns of the tile are its rows of 128 bytes, 16-byte unit u
  of row r at u ^ r % 8, one block after the other), 1024-byte aligned, filled by cp.async of
  16-byte chunks (emit_mma's copies, rows past the end zero-filled); each round waits for its
  tile, fences the copies into wgmma's async proxy (`fence.proxy.async`), meets at one
  barrier and starts the copies of a tile ahead into an LDS tile no wgmma in flight reads.
- S = Q K^T: head dim / 16 wgmmas m64nBNk16, both operands by descriptor, K-major (Q's rows
  are queries, K's keys, both head dim contiguous), one commit group.
- The online softmax on S's accumulators in registers: a warp of the warpgroup holds 16 rows
  of them in mma.sync's m16n8 C layout, each 8 keys one C tile (wgmma_maps.accumulator_coords),
  so emit_mma's `_probabilities` and `_rescaled` run on them as they are (the scale folded
  where it may, the region, mask and key bound, the lazy rescale of O by a warp vote). Only
  they branch on a causal kernel's tiles across the diagonal: the wgmmas stay on the loop's
  straight line.
- O += P V: BN / 16 wgmmas m64n{value dim}k16 with A from registers: P's f16 (bf16) A fragment
  of each 16 keys is mma.sync's m16n8k16 one (wgmma_maps.register_a_coords), built from S's
  accumulators by emit_mma's `_p_operand`, packed two to a .b32 and settled before the fence
  (codegen/wgmma.settled); V by descriptor, MN-major (V's rows are keys, the value dim
  contiguous: read transposed), its leading byte offset the BN x 128 bytes from one 64-column
  block to the next. O is wgmma's !llvm.struct in the loop, mma.sync's C tiles for the
  rescale and the output (emit_mma's `finish_rows`).
- `plan.overlap` (FlashAttention-3's intra-warpgroup overlap): round t issues S_t's group, then
  P_{t-1} V_{t-1}'s (P carried in registers from round t - 1), waits for S_t alone, runs the
  softmax while P V runs, then waits for it and rescales O; the last tile's P V follows the
  loop. V_{t-1}'s LDS tile is still read in round t: 3 LDS tiles, the copies one tile ahead.
  Else each round computes S, the softmax, then P V, each waited for (2 LDS tiles).
Taken and refused: plan.wgmma_refusal.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt.attention.emit import f32
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
        # The loop state: the running max and sum of the lane's rows, O as wgmma's struct;
        # overlapping, the previous tile's P (wgmma's A registers, 4 a 16 keys), whose P V
        # the round issues.
        self.state = self.state[:2 * len(self.rows)] + [wgmma.acc_splat(self.dn, self.const(0.0))]
        if pl.overlap:
            self.state += [self.const(0, ir.IntegerType.get_signless(32))] * (4 * pl.bn // wgmma.K_STEP)
        self.eb = element_bits(p.elem_type) // 8
        widths = {"q": self.d1, "k": self.d1, "v": self.dn}
        rows = {"q": pl.bm, "k": pl.bn, "v": pl.bn}
        self.maps = {r: SwizzledColumnBlocks(8, 1, 8, block=BLOCK, rows=rows[r], row_elems=widths[r]) for r in rows}
        self.lds = {"q": wgmma.alloc_swizzled([pl.bm, self.d1], p.elem_type)}
        for r in ("k", "v"):  # each kv split's `stages` tiles
            self.lds[r] = wgmma.alloc_swizzled([pl.kv_splits * pl.stages, pl.bn, widths[r]], p.elem_type)
        self.tile_bytes = {r: rows[r] * widths[r] * self.eb for r in rows}
        self.src = {r: dma_source(self.mem[r], GLOBAL) for r in self.lds}
        warpgroup = arith.divui(self.gtid, self.idx(WARPGROUP))
        const = self.k.const
        self.desc = {"q": wgmma.descriptor(const, self.lds["q"], 0,
                                           arith.muli(warpgroup, self.idx(ROWS * wgmma.SWIZZLE_ROW_BYTES))),
                     "k": wgmma.descriptor(const, self.lds["k"], 0),
                     # MN-major: the leading offset steps from one 64-column block of BN rows to the next.
                     "v": wgmma.descriptor(const, self.lds["v"], pl.bn * wgmma.SWIZZLE_ROW_BYTES)}

    def lds_at(self, role: str, buf: ir.Value | None, row: ir.Value, col: ir.Value) -> list[ir.Value]:
        r, c = self.k.index(list(self.maps[role].place(index_expr.var("row"), index_expr.var("col"))), row=row, col=col)
        return ([] if buf is None else [self._split_buf(buf)]) + [r, c]

    def _split_buf(self, buf: ir.Value) -> ir.Value:
        """The LDS tile of K's and V's that is the thread's kv split's tile `buf`."""
        return buf if self.split is None else arith.addi(arith.muli(self.split, self.idx(self.pl.stages)), buf)

    def wait_copies(self, in_flight: int) -> None:
        async_wait(self.first_group, in_flight)
        wgmma.proxy_fence()

    def copies_ahead(self) -> int:
        """Overlapping, a round's LDS tiles are its own, the one before (whose P V runs into the
        round) and those the copies fill."""
        return self.pl.stages - (2 if self.pl.overlap else 1)

    def _split(self, state: list[ir.Value]) -> list[tuple[list[ir.Value], list[ir.Value], list[ir.Value]]]:
        r = len(self.rows)
        return [(state[:r], state[r:2 * r], self._c_tiles(state[2 * r], self.dn))]

    def finish_rows(self) -> None:
        """Overlapping, the last tile's P V (from LDS tile (visited - 1) % stages); then the
        output, once every wgmma is done."""
        if self.pl.overlap:
            r, pl = len(self.rows), self.pl
            last = arith.remui(arith.subi(self.tile_bounds()[0], self.idx(1)), self.idx(pl.stages))
            wgmma.fence()
            o = self._pv(self.state[2 * r], self.state[2 * r + 1:], self._at_buf("v", last))
            wgmma.commit()
            self.state = self.state[:2 * r] + [o]
        wgmma.wait(0)
        if self.split is None:
            super().finish_rows()
            return
        self.wait_copies(0)  # the LDS the combine reads and writes is no copy's
        mine = self._state_elements()
        slots = self._published(mine)
        first = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, self.split, self.idx(0)))
        with ir.InsertionPoint(first.then_block):
            self.state = self._combined(mine, slots)
            super().finish_rows()
            scf.yield_([])

    def _state_elements(self) -> list[ir.Value]:
        """The loop state as f32 scalars: the rows' running max and sum, then O's elements."""
        r = len(self.rows)
        return self.state[:2 * r] + wgmma.acc_elements(self.state[2 * r], self.dn)

    def _published(self, mine: list[ir.Value]) -> ir.Value:
        """Each split but 0 writes its loop state (`mine`, `_state_elements`) to LDS slots, at
        its thread's place in the group (thread-fastest), for split 0's thread at the same place
        (the same rows and columns); then the workgroup meets. Returns the slots."""
        slots = self.alloc([self.pl.kv_splits - 1, len(mine), self.pl.group_threads], f32())
        others = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ugt, self.split, self.idx(0)))
        with ir.InsertionPoint(others.then_block):
            at = arith.subi(self.split, self.idx(1))
            for i, x in enumerate(mine):
                memref.store(x, slots, [at, self.idx(i), self.gtid])
            scf.yield_([])
        gpu.barrier()
        return slots

    def _combined(self, mine: list[ir.Value], slots: ir.Value) -> list[ir.Value]:
        """In split 0's threads, its loop state (`mine`) and every other kv split's, read from
        `slots` (`_published`), combined. With M the rows' largest max, each split's sum and O
        are scaled by 2^(m - M) (1 where m is M: a row no split saw, -inf everywhere) and
        added."""
        r = len(self.rows)
        for s in range(self.pl.kv_splits - 1):
            theirs = [memref.load(slots, [self.idx(s), self.idx(i), self.gtid]) for i in range(len(mine))]
            mine = self._merged(mine, theirs)
        return mine[:2 * r] + [wgmma.acc_from_elements(mine[2 * r:])]

    def _merged(self, a: list[ir.Value], b: list[ir.Value]) -> list[ir.Value]:
        """Two splits' (max, sum of each row; O's elements) as one."""
        r, rows = len(self.rows), self.intr.c.d_first
        scale_a, scale_b, out_m, out_l = [], [], [], []
        for i in range(r):
            top = arith.maximumf(a[i], b[i])
            sa, sb = (arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, x, top), self.const(1.0),
                                   self.exp2(arith.subf(x, top))) for x in (a[i], b[i]))
            out_m.append(top)
            out_l.append(arith.addf(arith.mulf(a[r + i], sa), arith.mulf(b[r + i], sb)))
            scale_a.append(sa)
            scale_b.append(sb)
        out_o = []
        for e, (x, y) in enumerate(zip(a[2 * r:], b[2 * r:])):  # element e of a C tile: row rows[e % elems]
            i = self.rows.index(rows[e % len(rows)])
            out_o.append(arith.addf(arith.mulf(x, scale_a[i]), arith.mulf(y, scale_b[i])))
        return out_m + out_l + out_o

    # --- descriptors of K slices ---

    def _k_major(self, role: str, j: int) -> int:
        """Bytes into role's (Q, K) tile where its K slice j (16 of the head dim) starts: in
        column block j / 4, 32 bytes a slice into its 128-byte rows."""
        rows = self.tile_bytes[role] // (self.d1 * self.eb)
        return (j * wgmma.K_STEP) // BLOCK * rows * wgmma.SWIZZLE_ROW_BYTES + (j * wgmma.K_STEP) % BLOCK * self.eb

    def _at_buf(self, role: str, buf: ir.Value) -> ir.Value:
        """role's (K, V) descriptor at LDS tile `buf`."""
        i64 = ir.IntegerType.get_signless(64)
        units = arith.index_cast(i64, arith.muli(self._split_buf(buf), self.idx(self.tile_bytes[role] // 16)))
        return arith.addi(self.desc[role], units)

    # --- one tile ---

    def step(self, tile: ir.Value, buf: ir.Value, state: list[ir.Value], first_diagonal: ir.Value) -> list[ir.Value]:
        """Issues S's wgmmas and, overlapping, those of the previous tile's P V (a group after
        S's); waits for S (P V runs on), the softmax; then (P V done) rescales O. Not
        overlapping, this tile's P V follows and is waited for; else it is the next round's.
        Only the softmax branches on the diagonal (causal: from tile `first_diagonal` on), so the
        wgmmas and their registers are one straight line."""
        p, pl, c = self.p, self.pl, self.intr.c
        const = self.k.const
        r = len(self.rows)
        m, l, o, p_prev = state[:r], state[r:2 * r], state[2 * r], state[2 * r + 1:]
        kv0 = arith.muli(tile, self.idx(pl.bn))
        wgmma.fence()  # also orders O's rescale and P's registers before the previous tile's P V
        s = wgmma.acc_splat(pl.bn, self.const(0.0))
        k_desc = self._at_buf("k", buf)
        for j in range(self.d1 // wgmma.K_STEP):
            s = wgmma.mma_async(s, pl.bn, wgmma.advanced(const, self.desc["q"], self._k_major("q", j)),
                                wgmma.advanced(const, k_desc, self._k_major("k", j)), p.elem_type, True, True)
        wgmma.commit()
        if pl.overlap:  # the previous tile's P V (none before the first tile: an empty group)
            prev = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ugt, tile, self.idx(0)), [o.type], has_else=True)
            with ir.InsertionPoint(prev.then_block):
                prev_buf = arith.remui(self.add(tile, pl.stages - 1), self.idx(pl.stages))
                scf.yield_([self._pv(o, p_prev, self._at_buf("v", prev_buf))])
            with ir.InsertionPoint(prev.else_block):
                scf.yield_([o])
            o = prev.result
            wgmma.commit()
            wgmma.wait(1)  # S's group is done; P V's runs under the softmax
        else:
            wgmma.wait(0)
        kept, l, alpha, probs = self._softmax(tile, self._c_tiles(s, pl.bn), m, l, kv0, first_diagonal)
        if pl.overlap:
            wgmma.wait(0)  # O is the previous tile's P V's: done before it is rescaled
        acc = self._rescaled(self._c_tiles(o, self.dn), alpha, m, kept)
        flat_t = ir.VectorType.get([c.elems], f32())
        o = wgmma.acc_from_elements([vector.extract(vector.shape_cast(flat_t, a), [], [e])
                                     for a in acc for e in range(c.elems)])
        regs = wgmma.settled([x for kc in range(pl.bn // wgmma.K_STEP) for x in self._packed(self._p_operand(probs, kc))])
        if pl.overlap:
            return kept + l + [o] + regs
        wgmma.fence()
        o = self._pv(o, regs, self._at_buf("v", buf))
        wgmma.commit()
        wgmma.wait(0)
        return kept + l + [o]

    def _softmax(self, tile: ir.Value, s_tiles: list[ir.Value], m: list[ir.Value], l: list[ir.Value], kv0: ir.Value,
                 first_diagonal: ir.Value):
        """`_probabilities` of the tile, diagonal or not (as `step` of emit.py)."""
        p = self.p
        if p.causal is None:
            return self._probabilities(0, s_tiles, m, l, kv0, True)
        r, elems = len(self.rows), self.intr.c.elems
        needs = arith.cmpi(arith.CmpIPredicate.uge, tile, first_diagonal)
        branch = scf.IfOp(needs, [f32()] * (2 * r + elems + elems * len(s_tiles)), has_else=True)
        for block, diagonal in ((branch.then_block, True), (branch.else_block, False)):
            with ir.InsertionPoint(block):
                kept, l2, alpha, probs = self._probabilities(0, s_tiles, m, l, kv0, diagonal)
                scf.yield_(kept + l2 + alpha + [x for ps in probs for x in ps])
        out = list(branch.results)
        probs = out[2 * r + elems:]
        return (out[:r], out[r:2 * r], out[2 * r:2 * r + elems],
                [probs[i:i + elems] for i in range(0, len(probs), elems)])

    def _pv(self, o: ir.Value, regs: list[ir.Value], v_desc: ir.Value) -> ir.Value:
        """Issues O += P V of a tile: P's A registers (4 a 16 keys), V's LDS tile `v_desc`."""
        for kc in range(self.pl.bn // wgmma.K_STEP):  # V's key slice kc: 16 of its 128-byte rows
            o = wgmma.mma_async_register_a(o, self.dn, regs[4 * kc:4 * kc + 4],
                                           wgmma.advanced(self.k.const, v_desc, kc * 16 * wgmma.SWIZZLE_ROW_BYTES),
                                           self.p.elem_type, b_k_major=False)
        return o

    def _c_tiles(self, acc: ir.Value, n: int) -> list[ir.Value]:
        """The accumulator struct as n / 8 m16n8 C tiles (`warp_layouts_match`)."""
        c = self.intr.c
        elems = wgmma.acc_elements(acc, n)
        flat_t = ir.VectorType.get([c.elems], f32())
        return [vector.shape_cast(c.register_type(f32()), vector.from_elements(flat_t, elems[i:i + c.elems]))
                for i in range(0, len(elems), c.elems)]

    def _packed(self, a: ir.Value) -> list[ir.Value]:
        """An A fragment (4 x 2 16-bit elements) as wgmma's 4 .b32 registers."""
        halves = vector.shape_cast(ir.VectorType.get([8], self.p.elem_type), a)
        i32 = ir.IntegerType.get_signless(32)
        words = vector.bitcast(ir.VectorType.get([4], i32), halves)
        return [vector.extract(words, [], [i]) for i in range(4)]
