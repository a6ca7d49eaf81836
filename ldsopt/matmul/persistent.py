"""A persistent matmul kernel's walk over its output tiles (ldsopt-matmul-lds `persistent`).

As many workgroups as the plan keeps resident (one an SM for the large plans, `per_cu` an SM
else): G = min(T, SMs * per_cu) workgroups, workgroup w taking tiles w, w + G, w + 2G, ...
of the plain grid's T tiles, in the order that grid launches them (N tiles fastest), so that
the G tiles in flight at a time are the ones a wave of the plain grid would run. Its K pipeline
runs over the concatenation of its tiles' K steps (iteration i: tile i / steps, K tile i %
steps; `TileWalk.at`), so the copies (and the register reads) of the next tile's first K
tiles are issued by the last steps of a tile and are in flight while its epilogue stores it:
each tile's pipeline fill after the first overlaps the stores of the one before, which a plain
grid serializes on each SM where the plan runs one workgroup an SM. The loops are nested
(`TileWalk.loops`: a K loop per tile, the tile stored after it), not one flat loop with a
branch at each tile's end: there the accumulators' phi made ptxas serialize every wgmma
(C7514). The wgmma scheme's copies by TMA count the walk's iterations on their mbarriers
(tma_copy.py); its tensor maps are published in the output rows of the workgroup's last
tile, which nothing stores before its last TMA copy has landed. Every other scheme's copies
and reads take the origin and K tile of the iteration they fetch from the tile and K step
being emitted (`Emitter.pipeline_tile`, `TileWalk.at`), and each step's LDS tile is counted
by the loops (`TileWalk.lds_tile`); the copies of iterations past the walk's last read
nothing.

Refused (`refusal`; the kernel stays a plain grid and the dispatch says why): a dynamic M, N
or K (the walk counts its tiles and steps at compile time), clusters (a multicast or a K
split), row sums of A or of the output's chunks (the fold's, which the K loop carries), a
batch of more than one, no more tiles than SMs (nothing to walk), and what a scheme refuses
besides (`Emitter.walk_refusal`: the wgmma scheme's operands not copied by TMA).
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith, scf

# The function attribute saying why a kernel asked to be persistent is a plain grid.
PERSISTENT_REFUSED = "ldsopt.persistent_refused"


def refusal(em, compute_units: int | None, per_cu: int = 1) -> str | None:
    """Why the kernel `em` (an Emitter), `per_cu` workgroups an SM, cannot walk its tiles
    persistently (None: it can)."""
    pl, p = em.pl, em.p
    own = em.walk_refusal()
    if own:
        return own
    if pl.split > 1 or pl.row_share > 1:
        return "it runs in clusters (a multicast or a K split)"
    if em.row_stats is not None or p.chunk_stats:
        return "it sums A's rows or its output's chunks (ldsopt-fold-norm's forms)"
    if p.dynamic:
        return "its M, N or K is dynamic (the walk counts its tiles and K steps at compile time)"
    if p.sizes.get("b", 1) > 1:
        return "its batch has more than one matrix"
    if not compute_units or math.prod(pl.grid(p.sizes)) <= compute_units * per_cu:
        return "it has no more tiles than SMs" + (f" times its {per_cu} workgroups an SM" if per_cu > 1 else "")
    return None


class TileWalk:
    """The tiles of workgroup w (module doc): `count` of them, the origin of its j-th."""

    def __init__(self, em, workgroups: int):
        """`workgroups`: how many run at once (SMs times the plan's workgroups an SM)."""
        self.em = em
        self.n_tiles, m_tiles, _ = em.pl.grid(em.p.sizes)
        self.tiles = self.n_tiles * m_tiles
        self.workgroups = min(self.tiles, workgroups)

    @property
    def grid(self) -> tuple[int, int, int]:
        return self.workgroups, 1, 1

    def start(self) -> None:
        """At the kernel's start: this workgroup's index and the count of its tiles."""
        k = self.em.k
        self.w = k.block_id("x")
        # (T - 1 - w) / G + 1 tiles: w, w + G, ... below T
        self.count = arith.addi(arith.divui(arith.subi(k.const(self.tiles - 1), self.w),
                                            k.const(self.workgroups)), k.const(1))
        self.iterations = arith.muli(self.count, k.const(self.em.n_steps))
        # Where `loops` is: the tile j, its first iteration, the K step s and its LDS tile; before
        # the loops, the first tile's first step.
        self.j = self.first = self.s = self.stage = k.const(0)

    def origin(self, j: ir.Value) -> dict[str, ir.Value]:
        """(m, n) origin of this workgroup's j-th tile."""
        k, t = self.em.k, self.em.pl.tiling
        tile = arith.addi(self.w, arith.muli(j, k.const(self.workgroups)))
        return {"m": arith.muli(arith.divui(tile, k.const(self.n_tiles)), k.const(t.bm)),
                "n": arith.muli(arith.remui(tile, k.const(self.n_tiles)), k.const(t.bn))}

    def last_origin(self) -> dict[str, ir.Value]:
        """The origin of this workgroup's last tile (where the maps are published)."""
        return self.origin(arith.subi(self.count, self.em.k.const(1)))

    def of_iteration(self, it: ir.Value) -> tuple[ir.Value, ir.Value]:
        """(j, K tile) of pipeline iteration `it`."""
        steps = self.em.k.const(self.em.n_steps)
        return arith.divui(it, steps), arith.remui(it, steps)

    def at(self, ahead: int) -> tuple[dict[str, ir.Value], ir.Value]:
        """(origin, K tile) of the iteration `ahead` steps past the step being emitted
        (`Emitter.pipeline_tile`): those of the tile it falls in, from the current tile and K
        step; past the walk's last tile, its last tile's origin and K tile `n_steps`, a tile
        past K (its copies read nothing, register reads of it are clamped to the last K tile:
        `Emitter.k0`)."""
        em, k = self.em, self.em.k
        step = em.offset(self.s, ahead)
        steps = k.const(em.n_steps)
        j = arith.addi(self.j, arith.divui(step, steps))
        live = arith.cmpi(arith.CmpIPredicate.ult, j, self.count)
        j = arith.select(live, j, arith.subi(self.count, k.const(1)))
        k_tile = arith.select(live, arith.remui(step, steps), steps)
        return self.origin(j), k_tile

    def lds_tile(self, ahead: int) -> ir.Value:
        """The LDS tile of the iteration `ahead` (below S) steps past the step being emitted:
        its own count mod S, carried by the loops (the iteration mod S, in 64 bits where LLVM
        sees no bound on the walk's iterations, made it distribute the remainder over every
        copy's LDS address)."""
        k, stages = self.em.k, self.em.pl.stages
        if ahead == 0:
            return self.stage
        x = arith.addi(self.stage, k.const(ahead))
        wraps = arith.cmpi(arith.CmpIPredicate.uge, x, k.const(stages))
        return arith.select(wraps, arith.subi(x, k.const(stages)), x)

    def loops(self, acc0: list[ir.Value]) -> None:
        """For each of this workgroup's tiles, the K loop from `acc0` (its step kt the walk's
        iteration j * n_steps + kt, which the copies count: the last steps' start the next
        tile's first K tiles), then its products finished and the tile stored at its origin.
        The fragments a step carries into the next (`Emitter.carried_fragments`) cross from one
        tile's loop into the next's, and so does the LDS tile of the step (`lds_tile`) where
        the copies and reads take their place from the walk (`at`: all but the wgmma scheme's
        TMA copies, which count the iterations on their own)."""
        em, k = self.em, self.em.k
        n, own, plain = len(acc0), em.WALK_ITERATIONS, em.origin
        tiles = scf.ForOp(k.const(0), self.count, k.const(1),
                          em.carried_fragments(k.const(0)) + ([] if own else [k.const(0)]))  # + the LDS tile
        with ir.InsertionPoint(tiles.body):
            self.j = tiles.induction_variable
            self.first = arith.muli(self.j, k.const(em.n_steps))
            steps = scf.ForOp(k.const(0), k.const(em.n_steps), k.const(1), acc0 + list(tiles.inner_iter_args))
            with ir.InsertionPoint(steps.body):
                args = list(steps.inner_iter_args)
                self.s = steps.induction_variable
                if not own:
                    self.stage = args.pop()
                out = em._k_step(arith.addi(self.first, self.s), args[:n], args[n:])
                scf.yield_(out + ([] if own else [self.lds_tile(1)]))
            state = list(steps.results)
            acc = em.finish_products(state[:n])
            em.origin = self.origin(self.j)  # the writer stores at em.origin
            em.last_tile = arith.cmpi(arith.CmpIPredicate.eq, self.j, arith.subi(self.count, k.const(1)))
            em.store(acc)
            scf.yield_(state[n:])
        # values of the loop's body: nothing after it may use them
        em.origin, em.last_tile = plain, None
        self.j = self.first = self.s = self.stage = k.const(0)
