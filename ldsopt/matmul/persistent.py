"""The persistent wgmma kernel's walk over the output tiles (ldsopt-matmul-lds, `persistent=auto` by default).

One workgroup an SM: G = min(T, SMs) workgroups, workgroup w taking tiles w, w + G, w + 2G, ...
of the plain grid's T tiles, in the order that grid launches them (N tiles fastest), so that
the G tiles in flight at a time are the ones a wave of the plain grid would run. Its K pipeline
runs over the concatenation of its tiles' K steps (iteration i: tile i / steps, K tile i %
steps), one mbarrier phase an iteration, so the copies of the next tile's first K tiles are in
flight while a tile's epilogue stores it: each tile's pipeline fill after the first overlaps
the stores of the one before, which a plain grid serializes on each SM (one workgroup an SM at
the wgmma plans' LDS). The tensor maps are built once and published in the output rows of the
workgroup's last tile, which nothing stores before its last TMA copy has landed.

Refused (`refusal`; the kernel stays a plain grid and the dispatch says why): operands not
copied by TMA (so K is static: the walk counts iterations at compile time), a multicast or a K
split (their clusters), row sums of A (the fold's, which the K loop carries), a batch of more
than one, and no more tiles than SMs (nothing to walk).
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith

# The function attribute saying why a kernel asked to be persistent is a plain grid.
PERSISTENT_REFUSED = "ldsopt.persistent_refused"


def refusal(em, compute_units: int | None) -> str | None:
    """Why the wgmma kernel `em` cannot walk its tiles persistently (None: it can)."""
    pl, p = em.pl, em.p
    if not em.by_tma:
        return "its operands are not copied by TMA"
    if em.multicast.shared or pl.split > 1:
        return "it runs in clusters (a multicast or a K split)"
    if em.row_stats is not None or em.p.chunk_stats:
        return "it sums A's rows or its output's chunks (ldsopt-fold-norm's forms)"
    if p.sizes.get("b", 1) > 1:
        return "its batch has more than one matrix"
    if not compute_units or math.prod(pl.grid(p.sizes)) <= compute_units:
        return "it has no more tiles than SMs"
    return None


class TileWalk:
    """The tiles of workgroup w (module doc): `count` of them, the origin of its j-th."""

    def __init__(self, em, compute_units: int):
        self.em = em
        self.n_tiles, m_tiles, _ = em.pl.grid(em.p.sizes)
        self.tiles = self.n_tiles * m_tiles
        self.workgroups = min(self.tiles, compute_units)

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
