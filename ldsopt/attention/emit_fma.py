"""The FMA attention kernel (plan.plan_fma): every target, lavapipe's only one.

Thread t of a workgroup: kv-split group s = t / G (G = BM * lanes threads), query row
r = (t % G) / lanes, lane l = t % lanes of the row. The lane holds pieces of w1 elements of
its Q row (head dim d = (i * lanes + l) * w1 + e, in f32, times scale * log2 e) and of w2 of its
accumulator row (value dim likewise), the row's running max m and sum l. Per key j of a tile
it multiplies its Q pieces by K's at j (read from LDS, the same addresses for every row: a
broadcast), sums them and adds the lanes' partial sums by a butterfly, so each lane holds
every score of its row; the softmax update is then each lane's own, and P V adds P_j times V's
pieces at j to its accumulator.
The K and V tiles (BN x head dim, in LDS as they are in memory, two per group) are read by the
group's threads in vectors of `plan.vector` along the head dims, keys past the end read as
zeros (their scores are -inf). A V held keys innermost (V^T, as IREE forms PyTorch's) is read
in vectors along the keys and stored into the same [key, value dim] tile an element at a time.
A lane's pieces are vectors of the target's widest access of the element type (16 bytes where
the head dim allows), so that its LDS reads are too.
`plan.direct` (one query row: decode's partials): no LDS tiles; each lane reads its own
pieces of K and V of a tile's keys from global memory (clamped to the last key, whose scores
the bound makes -inf) into registers, the next tile's reads issued before the current tile's
math and carried by the loop, with no barrier in it."""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector
from iree.compiler.dialects import math as math_d

from ldsopt.attention.emit import AttentionEmitter, f32
from ldsopt.attention.plan import _pow2_dividing
from ldsopt.codegen.kernel import read_vector, write_vector
from ldsopt.ir_types import element_bits


class FmaEmitter(AttentionEmitter):

    def setup(self) -> None:
        p, pl, k = self.p, self.pl, self.k
        lanes = pl.lanes
        vmax = self.tgt.vector_elems(element_bits(p.elem_type))
        self.d1, self.dn = p.size(p.k1), p.size(p.n)
        self.w1 = _pow2_dividing(self.d1 // lanes, vmax)
        self.w2 = _pow2_dividing(self.dn // lanes, vmax)
        self.split, in_group = (k.delinearize(self.tid, [pl.kv_splits, pl.group_threads]) if pl.kv_splits > 1
                                else (None, self.tid))
        self.group_tid = in_group
        r, self.lane = k.delinearize(in_group, [pl.bm, lanes]) if lanes > 1 else (in_group, self.idx(0))
        self.r = r
        self.row = arith.addi(self.row0, r)
        # Q's pieces, in f32, scaled; rows past the end read zeros (never stored).
        inside = self.row_inside(self.row)
        self.q = []
        for i in range(self.d1 // lanes // self.w1):
            d = self._piece(i, self.w1)
            q = self.read_global("q", {p.row: self.clamp_row(self.row), p.k1: d}, self.w1, inside, aligned=True)
            q = arith.extf(ir.VectorType.get([self.w1], f32()), q) if p.elem_type != f32() else q
            self.q.append(arith.mulf(q, self.splat(self.q_scale, self.w1)))
        # V^T's reads: vectors of keys that divide the tile and the keys (none straddles the
        # end); single keys along keys read at run time (nor are its rows known aligned).
        self.vt_vector = _pow2_dividing(math.gcd(pl.bn, self.kv_size), vmax) if isinstance(self.kv_size, int) else 1
        if not pl.direct:
            bufs = 2 * pl.kv_splits
            self.lds = {"k": self.alloc([bufs, pl.bn, self.d1], p.elem_type),
                        "v": self.alloc([bufs, pl.bn, self.dn], p.elem_type)}
        acc = [vector.broadcast(ir.VectorType.get([self.w2], f32()), self.const(0.0))] * (self.dn // lanes // self.w2)
        self.state = [self.const(p.max_init), self.const(0.0)] + acc

    def _piece(self, i: int, w: int) -> ir.Value:
        """The head-dim index of this lane's piece i of w elements."""
        lanes = self.pl.lanes
        return arith.muli(self.add(self.lane, i * lanes), self.idx(w)) if lanes > 1 else self.idx(i * w)

    def _buf(self, buf: ir.Value) -> ir.Value:
        return arith.addi(arith.muli(self.split, self.idx(2)), buf) if self.split is not None else buf

    # --- K and V tiles ---

    def load_tile(self, tile: ir.Value):
        if self.pl.direct:
            return self._load_own(tile)
        p, pl = self.p, self.pl
        kv0 = arith.muli(tile, self.idx(pl.bn))
        guard_kv = self.ragged(self.kv_size, pl.bn) or pl.kv_splits > 1
        out = {}
        for role, width in (("k", self.d1), ("v", self.dn)):
            if role == "v" and p.v_keys_inner:
                out["vt"] = self._load_vt(kv0)
                continue
            regs = []
            for key, col in self.chunks(pl.bn, width // pl.vector, pl.group_threads, self.group_tid):
                col = arith.muli(col, self.idx(pl.vector))
                kv = arith.addi(kv0, key)
                inside = arith.cmpi(arith.CmpIPredicate.ult, kv, self.value(self.kv_size)) if guard_kv else None
                regs.append((key, col, self.read_global(role, {p.k2: kv, (p.k1 if role == "k" else p.n): col},
                                                         pl.vector, inside)))
            out[role] = regs
        return out

    def _load_vt(self, kv0: ir.Value) -> list[tuple[ir.Value, ir.Value, ir.Value]]:
        """V held keys innermost (match.AttentionProblem.v_keys_inner): the tile's (value row,
        first key, vector along the keys) reads, in vectors of `vt_vector` keys, each wholly
        inside the keys or wholly past them (zeros)."""
        p, pl, w = self.p, self.pl, self.vt_vector
        guard = self.ragged(self.kv_size, pl.bn) or pl.kv_splits > 1
        regs = []
        for n, chunk in self.chunks(self.dn, pl.bn // w, pl.group_threads, self.group_tid):
            key = arith.muli(chunk, self.idx(w)) if w > 1 else chunk
            kv = arith.addi(kv0, key)
            inside = arith.cmpi(arith.CmpIPredicate.ult, kv, self.value(self.kv_size)) if guard else None
            regs.append((n, key, self.read_global("v", {p.k2: kv, p.n: n}, w, inside)))
        return regs

    def _load_own(self, tile: ir.Value) -> list[ir.Value]:
        """`plan.direct`: this lane's pieces of K's and V's rows of the tile's keys, flat: per
        key, K's pieces, then V's. A tile past the last (the read ahead of a group's last
        round, or a round past the keys) reads the last one, a key past the last the last key:
        every read is in bounds, and the bound gives the keys past the end -inf scores."""
        p, pl = self.p, self.pl
        kv0 = arith.muli(arith.minui(tile, self.last(self.n_tiles)), self.idx(pl.bn))
        out = []
        for j in range(pl.bn):
            kv = self.clamp_kv(self.add(kv0, j))
            for role, w, dim in (("k", self.w1, p.k1), ("v", self.w2, p.n)):
                out += [self.read_global(role, {p.k2: kv, dim: self._piece(i, w)}, w, None, aligned=True)
                        for i in range(self._pieces(role))]
        return out

    def _pieces(self, role: str) -> int:
        return (self.d1 // self.pl.lanes // self.w1) if role == "k" else (self.dn // self.pl.lanes // self.w2)

    def store_tile(self, loaded, buf: ir.Value) -> None:
        b = self._buf(buf)
        for role, regs in loaded.items():
            if role == "vt":  # transposed into the tile's [key, value dim] layout, an element a store
                for n, key, value in regs:
                    for e in range(self.vt_vector):
                        memref.store(vector.extract(value, [], [e]), self.lds["v"], [b, self.add(key, e), n])
                continue
            for key, col, value in regs:
                write_vector(value, self.lds[role], [b, key, col])

    def _kv(self, role: str, b, j: int, i: int) -> ir.Value:
        """Piece i of this lane's K or V row at key j of the tile, in f32: from LDS tile b, or
        from the registers b (`plan.direct`)."""
        if self.pl.direct:
            nk, nv = self._pieces("k"), self._pieces("v")
            return self._to_f32(b[j * (nk + nv) + (i if role == "k" else nk + i)])
        w = self.w1 if role == "k" else self.w2
        return self._to_f32(read_vector(ir.VectorType.get([w], self.p.elem_type), self.lds[role],
                                        [b, self.idx(j), self._piece(i, w)]))

    def run_tiles(self) -> None:
        """`plan.direct`: round i computes the tile whose reads round i - 1 issued (the loop
        carries them) and issues the next one's; no LDS, no barrier. Else the LDS pipeline of
        AttentionEmitter.run_tiles."""
        if not self.pl.direct:
            return super().run_tiles()
        pl = self.pl
        visited, first_diagonal = self.tile_bounds()
        rounds = arith.ceildivui(visited, self.idx(pl.kv_splits))

        def tile_of(rnd: ir.Value) -> ir.Value:
            return arith.addi(arith.muli(rnd, self.idx(pl.kv_splits)), self.split) if pl.kv_splits > 1 else rnd

        first = self.load_tile(tile_of(self.idx(0)))
        n = len(self.state)
        loop = scf.ForOp(self.idx(0), rounds, self.idx(1), self.state + first)
        with ir.InsertionPoint(loop.body):
            rnd = loop.induction_variable
            args = list(loop.inner_iter_args)
            ahead = self.load_tile(tile_of(arith.addi(rnd, self.idx(1))))
            state = self.step(tile_of(rnd), args[n:], args[:n], first_diagonal)
            scf.yield_(state + ahead)
        self.state = list(loop.results)[:n]

    # --- one tile ---

    def tile_step(self, tile: ir.Value, buf: ir.Value, state: list[ir.Value], diagonal: bool) -> list[ir.Value]:
        pl, k = self.pl, self.k
        b = buf if pl.direct else self._buf(buf)
        m, l, acc = state[0], state[1], state[2:]
        kv0 = arith.muli(tile, self.idx(pl.bn))
        lanes = pl.lanes
        scores = []
        for j in range(pl.bn):
            s = None  # the lane's partial dot: one multiply, then a chain of multiply-adds
            for i, q in enumerate(self.q):
                kk = self._kv("k", b, j, i)
                for e in range(self.w1):
                    qe, ke = vector.extract(q, [], [e]), vector.extract(kk, [], [e])
                    s = arith.mulf(qe, ke) if s is None else math_d.fma(qe, ke, s)
            s = k.butterfly(s, [lanes >> (e + 1) for e in range(int(math.log2(lanes)))], arith.addf) if lanes > 1 else s
            scores.append(self.score(s, self.row, self.add(kv0, j), diagonal))
        m_new = m
        for s in scores:
            m_new = arith.maximumf(m_new, s)
        alpha = self.exp2(arith.subf(m, m_new))
        l = arith.mulf(l, alpha)
        acc = [arith.mulf(a, self.splat(alpha, self.w2)) for a in acc]
        for j, s in enumerate(scores):
            pj = self.exp2(arith.subf(s, m_new))
            l = arith.addf(l, pj)
            pv = self.splat(self.rounded_p(pj), self.w2)
            for i in range(len(acc)):
                vv = self._kv("v", b, j, i)
                acc[i] = vector.fma(pv, vv, acc[i])
        return [m_new, l] + acc

    def _to_f32(self, v: ir.Value) -> ir.Value:
        if ir.VectorType(v.type).element_type == f32():
            return v
        return arith.extf(ir.VectorType.get(ir.VectorType(v.type).shape, f32()), v)

    # --- the output ---

    def finish_rows(self) -> None:
        pl = self.pl
        m, l, acc = self.state[0], self.state[1], self.state[2:]
        if pl.kv_splits > 1:
            m, l, acc = self._combine(m, l, acc)
            guard = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, self.split, self.idx(0)))
            with ir.InsertionPoint(guard.then_block):
                self._store(m, l, acc)
                scf.yield_([])
        else:
            self._store(m, l, acc)

    def _store(self, m, l, acc) -> None:
        for i, a in enumerate(acc):
            self.store_output(self.row, self._piece(i, self.w2), self.output(l, m, a))
        self.store_stats(self.row, m, l, arith.cmpi(arith.CmpIPredicate.eq, self.lane, self.idx(0)))

    def _combine(self, m, l, acc):
        """Every group's (m, l, acc) of the row through LDS; group 0's lanes combine them."""
        pl = self.pl
        comb = self.alloc([pl.kv_splits, pl.bm, self.dn + 2], f32())
        for i, a in enumerate(acc):
            write_vector(a, comb, [self.split, self.r, self._piece(i, self.w2)])
        memref.store(m, comb, [self.split, self.r, self.idx(self.dn)])
        memref.store(l, comb, [self.split, self.r, self.idx(self.dn + 1)])
        gpu.barrier()
        ms = [memref.load(comb, [self.idx(s), self.r, self.idx(self.dn)]) for s in range(pl.kv_splits)]
        top = ms[0]
        for x in ms[1:]:
            top = arith.maximumf(top, x)
        total = self.const(0.0)
        out = [vector.broadcast(a.type, self.const(0.0)) for a in acc]
        for s, ms_ in enumerate(ms):
            w = self.exp2(arith.subf(ms_, top))
            total = arith.addf(total, arith.mulf(memref.load(comb, [self.idx(s), self.r, self.idx(self.dn + 1)]), w))
            for i in range(len(out)):
                a = read_vector(ir.VectorType.get([self.w2], f32()), comb, [self.idx(s), self.r, self._piece(i, self.w2)])
                out[i] = vector.fma(self.splat(w, self.w2), a, out[i])
        return top, total, out
