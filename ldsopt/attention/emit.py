"""What every attention kernel shares (`AttentionEmitter`); the products are the scheme's
(emit_fma.py, emit_mma.py, emit_mfma.py, emit_wgmma.py).

The grid: workgroup (x, y) computes query rows [x * BM, x * BM + BM) of group y, the group
being the grid dims (batch, query heads) delinearized, slowest first. Its KS kv-split groups
of threads (`plan.kv_splits`; one but for few rows, as in decode) take the key tiles of BN
keys in turn (group s: tiles s, s + KS, ...) with LDS buffers of their own, and combine their
running max, sum and accumulator through LDS at the end (`_combine`): the split-KV of decode
inside one workgroup.

Per key tile, in each group: its K and V tiles go global -> LDS (`copy_tile`, a pipeline of two
LDS tiles: the next tile's reads are issued before the current tile's math, stored after it,
then one barrier), the scheme computes the scores S of its rows in f32 (Q pre-multiplied by
scale * log2 e, held in registers for the whole loop), each score goes through the op's region
(`iree_linalg_ext.index` -> the element's loop indices), the mask (float: + mask * log2 e;
boolean: -inf where its low bit is 0) and the key bound (-inf past the keys), then the online
softmax in base 2: m' = max(m, rowmax S), P = 2^(S - m'), l = l 2^(m - m') + rowsum P,
acc = acc 2^(m - m') + P V, with m from the op's max fill. The output is the normalizing
generic's body on (l, acc), stored in the output's dim order. Rows past the query rows compute
on zeros and are not stored.
Causal (match.Causal): the key tiles past the workgroup's last row are not visited; the tiles
wholly at or below its first row skip the causal selection (it would keep every score there):
the region that is one, or a causal mask, which the tiles across the diagonal read as the -inf
selection it is to the softmax; the query tiles go to the workgroups in reverse (`row_tile`:
the longest rows first).
Dynamic query rows or keys (match.AttentionProblem.extents): `m_size` and `kv_size` are then
run-time values and every bound above is computed from them: such an extent is always ragged
(Q's rows guarded, the output's stores guarded, K's and V's reads guarded or clamped to
max(extent, 1) - 1, the scores past K2 -inf), the key tiles are ceil(K2 / BN) emitted before the
kernel, and the count region launches ceil(M / BM) query tiles (`_workload_grid`; M of up to
the target's most workgroups along x times BM rows, the bound the kernel states). The key loop
then runs a run-time count of rounds, which `Kernel.finish` cannot bound: on lavapipe, whose
loops end past 65535 iterations, keys of up to 65535 rounds of KS tiles.
"""

from __future__ import annotations

import functools
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt.codegen import fast_math
from ldsopt.attention.match import AttentionProblem
from ldsopt.attention.plan import AttentionPlan
from ldsopt.codegen.dispatch import Binding
from ldsopt.codegen.workload import in_count_region
from ldsopt.codegen.elementwise import clone_body
from ldsopt.codegen.kernel import Kernel, ceil_div, global_alignment, lds_alloc, read_vector, write_vector
from ldsopt.target import Target

LOG2E = 1.4426950408889634


def f32() -> ir.Type:
    return ir.F32Type.get()


class AttentionEmitter:
    """The kernel of one planned attention dispatch; the scheme's subclass gives the products."""

    # Whether a kv-split group's last round computes on a tile past the last one (clamped, its
    # keys then past the bound); a scheme that skips such rounds sets it False.
    computes_past_last_tile = True

    def __init__(self, p: AttentionProblem, pl: AttentionPlan, tgt: Target):
        self.p, self.pl, self.tgt = p, pl, tgt
        # The extents the kernel bounds its indices by: ints, or run-time values (dynamic).
        self.m_size, self.kv_size = p.extent(p.row), p.extent(p.k2)
        if isinstance(self.m_size, int):
            self.k = Kernel(p.graph, tgt, (pl.threads, 1, 1), (pl.row_tiles(p), p.groups, 1))
        else:  # any count of query tiles the target launches, ceil(M / BM) at run time
            self.k = Kernel(p.graph, tgt, (pl.threads, 1, 1), (tgt.max_workgroup_counts[0], p.groups, 1),
                            self._workload_grid)
        # Key tiles: a count, or (dynamic keys) ceil(K2 / BN) emitted with the kernel.
        self.n_tiles = math.ceil(self.kv_size / pl.bn) if isinstance(self.kv_size, int) else None

    # --- scalars and indices ---

    def const(self, value: float, t: ir.Type | None = None) -> ir.Value:
        return self.k.const(value, t or f32())

    def idx(self, value: int) -> ir.Value:
        return self.k.const(value)

    def add(self, x: ir.Value, off: int) -> ir.Value:
        return arith.addi(x, self.idx(off)) if off else x

    def value(self, x: int | ir.Value) -> ir.Value:
        """An extent (or a count) as an index value."""
        return self.idx(x) if isinstance(x, int) else x

    def last(self, extent: int | ir.Value, n: int = 1) -> ir.Value:
        """The largest index at which `n` elements fit in `extent` (the clamps: Kernel.last_fit)."""
        return self.k.last_fit(extent, n)

    def ragged(self, extent: int | ir.Value, tile: int) -> bool:
        """Whether tiles of `tile` may end past `extent` (their indices then guarded or
        clamped): it does not divide it, or the extent is read at run time."""
        return not isinstance(extent, int) or extent % tile != 0

    def inside(self, x: ir.Value, extent: int | ir.Value, tile: int) -> ir.Value | None:
        """x < extent where tiles of `tile` are ragged; None where every index is inside."""
        return arith.cmpi(arith.CmpIPredicate.ult, x, self.value(extent)) if self.ragged(extent, tile) else None

    def indices(self, role: str, at: dict[int, ir.Value]) -> list[ir.Value]:
        """Operand `role`'s indices at the loop values `at` (grid dims added)."""
        return [at[d] if d in at else self.grid[d] for d in self.p.dims[role]]

    def splat(self, value: ir.Value, n: int) -> ir.Value:
        return vector.broadcast(ir.VectorType.get([n], value.type), value)

    # --- the kernel ---

    def emit(self, pass_name: str) -> None:
        p, k = self.p, self.k
        with k.ip, p.op.location:
            self.mem = {r: getattr(p, r).memref() for r in ("q", "k", "v", "out")}
            if p.mask is not None:
                self.mem["mask"] = p.mask.memref()
            if p.mask_generator is not None:
                self.mask_inputs = [b.memref() for b in p.mask_generator.inputs]
            if self.n_tiles is None:
                self.n_tiles = ceil_div(self.kv_size, self.pl.bn, self.idx)
            self.tid = k.thread_id()
            self.grid = dict(zip(p.grid_dims, k.delinearize(k.block_id("y"), [p.size(d) for d in p.grid_dims])))
            self.row0 = arith.muli(self.row_tile(), self.idx(self.pl.bm))
            self.q_scale = self._q_scale()
            self.setup()
            self.run_tiles()
            self.finish_rows()
        k.finish(pass_name)

    def row_tile(self) -> ir.Value:
        """The workgroup's query tile: x; causal, the tiles in reverse, so that the rows with the
        most keys start first and a grid of several waves ends on the short ones."""
        x = self.k.block_id("x")
        if self.p.causal is None:
            return x
        tiles = self.idx(self.pl.row_tiles(self.p)) if isinstance(self.m_size, int) else \
            ceil_div(self.m_size, self.pl.bm, self.idx)
        return arith.subi(arith.subi(tiles, self.idx(1)), x)

    def _workload_grid(self, workload: list[ir.Value]) -> list[ir.Value]:
        """The workgroup count of dynamic query rows, from the count region's `workload`:
        ceil(M / BM) query tiles, the groups as planned."""
        const = functools.cache(lambda value: arith.constant(ir.IndexType.get(), value))
        m = in_count_region(self.m_size, workload)
        return [ceil_div(m, self.pl.bm, const), const(self.p.groups), const(1)]

    def _q_scale(self) -> ir.Value:
        """scale * log2(e) in f32: the factor Q is multiplied by."""
        s = self.p.scale
        if not isinstance(s, Binding):
            return self.const(s * LOG2E)
        buf = s.memref()
        value = memref.load(buf, [self.idx(0)] * ir.MemRefType(buf.type).rank)
        if value.type != f32():
            value = arith.extf(f32(), value)
        return arith.mulf(value, self.const(LOG2E))

    # --- what a scheme provides ---

    def setup(self) -> None:
        """Thread coordinates, Q in registers, LDS buffers, the running max, sum and accumulator."""
        raise NotImplementedError

    def tile_step(self, tile: ir.Value, buf: ir.Value, state: list[ir.Value], diagonal: bool) -> list[ir.Value]:
        """The loop state after key tile `tile` (in LDS tile `buf`)."""
        raise NotImplementedError

    def load_tile(self, tile: ir.Value):
        """Starts this thread's global reads of key tile `tile` (clamped to the last)."""
        raise NotImplementedError

    def store_tile(self, loaded, buf: ir.Value) -> None:
        """Puts what `load_tile` read into LDS tile `buf`."""
        raise NotImplementedError

    def finish_rows(self) -> None:
        """Combines the kv-split groups and stores the output."""
        raise NotImplementedError

    # --- the key loop ---

    def tile_bounds(self) -> tuple[ir.Value, ir.Value]:
        """(tiles visited, the first tile across the diagonal: causal, the tiles before it are
        wholly at or below the workgroup's first row and skip the causal selection), of this
        workgroup; per kv-split group, rounded up to whole rounds of KS tiles."""
        p, pl = self.p, self.pl
        if p.causal is None:
            return self.value(self.n_tiles), self.idx(0)
        last_row = arith.minui(self.add(self.row0, pl.bm), self.value(self.m_size))
        ends = arith.ceildivui(self.add(last_row, p.causal.offset), self.idx(pl.bn))
        visited = arith.minui(ends, self.value(self.n_tiles))
        full = arith.divui(self.add(self.row0, p.causal.offset + 1), self.idx(pl.bn))  # tiles wholly <= row0
        return visited, arith.minui(full, visited)

    def run_tiles(self) -> None:
        """The rounds of key tiles: in round i, group s takes tile i * KS + s. Two LDS tiles:
        round i computes on buffer i % 2 while its next tile's reads are in flight."""
        pl = self.pl
        visited, first_diagonal = self.tile_bounds()
        rounds = arith.ceildivui(visited, self.idx(pl.kv_splits))

        def tile_of(rnd: ir.Value) -> ir.Value:
            return arith.addi(arith.muli(rnd, self.idx(pl.kv_splits)), self.split) if pl.kv_splits > 1 else rnd

        self.store_tile(self.load_tile(tile_of(self.idx(0))), self.idx(0))
        gpu.barrier()
        loop = scf.ForOp(self.idx(0), rounds, self.idx(1), self.state)
        with ir.InsertionPoint(loop.body):
            rnd = loop.induction_variable
            tile = tile_of(rnd)
            nxt = arith.addi(rnd, self.idx(1))
            loaded = self.load_tile(tile_of(nxt))
            buf = arith.remui(rnd, self.idx(2))
            state = self.step(tile, buf, list(loop.inner_iter_args), first_diagonal)
            self.store_tile(loaded, arith.remui(nxt, self.idx(2)))
            gpu.barrier()
            scf.yield_(state)
        self.state = list(loop.results)

    def step(self, tile: ir.Value, buf, state: list[ir.Value], first_diagonal: ir.Value) -> list[ir.Value]:
        """`tile_step` of tile `tile`: causal, a branch between the tiles from `first_diagonal`
        on, across the diagonal, and those below it, which skip the causal selection (`score`)."""
        if self.p.causal is None:
            return self.tile_step(tile, buf, state, True)
        needs = arith.cmpi(arith.CmpIPredicate.uge, tile, first_diagonal)
        branch = scf.IfOp(needs, [v.type for v in state], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            scf.yield_(self.tile_step(tile, buf, state, True))
        with ir.InsertionPoint(branch.else_block):
            scf.yield_(self.tile_step(tile, buf, state, False))
        return list(branch.results)

    # --- per score ---

    def score(self, s: ir.Value, row: ir.Value, kv: ir.Value, diagonal: bool) -> ir.Value:
        """Score `s` (f32, log2 units) of query row `row` and key `kv` after the region, the
        mask and the key bound. Not `diagonal` (a causal kernel's key tile wholly at or below
        its first query row) leaves out the causal selection: the region that is one, or the
        causal mask, which is otherwise read as the -inf selection it is to the softmax."""
        p = self.p
        if p.region and (diagonal or not p.causal_region):
            at = {p.row: row, p.k2: kv}
            mapping = {}
            for op in p.region:
                if op.name == "iree_linalg_ext.index":
                    d = ir.IntegerAttr(op.attributes["dim"]).value
                    mapping[op.results[0]] = at.get(d, self.grid.get(d))
                    if mapping[op.results[0]] is None:
                        raise ValueError(f"region reads loop {d}")
            s = clone_body(p.op, [s], None, mapping)[0]
        if p.causal_mask:
            if diagonal:
                past = arith.cmpi(arith.CmpIPredicate.ugt, kv, self.add(row, p.causal.offset))
                s = arith.select(past, self.const(-math.inf), s)
        elif p.mask_kind is not None:
            m = self.mask_value(self.indices("mask", {p.row: self.clamp_row(row), p.k2: self.clamp_kv(kv)}))
            if p.mask_kind == "bool":
                bit = arith.trunci(ir.IntegerType.get_signless(1), m) if ir.IntegerType(m.type).width > 1 else m
                s = arith.select(bit, s, self.const(-math.inf))
            else:
                m = m if m.type == f32() else arith.extf(f32(), m)
                s = arith.addf(s, arith.mulf(m, self.const(LOG2E)))
        if self.ragged(self.kv_size, self.pl.bn) or \
                (self.computes_past_last_tile and self.ragged(self.n_tiles, self.pl.kv_splits)):  # keys past the end
            inside = arith.cmpi(arith.CmpIPredicate.ult, kv, self.value(self.kv_size))
            s = arith.select(inside, s, self.const(-math.inf))
        return s

    def mask_value(self, at: list[ir.Value]) -> ir.Value:
        """The mask's element at indices `at`: loaded, or computed there by its generic (its
        inputs loaded at the loops' values, `linalg.index` the loops themselves)."""
        gen = self.p.mask_generator
        if gen is None:
            return memref.load(self.mem["mask"], at)
        loops = {loop: at[j] for j, loop in enumerate(gen.out_loops)}
        args = [memref.load(buf, [loops[d] for d in dims]) for buf, dims in zip(self.mask_inputs, gen.in_loops)]
        mapping = {}
        for op in gen.op.regions[0].blocks[0].operations:
            if op.operation.name == "linalg.index":
                mapping[op.results[0]] = loops[ir.IntegerAttr(op.attributes["dim"]).value]
        return clone_body(gen.op, args, None, mapping)[0]

    def clamp_row(self, row: ir.Value) -> ir.Value:
        return arith.minui(row, self.last(self.m_size)) if self.ragged(self.m_size, self.pl.bm) else row

    def clamp_kv(self, kv: ir.Value) -> ir.Value:
        return arith.minui(kv, self.last(self.kv_size)) if self.ragged(self.kv_size, self.pl.bn) else kv

    def row_inside(self, row: ir.Value) -> ir.Value | None:
        """Query row `row` < M where the row tiles are ragged (None: every row is inside)."""
        return self.inside(row, self.m_size, self.pl.bm)

    def exp2(self, x: ir.Value) -> ir.Value:
        return fast_math.exp2(x, self.tgt.backend)

    def rounded_p(self, p: ir.Value) -> ir.Value:
        """P rounded to V's type and back, as IREE rounds it for the second product."""
        if self.p.elem_type == f32():
            return p
        t = ir.VectorType.get(p.type.shape, self.p.elem_type) if isinstance(p.type, ir.VectorType) else self.p.elem_type
        return arith.extf(p.type, arith.truncf(t, p))

    # --- output ---

    def normalized(self, l: ir.Value, m: ir.Value, acc: ir.Value) -> ir.Value:
        """The normalizing generic's body on a vector of the accumulator (its row's sum `l`
        and max `m` broadcast): the output's values."""
        n = ir.VectorType(acc.type).shape[0]
        args = [acc if r == 0 else self.splat(m if r == 1 else l, n) for r in self.p.norm_inputs]
        return clone_body(self.p.norm, args, n)[0]

    def output(self, l: ir.Value, m: ir.Value, acc: ir.Value) -> ir.Value:
        """What is stored of a vector of the accumulator: `normalized`, or the accumulator
        itself in the partial form (match.AttentionProblem.stats)."""
        return acc if self.p.norm is None else self.normalized(l, m, acc)

    def store_stats(self, row: ir.Value, m: ir.Value, l: ir.Value, storer: ir.Value) -> None:
        """Partial form: row `row`'s running max and sum, stored by the thread where `storer`
        (an i1) holds, unless the row is past the rows."""
        if self.p.stats is None:
            return
        cond = storer
        if self.ragged(self.m_size, self.pl.bm):
            cond = arith.andi(cond, self.row_inside(row))
        guard = scf.IfOp(cond)
        with ir.InsertionPoint(guard.then_block):
            for role, value in (("max", m), ("sum", l)):
                buf = self.p.stats[role].memref()
                memref.store(value, buf, self.indices(role, {self.p.row: row}))
            scf.yield_([])

    def store_output(self, row: ir.Value, n0: ir.Value, value: ir.Value) -> None:
        """Stores a vector of the output along n at (row, n0), unless the row is past the rows."""
        def write():
            write_vector(value, self.mem["out"], self.indices("out", {self.p.row: row, self.p.n: n0}))
        inside = self.row_inside(row)
        if inside is None:
            write()
            return
        guard = scf.IfOp(inside)
        with ir.InsertionPoint(guard.then_block):
            write()
            scf.yield_([])

    def chunks(self, rows: int, per_row: int, threads: int, tid: ir.Value) -> list[tuple[ir.Value, ir.Value]]:
        """(row, chunk along the row) of each chunk thread `tid` of `threads` copies of a tile of
        `rows` x `per_row` chunks: chunk tid + threads * j, row-major. Where the threads do not
        divide the chunks, the last round's surplus threads take the tile's last row again (the
        same values written twice, rather than writes past the tile). Where a round of the
        threads covers whole rows, a thread's chunks share its column and its rows are its first
        plus constants (addresses a base and offsets)."""
        total = rows * per_row
        out = []
        if threads % per_row == 0:
            first, col = self.k.delinearize(tid, [threads // per_row, per_row])
        for j in range(math.ceil(total / threads)):
            if threads % per_row == 0:
                row = self.add(first, j * (threads // per_row))
            else:
                row, col = self.k.delinearize(self.add(tid, j * threads), [rows, per_row])
            if total % threads and threads * (j + 1) > total:
                row = arith.minui(row, self.idx(rows - 1))
            out.append((row, col))
        return out

    def alloc(self, shape: list[int], elem: ir.Type) -> ir.Value:
        return lds_alloc(shape, elem)

    def read_global(self, role: str, at: dict[int, ir.Value], n: int, inside: ir.Value | None,
                    aligned: bool = False) -> ir.Value:
        """A vector of n elements of operand `role` along its last dim at `at`, zeros where
        `inside` is false. `aligned`: the index along the last dim is a multiple of n, stated
        to LLVM (kernel.global_alignment) so that it does not split the read."""
        vtype = ir.VectorType.get([n], getattr(self.p, role).tensor_type.element_type)
        align = global_alignment(self.mem[role], n, self.tgt.backend) if aligned else 0

        def read():
            return read_vector(vtype, self.mem[role], self.indices(role, at), align)
        if inside is None:
            return read()
        guard = scf.IfOp(inside, [vtype], has_else=True)
        with ir.InsertionPoint(guard.then_block):
            scf.yield_([read()])
        with ir.InsertionPoint(guard.else_block):
            scf.yield_([vector.broadcast(vtype, self.k.const(0.0, vtype.element_type))])
        return guard.result
