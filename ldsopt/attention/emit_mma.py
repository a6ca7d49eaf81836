"""The matrix-core attention kernel (plan.plan_mma): CUDA's `mma.sync` m16n8k16 (f16, bf16),
FlashAttention-2's design.

Four warps, each owning `warp_rows` tiles of 16 query rows (two for head dims up to 64: BM =
128, FlashAttention-2's 32 rows a warp, each K and V fragment read from LDS feeding both
tiles' products; one for 128: BM = 64, the registers of O); BN = 64 keys a tile. Per lane and
row tile (mma.py's m16n8k16 layouts, g = lane / 4, t = lane % 4):
- Q: its A fragments for every 16 of the head dim, read once from global memory and kept;
- S = Q K^T: BN / 8 accumulators (rows g and g + 8, keys 2t, 2t + 1 of each 8), K's B
  fragments read from LDS by `ldmatrix` (K's rows are keys, head dim contiguous: K-contiguous
  for this product);
- each score times scale * log2 e, through the region (on the tiles that need it), the mask and
  the key bound; the row max by the lane's own scores, then the 4 lanes of its row (shuffles 1,
  2); P = 2^(S - m) in f32; the row sum stays the lane's partial sum until the end, when the
  4 lanes add theirs (each rescales by the same factors);
- O += P V: P goes to the second product's A operand in registers: the accumulators of keys
  16c..16c+7 and 16c+8..16c+15 are, pairwise packed to f16 (`_p_operand`), the A fragment of
  key step c (mma.py's C and A layouts: `acc_as_operand` checks it); V's B fragments (keys are
  its contraction dim, V's rows: K-strided) come from LDS by `ldmatrix.trans`;
- O's accumulators (N / 8 of them) rescaled by 2^(m - m') per row.
K and V tiles go global -> LDS by `cp.async` (16-byte copies, keys past the end zero-filled),
`plan.stages` LDS tiles: the first stages - 1 tiles' copies start before the loop, each a
group; each round waits for its tile (all but the stages - 2 newest groups landed), meets at
one barrier, starts the copies of the tile stages - 1 ahead into the buffer the previous round
computed on, and computes (the copies run under the math). The 8 rows an ldmatrix matrix
reads fall in different banks: LDS rows padded by 16 bytes, or (`plan.swizzle`) unpadded with
16-byte chunk c of row r stored at chunk c ^ (r % 8) (plan.swizzle_removes_conflicts).
"""

from __future__ import annotations


from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, scf, vector

from ldsopt.codegen.async_copy import GLOBAL, async_copy, async_token, dma_source
from ldsopt.layout import index_expr, mma
from ldsopt.attention.emit import AttentionEmitter, _f32
from ldsopt.attention.plan import CHUNK_BYTES, PAD_BYTES, SWIZZLE_ROWS
from ldsopt.ir_types import element_bits


def acc_as_operand(acc: mma.OperandLayout, operand: mma.OperandLayout, n: int, lanes: int) -> list[tuple[int, int]] | None:
    """Where each element of `operand`'s register (a product's A, (row, K)) sits among the
    accumulators (C, (row, N)) of consecutive N tiles of width `n` of another product, those
    N tiles read as that K: (tile, element) per operand element, the same for every lane; None
    where an element is held by another lane (P would then go through LDS or shuffles)."""
    out = None
    for lane in range(lanes):
        held = {rc: e for e, rc in enumerate(acc.coords(lane))}
        mine = []
        for r, k in operand.coords(lane):
            tile, col = divmod(k, n)
            if (r, col) not in held:
                return None
            mine.append((tile, held[(r, col)]))
        if out is not None and mine != out:
            return None
        out = mine
    return out


class MmaEmitter(AttentionEmitter):

    def setup(self) -> None:
        p, pl = self.p, self.pl
        self.intr = mma.BY_NAME[pl.scheme]
        self.split = None
        self.d1, self.dn = p.size(p.k1), p.size(p.n)
        lane_count = self.intr.subgroup
        self.lane = arith.remui(self.tid, self.idx(lane_count))
        self.warp = arith.divui(self.tid, self.idx(lane_count))
        self.wrow = arith.addi(self.row0, arith.muli(self.warp, self.idx(self.intr.m * pl.warp_rows)))
        self.p_from_acc = acc_as_operand(self.intr.c, self.intr.a, self.intr.n, lane_count)
        assert self.p_from_acc is not None
        self.q = [[self._q_fragment(rt, c) for c in range(self.d1 // self.intr.k)] for rt in range(pl.warp_rows)]
        eb = element_bits(p.elem_type) // 8
        pad = 0 if pl.swizzle else PAD_BYTES // eb
        self.chunk = CHUNK_BYTES // eb
        self.lds = {"k": self.alloc([pl.stages, pl.bn, self.d1 + pad], p.elem_type),
                    "v": self.alloc([pl.stages, pl.bn, self.dn + pad], p.elem_type)}
        self.src = {r: dma_source(self.mem[r], GLOBAL) for r in ("k", "v")}
        acc_t = self.intr.c.register_type(_f32())
        self.rows = sorted(set(self.intr.c.d_first))  # the accumulator rows a lane holds
        rows = len(self.rows)
        self.state = ([self.const(p.max_init)] * rows + [self.const(0.0)] * rows +
                      [vector.broadcast(acc_t, self.const(0.0))] * (self.dn // self.intr.n)) * pl.warp_rows

    def _split(self, state: list[ir.Value]) -> list[tuple[list[ir.Value], list[ir.Value], list[ir.Value]]]:
        """Per row tile of the warp, (running max, sum per accumulator row; O's accumulators)."""
        r, size = len(self.rows), 2 * len(self.rows) + self.dn // self.intr.n
        return [(state[i:i + r], state[i + r:i + 2 * r], state[i + 2 * r:i + size])
                for i in range(0, len(state), size)]

    def lane_at(self, lane_map: mma.LaneMap) -> ir.Value:
        return self.k.index([lane_map.expr(index_expr.var("lane"), self.intr.subgroup)], lane=self.lane)[0]

    def _q_fragment(self, rt: int, c: int) -> ir.Value:
        """Q's A fragment of the warp's row tile rt, head-dim step c, from global memory (rows
        past the end: zeros)."""
        p, lay = self.p, self.intr.a
        r0, k0 = self.add(self.wrow, rt * self.intr.m), self.idx(c * self.intr.k)
        r0 = arith.addi(r0, self.lane_at(lay.first))
        k0 = arith.addi(k0, self.lane_at(lay.second))
        pieces = []
        coords = list(zip(lay.d_first, lay.d_second))
        for e, n in mma.runs(coords):
            row = self.add(r0, coords[e][0])
            inside = arith.cmpi(arith.CmpIPredicate.ult, row, self.idx(self.m_size)) if self.m_size % self.pl.bm else None
            pieces.append(self.read_global("q", {p.row: self.clamp_row(row), p.k1: self.add(k0, coords[e][1])}, n, inside))
        flat = [vector.extract(x, [], [i]) for x in pieces for i in range(ir.VectorType(x.type).shape[0])]
        vt = ir.VectorType.get([lay.elems], p.elem_type)
        return vector.shape_cast(lay.register_type(p.elem_type), vector.from_elements(vt, flat))

    def lds_col(self, row: ir.Value, col: ir.Value) -> ir.Value:
        """Where column `col` (a multiple of a 16-byte chunk) of LDS row `row` is stored."""
        if not self.pl.swizzle:
            return col
        chunk = arith.divui(col, self.idx(self.chunk))
        turned = arith.xori(chunk, arith.remui(row, self.idx(SWIZZLE_ROWS)))
        return arith.muli(turned, self.idx(self.chunk))

    # --- K and V: cp.async into `stages` LDS tiles ---

    def copy_tile(self, tile: ir.Value, buf: ir.Value) -> None:
        """Starts this thread's cp.async copies of key tile `tile` into LDS tile `buf`, one group."""
        p, pl = self.p, self.pl
        kv0 = arith.muli(tile, self.idx(pl.bn))
        tokens = []
        for role, width in (("k", self.d1), ("v", self.dn)):
            for key, col in self.chunks(pl.bn, width // pl.vector, pl.threads, self.tid):
                col = arith.muli(col, self.idx(pl.vector))
                kv = arith.addi(kv0, key)
                inside = arith.cmpi(arith.CmpIPredicate.ult, kv, self.idx(self.kv_size))
                at = {p.k2: arith.minui(kv, self.idx(self.kv_size - 1)), (p.k1 if role == "k" else p.n): col}
                tokens.append(async_copy(self.lds[role], [buf, key, self.lds_col(key, col)], self.src[role],
                                         self.indices(role, at), pl.vector, inside))
        self.group = ir.Operation.create("nvgpu.device_async_create_group", results=[async_token()],
                                         operands=tokens).result

    def wait_copies(self, in_flight: int) -> None:
        """cp.async.wait_group: every group of this thread but the `in_flight` newest has landed.
        The token is the first tile's (it dominates every wait; the wait counts groups, it does
        not read the token)."""
        i32 = ir.IntegerType.get_signless(32)
        ir.Operation.create("nvgpu.device_async_wait", operands=[self.first_group],
                            attributes={"numGroups": ir.IntegerAttr.get(i32, in_flight)})

    def run_tiles(self) -> None:
        stages = self.pl.stages
        visited, first_region = self.tile_bounds()
        for s in range(stages - 1):
            self.copy_tile(self.clamp_tile(self.idx(s)), self.idx(s))
            if s == 0:
                self.first_group = self.group
        loop = scf.ForOp(self.idx(0), visited, self.idx(1), self.state)
        with ir.InsertionPoint(loop.body):
            tile = loop.induction_variable
            self.wait_copies(stages - 2)
            gpu.barrier()
            ahead = arith.addi(tile, self.idx(stages - 1))
            self.copy_tile(self.clamp_tile(ahead), arith.remui(ahead, self.idx(stages)))
            buf = arith.remui(tile, self.idx(stages))
            state = list(loop.inner_iter_args)
            if self.p.region and self.p.causal is not None:
                needs = arith.cmpi(arith.CmpIPredicate.uge, tile, first_region)
                branch = scf.IfOp(needs, [v.type for v in state], has_else=True)
                with ir.InsertionPoint(branch.then_block):
                    scf.yield_(self.tile_step(tile, buf, state, True))
                with ir.InsertionPoint(branch.else_block):
                    scf.yield_(self.tile_step(tile, buf, state, False))
                state = list(branch.results)
            else:
                state = self.tile_step(tile, buf, state, bool(self.p.region))
            scf.yield_(state)
        self.state = list(loop.results)

    def clamp_tile(self, tile: ir.Value) -> ir.Value:
        return arith.minui(tile, self.idx(self.n_tiles - 1))

    # --- one tile ---

    def _fragment(self, role: str, buf: ir.Value, x0: int, k0: int) -> ir.Value:
        """B fragment of K (x: keys, K: head dim; ldmatrix) or V (x: value dim, K: keys;
        ldmatrix.trans) at (x0, k0) of the tile."""
        load = self.intr.b_load
        f, kv, r = (self.lane_at(m) for m in (load.first, load.second, load.ROW))
        if role == "k":
            row, col = arith.addi(self.add(f, x0), r), self.add(kv, k0)
        else:
            row, col = arith.addi(self.add(kv, k0), r), self.add(f, x0)
        return load.emit(self.intr.b.register_type(self.p.elem_type), self.lds[role], [buf, row, self.lds_col(row, col)],
                         role == "v")

    def tile_step(self, tile: ir.Value, buf: ir.Value, state: list[ir.Value], with_region: bool) -> list[ir.Value]:
        intr, pl = self.intr, self.pl
        c = intr.c
        kv0 = arith.muli(tile, self.idx(pl.bn))
        # S of every row tile; each K fragment read once for all of them.
        zero = vector.broadcast(c.register_type(_f32()), self.const(0.0))
        s_acc = [[zero] * (pl.bn // intr.n) for _ in range(pl.warp_rows)]
        for j in range(pl.bn // intr.n):
            for kc in range(self.d1 // intr.k):
                kb = self._fragment("k", buf, j * intr.n, kc * intr.k)
                for rt in range(pl.warp_rows):
                    s_acc[rt][j] = intr.emit(self.q[rt][kc], kb, s_acc[rt][j])
        updated, probs = [], []
        for rt, (m, l, acc) in enumerate(self._split(state)):
            m, l, acc, p = self._softmax_step(rt, s_acc[rt], m, l, acc, kv0, with_region)
            updated.append((m, l, acc))
            probs.append(p)
        # O += P V; each V fragment read once for all row tiles.
        accs = [list(acc) for _, _, acc in updated]
        for kc in range(pl.bn // intr.k):
            pa = [self._p_operand(p, kc) for p in probs]
            for dt in range(self.dn // intr.n):
                vb = self._fragment("v", buf, dt * intr.n, kc * intr.k)
                for rt in range(pl.warp_rows):
                    accs[rt][dt] = intr.emit(pa[rt], vb, accs[rt][dt])
        return [x for (m, l, _), acc in zip(updated, accs) for x in m + l + acc]

    def _softmax_step(self, rt: int, s_acc: list[ir.Value], m: list[ir.Value], l: list[ir.Value],
                      acc: list[ir.Value], kv0: ir.Value, with_region: bool):
        """Row tile rt's scores (scaled, region, mask, bound), its new running max and sum, O
        rescaled, and the probabilities P (per S accumulator, per element)."""
        c, rows = self.intr.c, self.rows
        row_base = arith.addi(self.add(self.wrow, rt * self.intr.m), self.lane_at(c.first))
        key_base = arith.addi(kv0, self.lane_at(c.second))
        flat_t = ir.VectorType.get([c.elems], _f32())
        scores = []
        for j, a in enumerate(s_acc):
            flat = vector.shape_cast(flat_t, a)
            scores.append([self.score(arith.mulf(vector.extract(flat, [], [e]), self.q_scale), self.add(row_base, dr),
                                      self.add(key_base, j * self.intr.n + dk), with_region)
                           for e, (dr, dk) in enumerate(zip(c.d_first, c.d_second))])
        new_m = []
        for i, dr in enumerate(rows):
            top = m[i]
            for elems in scores:
                for e, r in enumerate(c.d_first):
                    if r == dr:
                        top = arith.maximumf(top, elems[e])
            new_m.append(self.k.butterfly(top, [1, 2], arith.maximumf))  # the 4 lanes of a row
        alpha = [self.exp2(arith.subf(m[i], new_m[i])) for i in range(len(rows))]
        l = [arith.mulf(l[i], alpha[i]) for i in range(len(rows))]
        probs = []
        for elems in scores:
            ps = []
            for e, r in enumerate(c.d_first):
                i = rows.index(r)
                pe = self.exp2(arith.subf(elems[e], new_m[i]))
                l[i] = arith.addf(l[i], pe)
                ps.append(pe)
            probs.append(ps)
        scale_vec = vector.shape_cast(c.register_type(_f32()), vector.from_elements(
            flat_t, [alpha[rows.index(r)] for r in c.d_first]))
        return new_m, l, [arith.mulf(a, scale_vec) for a in acc], probs

    def _p_operand(self, probs: list[list[ir.Value]], kc: int) -> ir.Value:
        """The A fragment of key step kc from the probabilities in registers (`acc_as_operand`)."""
        per_step = self.intr.k // self.intr.n
        elems = [probs[kc * per_step + tile][e] for tile, e in self.p_from_acc]
        lay = self.intr.a
        flat = vector.from_elements(ir.VectorType.get([lay.elems], _f32()), elems)
        half = arith.truncf(ir.VectorType.get([lay.elems], self.p.elem_type), flat)
        return vector.shape_cast(lay.register_type(self.p.elem_type), half)

    # --- the output ---

    def finish_rows(self) -> None:
        c = self.intr.c
        self.wait_copies(0)  # the last round's copies (of a clamped tile) before the kernel ends
        n_base = self.lane_at(c.second)
        coords = list(zip(c.d_first, c.d_second))
        flat_t = ir.VectorType.get([c.elems], _f32())
        for rt, (m, l, acc) in enumerate(self._split(self.state)):
            l = [self.k.butterfly(x, [1, 2], arith.addf) for x in l]
            row_base = arith.addi(self.add(self.wrow, rt * self.intr.m), self.lane_at(c.first))
            for dt, a in enumerate(acc):
                flat = vector.shape_cast(flat_t, a)
                for e, n in mma.runs(coords):
                    piece = vector.extract_strided_slice(ir.VectorType.get([n], _f32()), flat, [e], [n], [1])
                    i = self.rows.index(coords[e][0])
                    self.store_output(self.add(row_base, coords[e][0]), self.add(n_base, dt * self.intr.n + coords[e][1]),
                                      self.normalized(l[i], m[i], piece))
