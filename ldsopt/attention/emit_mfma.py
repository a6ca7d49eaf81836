"""The MFMA attention kernel (plan.plan_mfma): gfx942's `v_mfma_f32_16x16x16_f16` (and bf16),
both products transposed so that P stays in registers.

MFMA 16x16x16's accumulator holds, per lane, 4 rows (4q .. 4q+3, q = lane / 16) of one column
(lane % 16), and its A and B operands 4 K (4q ..) of one row or column: the accumulator is the
B operand's transpose (mma.py's layouts; `setup` checks it). So the kernel computes
    S^T = K Q^T   (A: K from LDS, keys x head dim; B: Q^T, Q's row lane % 16, in registers),
    O^T = V^T P^T (A: V^T from LDS; B: P^T, which is S^T's accumulator packed to f16),
and each lane owns one query row (lane % 16 of its wave's 16) through the whole loop: its
scores, the 4 keys 4q.. of each 16, reduce in the lane and across lanes 16 and 32 apart; its
output is 4 consecutive elements of its row's value dim, a vector store.

Reads of 16 bytes (ds_read_b128): the read groups take two MFMA K steps (mma.k_order): lane q
reads 8 consecutive K, 8q..8q+7, step s taking 8q + 4s .. +3. For the first product's K (the
head dim) Q's registers are read from global memory in the same order. For the second one K
is the keys: key k of a 32-key block sits in S^T's row 4q + e of tile s where k = 8q + 4s + e
(`_key`): the first product's A rows (K's rows read from LDS) are taken in that order, so the
lane's P elements of step s are the keys its V^T read gives step s.
V's tile is staged K-contiguous, transposed in registers (seed 002's in-thread transpose): a
thread reads 4 consecutive keys of 4 of the value dim (4 vectors along the value dim, coalesced),
transposes the 4 x 4 tile (`vector.transpose`: v_perm_b32 on gfx942) and writes 4 rows of V^T
(value dim x keys, rows padded), 4 keys each; the fragment reads along keys are then vectors
(ds_read_b128) instead of 16-bit reads down a column. K's tile is staged as it is in memory
(keys x head dim, K-contiguous for the first product). Both go through registers (gfx942 has
direct-to-LDS copies of 4 bytes only, which this staging does not use), two LDS tiles.
"""

from __future__ import annotations


from iree.compiler import ir
from iree.compiler.dialects import arith, vector

from ldsopt.layout import index_expr, mma
from ldsopt.attention.emit import AttentionEmitter, f32
from ldsopt.codegen.kernel import read_vector, transposed, write_vector

PAD = 8      # elements after each LDS row
RAKE = 4     # keys a thread transposes (64 bits of f16)
PACK = 2     # MFMA K steps a fragment read covers (16 bytes)


class MfmaEmitter(AttentionEmitter):

    def setup(self) -> None:
        p, pl = self.p, self.pl
        self.intr = intr = mma.BY_NAME[pl.scheme]
        sg = intr.subgroup
        if any([(k, n) for n, k in intr.b.coords(lane)] != intr.c.coords(lane) for lane in range(sg)):
            raise AssertionError(f"{intr.name}: the accumulator is not the B operand's transpose")
        self.split = None
        self.d1, self.dn = p.size(p.k1), p.size(p.n)
        self.lane = arith.remui(self.tid, self.idx(sg))
        self.wave = arith.divui(self.tid, self.idx(sg))
        self.col = self._lane(intr.c.second)   # this lane's query row in its wave's 16 (lane % 16)
        self.quad = self._lane(intr.c.first)   # 4q: the first of its accumulator rows
        self.row = arith.addi(arith.addi(self.row0, arith.muli(self.wave, self.idx(intr.n))), self.col)
        self.q = self._q_fragments()
        self.lds = {"k": self.alloc([2, pl.bn, self.d1 + PAD], p.elem_type),
                    "v": self.alloc([2, self.dn, pl.bn + PAD], p.elem_type)}
        acc_t = intr.c.register_type(f32())
        self.state = [self.const(p.max_init), self.const(0.0)] + \
            [vector.broadcast(acc_t, self.const(0.0))] * (self.dn // intr.m)

    def _lane(self, lane_map: mma.LaneMap) -> ir.Value:
        return self.k.index([lane_map.expr(index_expr.var("lane"), self.intr.subgroup)], lane=self.lane)[0]

    def _q_fragments(self) -> list[ir.Value]:
        """Q^T's B registers, per head-dim step: 8 consecutive elements of the lane's row read at
        once (16 bytes), split into the two steps they feed (module docstring)."""
        p, k = self.p, self.intr.k
        inside = self.row_inside(self.row)
        out = []
        for c in range(self.d1 // (k * PACK)):
            d = arith.addi(self.idx(c * k * PACK), arith.muli(self.quad, self.idx(PACK)))
            both = self.read_global("q", {p.row: self.clamp_row(self.row), p.k1: d}, 4 * PACK, inside)
            out += [vector.extract_strided_slice(ir.VectorType.get([4], p.elem_type), both, [4 * s], [4], [1])
                    for s in range(PACK)]
        return out

    # --- K and V tiles: registers, V transposed ---

    def load_tile(self, tile: ir.Value):
        p, pl = self.p, self.pl
        kv0 = arith.muli(tile, self.idx(pl.bn))

        def inside(kv):
            return self.inside(kv, self.kv_size, pl.bn)
        k_regs, v_regs = [], []
        for key, col in self.chunks(pl.bn, self.d1 // pl.vector, pl.threads, self.tid):
            col = arith.muli(col, self.idx(pl.vector))
            kv = arith.addi(kv0, key)
            k_regs.append((key, col, self.read_global("k", {p.k2: kv, p.k1: col}, pl.vector, inside(kv))))
        # Chunk: keys 4r..4r+3 x value dim 4c..4c+3; consecutive threads along the value dim.
        for r, c in self.chunks(pl.bn // RAKE, self.dn // 4, pl.threads, self.tid):
            key0, col = arith.muli(r, self.idx(RAKE)), arith.muli(c, self.idx(4))
            rows = []
            for i in range(RAKE):
                kv = arith.addi(kv0, self.add(key0, i))
                rows.append(self.read_global("v", {p.k2: kv, p.n: col}, 4, inside(kv)))
            v_regs.append((key0, col, rows))
        return k_regs, v_regs

    def store_tile(self, loaded, buf: ir.Value) -> None:
        k_regs, v_regs = loaded
        for key, col, value in k_regs:
            write_vector(value, self.lds["k"], [buf, key, col])
        for key0, col, rows in v_regs:
            for j, column in enumerate(transposed(rows)):
                write_vector(column, self.lds["v"], [buf, self.add(col, j), key0])

    # --- one tile ---

    def _key(self, j: int) -> ir.Value:
        """The key (in the tile) of row position 4q.. of S^T tile j: 32 (j / 2) + 8q + 4 (j % 2);
        for K's A rows, of row position lane % 16 (`row`), the same map."""
        return self.idx(32 * (j // 2) + 4 * (j % 2))

    def _k_row(self, j: int) -> ir.Value:
        """The tile key whose K row lane % 16 = 4a + b reads as row 4a + b of S^T tile j."""
        a, b = arith.divui(self.col, self.idx(4)), arith.remui(self.col, self.idx(4))
        return arith.addi(self.add(arith.muli(a, self.idx(8)), 32 * (j // 2) + 4 * (j % 2)), b)

    def tile_step(self, tile: ir.Value, buf: ir.Value, state: list[ir.Value], diagonal: bool) -> list[ir.Value]:
        intr, pl, p = self.intr, self.pl, self.p
        m, l, acc = state[0], state[1], state[2:]
        kv0 = arith.muli(tile, self.idx(pl.bn))
        v16 = ir.VectorType.get([4], p.elem_type)
        scores = []
        for j in range(pl.bn // intr.m):
            s = vector.broadcast(intr.c.register_type(f32()), self.const(0.0))
            krow = self._k_row(j)
            for c in range(self.d1 // (intr.k * PACK)):
                d = arith.addi(self.idx(c * intr.k * PACK), arith.muli(self.quad, self.idx(PACK)))
                both = read_vector(ir.VectorType.get([4 * PACK], p.elem_type), self.lds["k"], [buf, krow, d])
                for st in range(PACK):
                    a = vector.extract_strided_slice(v16, both, [4 * st], [4], [1])
                    s = intr.emit(a, self.q[c * PACK + st], s)
            key = arith.addi(arith.addi(kv0, self._key(j)), arith.muli(self.quad, self.idx(2)))
            scores.append([self.score(arith.mulf(vector.extract(s, [], [e]), self.q_scale), self.row,
                                      self.add(key, e), diagonal) for e in range(4)])
        top = m
        for ss in scores:
            for x in ss:
                top = arith.maximumf(top, x)
        top = self.k.butterfly(top, [16, 32], arith.maximumf)
        alpha = self.exp2(arith.subf(m, top))
        l = arith.mulf(l, alpha)
        acc = [arith.mulf(a, self.splat(alpha, 4)) for a in acc]
        probs = []
        for ss in scores:
            ps = [self.exp2(arith.subf(x, top)) for x in ss]
            for x in ps:
                l = arith.addf(l, x)
            probs.append(arith.truncf(v16, vector.from_elements(ir.VectorType.get([4], f32()), ps)))
        for blk in range(pl.bn // (intr.k * PACK)):
            key = arith.addi(self.idx(blk * intr.k * PACK), arith.muli(self.quad, self.idx(PACK)))
            for dt in range(len(acc)):
                both = read_vector(ir.VectorType.get([4 * PACK], p.elem_type), self.lds["v"],
                                   [buf, self.add(self.col, dt * intr.m), key])
                for st in range(PACK):
                    a = vector.extract_strided_slice(v16, both, [4 * st], [4], [1])
                    acc[dt] = intr.emit(a, probs[blk * PACK + st], acc[dt])
        return [top, l] + acc

    # --- the output ---

    def finish_rows(self) -> None:
        m, l, acc = self.state[0], self.state[1], self.state[2:]
        l = self.k.butterfly(l, [16, 32], arith.addf)
        for dt, a in enumerate(acc):
            self.store_output(self.row, arith.addi(self.idx(dt * self.intr.m), self.quad), self.normalized(l, m, a))

