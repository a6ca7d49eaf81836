"""The matrix-core attention kernel (plan.plan_mma): CUDA's `mma.sync` m16n8k16 (f16, bf16),
FlashAttention-2's design.

`plan.warps` warps, each owning `warp_rows` tiles of 16 query rows (the plan's choice: 32
rows a warp for head dims up to 64, FlashAttention-2's, each K and V fragment read from LDS
feeding both tiles' products; 16 at 128, the registers of O), sharing each K and V tile; BN
keys a tile. Per lane and row tile (mma.py's m16n8k16 layouts, g = lane / 4, t = lane % 4):
- Q: its A fragments for every 16 of the head dim, read once from global memory and kept;
  where they would not fit the registers (`plan.q_lds`: two row tiles at head dim 128), Q's
  tile is copied to LDS once, in the layout of K's rows, and each key tile reads its
  fragments by `ldmatrix` once for all of that tile's products;
- S = Q K^T: BN / 8 accumulators (rows g and g + 8, keys 2t, 2t + 1 of each 8), K's B
  fragments read from LDS by `ldmatrix` (K's rows are keys, head dim contiguous: K-contiguous
  for this product);
- the scores through the region, the mask (a causal one only on the tiles across the
  diagonal) and the key bound; the row max by the lane's own scores, then the 4 lanes of its
  row (shuffles 1, 2); P = 2^(S - m) in f32; the row sum stays the lane's partial sum until
  the end, when the 4 lanes add theirs (each rescales by the same factors). Where nothing but
  -inf selections comes between the product and the softmax (no mask, or the causal one; no
  region, or the causal one) and the scale is a positive constant, the scale is folded
  (FlashAttention-2): the max is taken of the raw scores and scaled once a row, and P =
  2^(S c - m) is one multiply-add and one ex2 (c = scale * log2 e); otherwise each score is
  scaled before the region, as the op defines it;
- O += P V: P goes to the second product's A operand in registers: the accumulators of keys
  16c..16c+7 and 16c+8..16c+15 are, pairwise packed to f16 (`_p_operand`), the A fragment of
  key step c (mma.py's C and A layouts: `acc_as_operand` checks it); V's B fragments (keys are
  its contraction dim, V's rows: K-strided) come from LDS by `ldmatrix.trans`; a V held keys
  innermost (V^T, as IREE forms PyTorch's) is staged as it is, [value dim, keys], and read
  plainly like K, a fragment an ldmatrix;
- the running max a row keeps moves only when the tile's max passes it by more than
  RESCALE_LOG2 (FlashAttention-4's lazy rescale: exact, since O and the sum share the max they
  are relative to; P stays below 2^RESCALE_LOG2, well inside f16 and f32), and O's
  accumulators (N / 8 of them) are rescaled by 2^(m - m') only when some row of the warp moved
  it (a warp vote: a branch every lane takes alike), which after the first tiles is rare.
K and V tiles go global -> LDS by `cp.async` (16-byte copies, keys past the end zero-filled),
`plan.stages` LDS tiles: the first stages - 1 tiles' copies start before the loop, each a
group (after Q's, where it is in LDS); each round waits for its tile (all but the stages - 2 newest groups landed), meets at
one barrier, starts the copies of the tile stages - 1 ahead into the buffer the previous round
computed on, and computes (the copies run under the math). The 8 rows an ldmatrix matrix
reads fall in different banks: LDS rows padded by 16 bytes, or (`plan.swizzle`) unpadded with
16-byte chunk c of row r stored at chunk c ^ (r % 8) (plan.layout_price). A fragment's LDS
address is a lane's part, computed once before the loop, plus constants (`_fragments`): its
rows start at multiples of 8 (r % 8 is the lane's), so the swizzle's XOR is the lane's too.
"""

from __future__ import annotations


from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, llvm, math, nvvm, scf, vector

from ldsopt.codegen.async_copy import GLOBAL, async_copy, async_token, async_wait, dma_source
from ldsopt.layout import index_expr, mma
from ldsopt.attention.emit import AttentionEmitter, f32
from ldsopt.attention.plan import CHUNK_BYTES, PAD_BYTES, SWIZZLE_ROWS
from ldsopt.codegen.dispatch import Binding
from ldsopt.ir_types import element_bits


RESCALE_LOG2 = 8.0  # how far (log2 units) a row's max may pass the one it keeps before it moves
# ldmatrix.x4 of two m16n8k16 B fragments at once (mma.py's _LDMATRIX_B reads one, x2): K's of
# two consecutive K steps (lane l addresses K 8 (l // 8) of the pair), V's (`.trans`) of two
# consecutive N tiles (mma.LDMATRIX_B_PAIR). Registers 0, 1 are the first fragment's, 2, 3 the
# second's.
PAIR_ALONG_K = mma.MatrixLoad(4, mma.LaneMap(1, 1, 0), mma.LaneMap(8, 4, 8))
PAIR_ALONG_N = mma.LDMATRIX_B_PAIR


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

    computes_past_last_tile = False  # run_tiles skips a kv split's tile past the visited ones

    def setup(self) -> None:
        p, pl = self.p, self.pl
        self.softmax_setup(mma.BY_NAME[pl.scheme])
        eb = element_bits(p.elem_type) // 8
        pad = 0 if pl.swizzle else PAD_BYTES // eb
        self.chunk = CHUNK_BYTES // eb
        # V^T (keys innermost) is staged as it is, [value dim, keys]: K-contiguous for P V, read
        # plainly like K (one fragment an ldmatrix), where V's [keys, value dim] is read .trans.
        self.vt = p.v_keys_inner
        v_tile = [self.dn, pl.bn + pad] if self.vt else [pl.bn, self.dn + pad]
        self.lds = {"k": self.alloc([pl.stages, pl.bn, self.d1 + pad], p.elem_type),
                    "v": self.alloc([pl.stages, *v_tile], p.elem_type)}
        # K's fragments in pairs along the head dim, V's along the value dim, where they pair up.
        pair_v = not self.vt and self.dn % (2 * self.intr.n) == 0
        self.loads = {"k": PAIR_ALONG_K if self.d1 % (2 * self.intr.k) == 0 else self.intr.b_load,
                      "v": PAIR_ALONG_N if pair_v else self.intr.b_load}
        v_cols = range(0, pl.bn, self.intr.k) if self.vt else range(0, self.dn, self.intr.n * self._pair("v"))
        self.lane_parts = {"k": self._lane_part("k", range(0, self.d1, self.intr.k * self._pair("k"))),
                           "v": self._lane_part("v", v_cols)}
        if pl.q_lds:
            self.lds["q"] = self.alloc([pl.bm, self.d1 + pad], p.elem_type)
            self.loads["q"] = self.intr.a_load
            self.lane_parts["q"] = self._lane_part("q", range(0, self.d1, self.intr.k))
            self.q = None
        else:
            self.q = [[self._q_fragment(rt, c) for c in range(self.d1 // self.intr.k)] for rt in range(pl.warp_rows)]
        self.src = {r: dma_source(self.mem[r], GLOBAL) for r in self.lds}

    def softmax_setup(self, intr: mma.Intrinsic) -> None:
        """What the softmax on `intr`'s accumulators needs, shared with the wgmma kernel (whose
        warps hold m16n8k16's C and A layouts, emit_wgmma.py): the lane, warp and its first
        row, how P's A fragments come from S's accumulators, whether the scale is folded, and
        the loop state (per row tile: the running max and sum of each accumulator row, O)."""
        p, pl = self.p, self.pl
        self.intr = intr
        # kv splits (the wgmma kernel's): group `split` of the workgroup's threads, `gtid` a
        # thread's place in its group, whose warps own the workgroup's rows.
        self.split = arith.divui(self.tid, self.idx(pl.group_threads)) if pl.kv_splits > 1 else None
        self.gtid = arith.remui(self.tid, self.idx(pl.group_threads)) if pl.kv_splits > 1 else self.tid
        self.d1, self.dn = p.size(p.k1), p.size(p.n)
        lane_count = intr.subgroup
        self.lane = arith.remui(self.gtid, self.idx(lane_count))
        self.warp = arith.divui(self.gtid, self.idx(lane_count))
        self.wrow = arith.addi(self.row0, arith.muli(self.warp, self.idx(intr.m * pl.warp_rows)))
        self.p_from_acc = acc_as_operand(intr.c, intr.a, intr.n, lane_count)
        assert self.p_from_acc is not None
        self.folded = (not isinstance(p.scale, Binding) and p.scale > 0 and (p.mask_kind is None or p.causal_mask)
                       and (not p.region or p.causal_region))
        acc_t = intr.c.register_type(f32())
        self.rows = sorted(set(intr.c.d_first))  # the accumulator rows a lane holds
        rows = len(self.rows)
        self.state = ([self.const(p.max_init)] * rows + [self.const(0.0)] * rows +
                      [vector.broadcast(acc_t, self.const(0.0))] * (self.dn // intr.n)) * pl.warp_rows

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
            inside = self.row_inside(row)
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

    def lds_at(self, role: str, buf: ir.Value | None, row: ir.Value, col: ir.Value) -> list[ir.Value]:
        """The indices into role's LDS tile (`buf` of K's and V's; Q's: None) of its row `row`,
        column `col` (the start of a 16-byte chunk)."""
        return ([] if buf is None else [buf]) + [row, self.lds_col(row, col)]

    # --- Q, K and V: cp.async into LDS (K and V: `stages` tiles) ---

    def copy_q(self) -> None:
        """Starts this thread's cp.async copies of the workgroup's Q rows into LDS, one group
        (rows past the query rows zero-filled)."""
        p, pl = self.p, self.pl
        tokens = []
        for row, col in self.chunks(pl.bm, self.d1 // pl.vector, pl.threads, self.tid):
            col = arith.muli(col, self.idx(pl.vector))
            q_row = arith.addi(self.row0, row)
            inside = self.row_inside(q_row)
            tokens.append(async_copy(self.lds["q"], self.lds_at("q", None, row, col), self.src["q"],
                                     self.indices("q", {p.row: self.clamp_row(q_row), p.k1: col}), pl.vector, inside))
        self.group = ir.Operation.create("nvgpu.device_async_create_group", results=[async_token()],
                                         operands=tokens).result

    def copy_tile(self, tile: ir.Value, buf: ir.Value) -> None:
        """Starts this thread's cp.async copies of key tile `tile` into LDS tile `buf` (of its
        kv split's), one group: the threads of its split copy it."""
        p, pl = self.p, self.pl
        kv0 = arith.muli(tile, self.idx(pl.bn))
        tokens = []
        whole = not self.ragged(self.kv_size, pl.bn)  # (`tile` is clamped) every key inside: no bound, no clamp
        if self.vt:  # V^T's rows (value dim) in chunks along the keys, which the chunks divide
            for n, col in self.chunks(self.dn, pl.bn // pl.vector, pl.group_threads, self.gtid):
                col = arith.muli(col, self.idx(pl.vector))
                kv = arith.addi(kv0, col)
                inside = None if whole else arith.cmpi(arith.CmpIPredicate.ult, kv, self.value(self.kv_size))
                at = {p.k2: kv if whole else arith.minui(kv, self.last(self.kv_size, pl.vector)), p.n: n}
                tokens.append(async_copy(self.lds["v"], self.lds_at("v", buf, n, col), self.src["v"],
                                         self.indices("v", at), pl.vector, inside))
        for role, width in (("k", self.d1),) + ((("v", self.dn),) if not self.vt else ()):
            for key, col in self.chunks(pl.bn, width // pl.vector, pl.group_threads, self.gtid):
                col = arith.muli(col, self.idx(pl.vector))
                kv = arith.addi(kv0, key)
                inside = None if whole else arith.cmpi(arith.CmpIPredicate.ult, kv, self.value(self.kv_size))
                at = {p.k2: kv if whole else arith.minui(kv, self.last(self.kv_size)),
                      (p.k1 if role == "k" else p.n): col}
                tokens.append(async_copy(self.lds[role], self.lds_at(role, buf, key, col), self.src[role],
                                         self.indices(role, at), pl.vector, inside))
        self.group = ir.Operation.create("nvgpu.device_async_create_group", results=[async_token()],
                                         operands=tokens).result

    def wait_copies(self, in_flight: int) -> None:
        """cp.async.wait_group: every group of this thread but the `in_flight` newest has landed.
        The token is the first tile's (it dominates every wait; the wait counts groups, it does
        not read the token)."""
        async_wait(self.first_group, in_flight)

    def run_tiles(self) -> None:
        """The rounds: round i computes kv split s's tile i KS + s (KS = 1: tile i), skipped
        past the visited tiles (the rounds are the same for every split: their barriers)."""
        stages, splits = self.pl.stages, self.pl.kv_splits
        visited, first_diagonal = self.tile_bounds()

        def tile_of(rnd: ir.Value) -> ir.Value:
            return arith.addi(arith.muli(rnd, self.idx(splits)), self.split) if splits > 1 else rnd
        groups = []
        if self.pl.q_lds:
            self.copy_q()  # the oldest group: landed by the first round's wait
            groups.append(self.group)
        ahead = self.copies_ahead()
        for s in range(ahead):
            self.copy_tile(self.clamp_tile(tile_of(self.idx(s))), self.idx(s))
            groups.append(self.group)
        self.first_group = groups[0]
        if splits > 1 and self.pl.q_lds:  # Q, copied by every split's threads, published to all
            self.wait_copies(ahead)
            gpu.barrier()
        rounds = arith.ceildivui(visited, self.idx(splits)) if splits > 1 else visited
        loop = scf.ForOp(self.idx(0), rounds, self.idx(1), self.state)
        with ir.InsertionPoint(loop.body):
            rnd = loop.induction_variable
            self.wait_copies(ahead - 1)
            self.split_barrier()
            nxt = arith.addi(rnd, self.idx(ahead))
            self.copy_tile(self.clamp_tile(tile_of(nxt)), arith.remui(nxt, self.idx(stages)))
            buf = arith.remui(rnd, self.idx(stages))
            state, tile = list(loop.inner_iter_args), tile_of(rnd)
            if splits == 1:
                scf.yield_(self.step(tile, buf, state, first_diagonal))
            else:
                inside = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ult, tile, visited), [v.type for v in state],
                                  has_else=True)
                with ir.InsertionPoint(inside.then_block):
                    scf.yield_(self.step(tile, buf, state, first_diagonal))
                with ir.InsertionPoint(inside.else_block):
                    scf.yield_(state)
                scf.yield_(list(inside.results))
        self.state = list(loop.results)

    def split_barrier(self) -> None:
        """A round's barrier: of the thread's kv split (named barrier 1 + split: a split waits
        for its own copies and warps, not for the other split's round), or of the workgroup."""
        if self.split is None:
            gpu.barrier()
            return
        i32 = ir.IntegerType.get_signless(32)
        nvvm.barrier(barrier_id=arith.addi(arith.index_cast(i32, self.split), arith.constant(i32, 1)),
                     number_of_threads=arith.constant(i32, self.pl.group_threads))

    def copies_ahead(self) -> int:
        """How many tiles ahead of the one computed the copies run: all LDS tiles but the one
        the round computes on."""
        return self.pl.stages - 1

    def clamp_tile(self, tile: ir.Value) -> ir.Value:
        return arith.minui(tile, self.last(self.n_tiles))

    # --- one tile ---

    def _lane_part(self, role: str, offsets: range) -> tuple[ir.Value, dict[int, ir.Value]]:
        """The lane's part of its ldmatrix addresses into Q's (role "q", its warp's rows), K's
        ("k") or V's LDS tile: its row (fragment rows start at multiples of 8 past it) and, per
        column offset of `offsets` modulo a row of 8 chunks, its column (swizzled by its row).
        A fragment's address is these plus constants (`_fragments`)."""
        load, plain = self.loads[role], self._plain(role)
        f, kv, r = (self.lane_at(m) for m in (load.first, load.second, load.ROW))
        row, col = (arith.addi(f, r), kv) if plain else (arith.addi(kv, r), f)
        if role == "q":
            row = arith.addi(row, arith.muli(self.warp, self.idx(self.intr.m * self.pl.warp_rows)))
        span = SWIZZLE_ROWS * self.chunk
        lane_cols = {(load.second if plain else load.first)(lane) for lane in range(self.intr.subgroup)}
        cols = {}
        for lo in sorted({off % span for off in offsets}):
            # The lane's column plus lo stays in its row's group of 8 chunks, so the constant
            # part of a fragment's column (a multiple of the group) adds past the XOR.
            assert max(lane_cols) + lo < span, (role, lane_cols, lo)
            cols[lo] = self.lds_col(row, self.add(col, lo))
        return row, cols

    def _plain(self, role: str) -> bool:
        """The role's LDS tile holds its fragments' K dim contiguous (Q, K; V^T): ldmatrix reads
        it plainly, rows along M or N; else (V) transposed, rows along K."""
        return role != "v" or self.vt

    def _pair(self, role: str) -> int:
        """Fragments one ldmatrix of `role` reads."""
        return self.loads[role].tiles // (self.intr.a_load if role == "q" else self.intr.b_load).tiles

    def _fragments(self, role: str, buf: ir.Value | None, x0: int, k0: int) -> list[ir.Value]:
        """A fragments of Q (x: the warp's rows, K: head dim; ldmatrix; `buf` None), B fragments
        of K (x: keys, K: head dim; ldmatrix) or V (x: value dim, K: keys; ldmatrix.trans) at
        (x0, k0) of the tile, one ldmatrix: the fragment there, or it and the next along the
        head dim (K) or value dim (V) where the role's load pairs them. The address: the lane's
        part plus constants."""
        row, cols = self.lane_parts[role]
        plain = self._plain(role)
        drow, dcol = (x0, k0) if plain else (k0, x0)
        span = SWIZZLE_ROWS * self.chunk
        col = self.add(cols[dcol % span], dcol - dcol % span)
        load = self.loads[role]
        one = (self.intr.a if role == "q" else self.intr.b).register_type(self.p.elem_type)
        pair = self._pair(role)
        shape = ir.VectorType(one).shape
        at = [self.add(row, drow), col] if buf is None else [buf, self.add(row, drow), col]
        both = load.emit(ir.VectorType.get([shape[0] * pair, *shape[1:]], self.p.elem_type), self.lds[role],
                         at, not plain)
        if pair == 1:
            return [both]
        return [vector.extract_strided_slice(one, both, [i * shape[0], 0], shape, [1, 1]) for i in range(pair)]

    def tile_step(self, tile: ir.Value, buf: ir.Value, state: list[ir.Value], diagonal: bool) -> list[ir.Value]:
        intr, pl = self.intr, self.pl
        c = intr.c
        kv0 = arith.muli(tile, self.idx(pl.bn))
        # S of every row tile; each K fragment (and Q's, from LDS) read once for all of them.
        zero = vector.broadcast(c.register_type(f32()), self.const(0.0))
        s_acc = [[zero] * (pl.bn // intr.n) for _ in range(pl.warp_rows)]
        for kc in range(0, self.d1 // intr.k, self._pair("k")):
            qa = [[self._q(rt, kc + i) for i in range(self._pair("k"))] for rt in range(pl.warp_rows)]
            for j in range(pl.bn // intr.n):
                for i, kb in enumerate(self._fragments("k", buf, j * intr.n, kc * intr.k)):
                    for rt in range(pl.warp_rows):
                        s_acc[rt][j] = intr.emit(qa[rt][i], kb, s_acc[rt][j])
        updated, probs = [], []
        for rt, (m, l, acc) in enumerate(self._split(state)):
            m, l, acc, p = self._softmax_step(rt, s_acc[rt], m, l, acc, kv0, diagonal)
            updated.append((m, l, acc))
            probs.append(p)
        # O += P V; each V fragment read once for all row tiles.
        accs = [list(acc) for _, _, acc in updated]
        for kc in range(pl.bn // intr.k):
            pa = [self._p_operand(p, kc) for p in probs]
            for dt in range(0, self.dn // intr.n, self._pair("v")):
                for i, vb in enumerate(self._fragments("v", buf, dt * intr.n, kc * intr.k)):
                    for rt in range(pl.warp_rows):
                        accs[rt][dt + i] = intr.emit(pa[rt], vb, accs[rt][dt + i])
        return [x for (m, l, _), acc in zip(updated, accs) for x in m + l + acc]

    def _q(self, rt: int, c: int) -> ir.Value:
        """Q's A fragment of row tile rt, head-dim step c: kept in registers, or read from LDS."""
        return self._fragments("q", None, rt * self.intr.m, c * self.intr.k)[0] if self.q is None else self.q[rt][c]

    def _softmax_step(self, rt: int, s_acc: list[ir.Value], m: list[ir.Value], l: list[ir.Value],
                      acc: list[ir.Value], kv0: ir.Value, diagonal: bool):
        """Row tile rt's scores (region, mask, bound), its kept running max and sum, O rescaled
        where a row's max moved, and the probabilities P (per S accumulator, per element)."""
        kept, l, alpha, probs = self._probabilities(rt, s_acc, m, l, kv0, diagonal)
        return kept, l, self._rescaled(acc, alpha, m, kept), probs

    def _probabilities(self, rt: int, s_acc: list[ir.Value], m: list[ir.Value], l: list[ir.Value],
                       kv0: ir.Value, diagonal: bool):
        """`_softmax_step` but O's rescale: the kept max and sum, the factor 2^(m - m') of each
        accumulator element's row, and P."""
        c, rows = self.intr.c, self.rows
        row_base = arith.addi(self.add(self.wrow, rt * self.intr.m), self.lane_at(c.first))
        key_base = arith.addi(kv0, self.lane_at(c.second))
        flat_t = ir.VectorType.get([c.elems], f32())
        scores = []
        for j, a in enumerate(s_acc):
            flat = vector.shape_cast(flat_t, a)
            elems = [vector.extract(flat, [], [e]) for e in range(c.elems)]
            if not self.folded:
                elems = [arith.mulf(x, self.q_scale) for x in elems]
            scores.append([self.score(x, self.add(row_base, dr), self.add(key_base, j * self.intr.n + dk), diagonal)
                           for x, dr, dk in zip(elems, c.d_first, c.d_second)])
        kept, alpha = [], []
        for i, dr in enumerate(rows):
            top = None
            for elems in scores:
                for e, r in enumerate(c.d_first):
                    if r == dr:
                        top = elems[e] if top is None else arith.maximumf(top, elems[e])
            top = self.k.butterfly(top, [1, 2], arith.maximumf)  # the 4 lanes of a row
            if self.folded:
                top = arith.mulf(top, self.q_scale)
            moved = arith.cmpf(arith.CmpFPredicate.OGT, arith.subf(top, m[i]), self.const(RESCALE_LOG2))
            kept.append(arith.select(moved, top, m[i]))
            alpha.append(arith.select(moved, self.exp2(arith.subf(m[i], top)), self.const(1.0)))
        l = [arith.mulf(l[i], alpha[i]) for i in range(len(rows))]
        probs = []
        for elems in scores:
            ps = []
            for e, r in enumerate(c.d_first):
                i = rows.index(r)
                neg = arith.negf(kept[i])
                x = math.fma(elems[e], self.q_scale, neg) if self.folded else arith.addf(elems[e], neg)
                pe = self.exp2(x)
                l[i] = arith.addf(l[i], pe)
                ps.append(pe)
            probs.append(ps)
        return kept, l, [alpha[rows.index(r)] for r in c.d_first], probs

    def _rescaled(self, acc: list[ir.Value], alpha: list[ir.Value], m: list[ir.Value], kept: list[ir.Value]) -> list[ir.Value]:
        """O's accumulators times their rows' 2^(m - m'), `alpha` per accumulator element, where
        any row of the warp moved its max (else O as it is: a branch the warp takes alike)."""
        c = self.intr.c
        moved = None
        for old, new in zip(m, kept):
            x = arith.cmpf(arith.CmpFPredicate.ONE, old, new)
            moved = x if moved is None else arith.ori(moved, x)
        i1, i32 = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(32)
        any_moved = llvm.call_intrinsic(i1, "llvm.nvvm.vote.any.sync", [self.const(-1, i32), moved], [], [])
        branch = scf.IfOp(any_moved, [a.type for a in acc], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            scale = vector.shape_cast(c.register_type(f32()),
                                      vector.from_elements(ir.VectorType.get([c.elems], f32()), alpha))
            scf.yield_([arith.mulf(a, scale) for a in acc])
        with ir.InsertionPoint(branch.else_block):
            scf.yield_(acc)
        return list(branch.results)

    def _p_operand(self, probs: list[list[ir.Value]], kc: int) -> ir.Value:
        """The A fragment of key step kc from the probabilities in registers (`acc_as_operand`)."""
        per_step = self.intr.k // self.intr.n
        elems = [probs[kc * per_step + tile][e] for tile, e in self.p_from_acc]
        lay = self.intr.a
        flat = vector.from_elements(ir.VectorType.get([lay.elems], f32()), elems)
        half = arith.truncf(ir.VectorType.get([lay.elems], self.p.elem_type), flat)
        return vector.shape_cast(lay.register_type(self.p.elem_type), half)

    # --- the output ---

    def finish_rows(self) -> None:
        c = self.intr.c
        self.wait_copies(0)  # the last round's copies (of a clamped tile) before the kernel ends
        n_base = self.lane_at(c.second)
        coords = list(zip(c.d_first, c.d_second))
        flat_t = ir.VectorType.get([c.elems], f32())
        for rt, (m, l, acc) in enumerate(self._split(self.state)):
            l = [self.k.butterfly(x, [1, 2], arith.addf) for x in l]
            row_base = arith.addi(self.add(self.wrow, rt * self.intr.m), self.lane_at(c.first))
            for dt, a in enumerate(acc):
                flat = vector.shape_cast(flat_t, a)
                for e, n in mma.runs(coords):
                    piece = vector.extract_strided_slice(ir.VectorType.get([n], f32()), flat, [e], [n], [1])
                    i = self.rows.index(coords[e][0])
                    self.store_output(self.add(row_base, coords[e][0]), self.add(n_base, dt * self.intr.n + coords[e][1]),
                                      self.normalized(l[i], m[i], piece))
