"""Direct output stores widened to 16 bytes across each quad of lanes (`QuadStores`), for the
matmul kernels whose output leaves without the LDS output stage (output.py).

Why. In the C layout of mma.sync m16n8 and of wgmma (which repeats it along N), lanes 4r to
4r + 3 hold the same rows, lane q the 2-element piece at column 2q of every 8-column block. Stored
as it is held, a warp's store instruction writes 8 rows of 16 bytes (f32) or 8 bytes (16-bit):
a quarter or half of each row's 32-byte sector, so a 16-bit output takes as many store
instructions as an f32 one for half the bytes.

What. For a 16-bit output, the pieces of G = 4 consecutive 8-column blocks of one row, their
final values computed as before (the init added, the epilogue applied, in the output's type),
are exchanged among the quad's lanes: flat slot f = 4j + q (block j, lane q; columns 2f) goes to
lane f / G, which then holds G slots in a row, 16 bytes, and writes them with one store: the
quad writes 64 contiguous bytes of its row. The exchange is 4 rounds of a shuffle by lane xor x
(x = 0 keeps the lane's own), each 32-bit word of a piece a shuffle; which piece a lane sends and
which slot it fills depend on its q, chosen by selects. An f32 output's pieces already fill
each row's sector (4 lanes of 8 bytes); widened too (G = 2, `rounds(2)`) they measured slower
on the H100, so they stay (bench/results/cuda-matmul/quad-stores/).

Matched (`plan`): CUDA; a 16-bit output; no output stage; M and N divided by the tiles (no
guard may split a quad); every piece 2 elements, in blocks 8 columns apart, in whole runs of G
blocks; lane l's output at column 2 (l % 4) of its quad's row (`Emitter.lane_output`); the
output's rows aligned to 16 bytes; an epilogue's result stored along N. Else the pieces are
stored as they are held.
"""

from __future__ import annotations

import dataclasses
import functools

from iree.compiler import ir
from iree.compiler.dialects import arith, vector

from ldsopt.ir_types import element_bits

STORE_BYTES = 16  # one lane's widened store
QUAD = 4          # lanes that share a row of the C layout
PIECE = 2         # elements of a lane's piece in a block
WIDENED_BYTES = 2  # the output elements whose pieces widen (module doc)


@dataclasses.dataclass(frozen=True)
class Group:
    """G pieces of one row (`dm`) in consecutive blocks from column `dn` (offsets from the
    lane's output origin), each (accumulator, first element of its flat vector)."""
    dm: int
    dn: int
    pieces: tuple[tuple[int, int], ...]


def plan(em, out_bytes: int, row_align: int) -> list[Group] | None:
    """The groups of the kernel `em`'s pieces where its stores widen (module doc), else None;
    `out_bytes`: an output element's, `row_align`: the alignment a 16-byte store of a row can
    state (OutputWriter.global_align)."""
    if em.k.target.backend != "cuda" or em.output_stage is not None or out_bytes != WIDENED_BYTES:
        return None
    t = em.pl.tiling
    if any(em.p.ragged(dim, tile) for dim, tile in (("m", t.bm), ("n", t.bn))) or row_align < STORE_BYTES:
        return None
    if em.p.epilogue and (em.p.epilogue.out_dims[-1] != len(em.output_groups()) - 1 or em.p.epilogue.extra):
        return None
    for lane in range(em.k.target.subgroup_size):
        row, col = em.lane_output(lane - lane % QUAD)
        if em.lane_output(lane) != (row, col + PIECE * (lane % QUAD)):
            return None
    g = STORE_BYTES // (PIECE * out_bytes)
    rows: dict[int, dict[int, tuple[int, int]]] = {}
    for i, first, width, dm, dn in em.output_pieces():
        if width != PIECE or dn % (PIECE * QUAD):
            return None
        rows.setdefault(dm, {})[dn] = (i, first)
    block = PIECE * QUAD
    groups = []
    for dm, by_dn in rows.items():
        starts = sorted(dn for dn in by_dn if dn % (block * g) == 0)
        if len(starts) * g != len(by_dn):
            return None
        for dn in starts:
            if any(dn + block * j not in by_dn for j in range(g)):
                return None
            groups.append(Group(dm, dn, tuple(by_dn[dn + block * j] for j in range(g))))
    return groups


@functools.cache
def rounds(g: int) -> tuple[tuple[int, tuple[int | None, ...], tuple[int | None, ...]], ...]:
    """For each xor x of the exchange: (x, the block lane q sends, by q, the slot it fills with
    what it receives, by q); None where the pair has nothing to exchange. Slot f = 4j + q of
    the group goes to lane f // g, as its slot f % g."""
    out = []
    for x in range(QUAD):
        send, fill = [], []
        for q in range(QUAD):
            d = q ^ x  # the lane this one sends to and receives from
            send.append(next((f // QUAD for f in range(g * d, g * d + g) if f % QUAD == q), None))
            fill.append(next((f - g * q for f in range(g * q, g * q + g) if f % QUAD == d), None))
        out.append((x, tuple(send), tuple(fill)))
    return tuple(out)


class QuadStores:
    """The exchange of one kernel's groups of G pieces (`exchange`) and where each lane's 16
    bytes of a group go (`column`)."""

    def __init__(self, em, g: int):
        self.em, self.g = em, g
        k = em.k
        q = arith.remui(em.tid, k.const(QUAD))
        self.is_q = [arith.cmpi(arith.CmpIPredicate.eq, q, k.const(j)) for j in range(QUAD)]
        self.q = q

    def _pick(self, by_q: list[ir.Value]) -> ir.Value:
        """by_q[q] on lane q (selects, skipping the values equal to the fallback)."""
        value = by_q[-1]
        for j in range(QUAD - 2, -1, -1):
            if by_q[j] is not value:
                value = arith.select(self.is_q[j], by_q[j], value)
        return value

    def _words(self, piece: ir.Value) -> list[ir.Value]:
        i32 = ir.IntegerType.get_signless(32)
        n = element_bits(ir.VectorType(piece.type).element_type) * PIECE // 32
        as_words = vector.bitcast(ir.VectorType.get([n], i32), piece)
        return [vector.extract(as_words, [], [w]) for w in range(n)]

    def exchange(self, pieces: list[ir.Value]) -> ir.Value:
        """This lane's 16 bytes of the group whose pieces (in block order) it holds `pieces`.
        Each lane fills each of its slots in exactly one round: the first round to fill a slot
        sets it on every lane, the later ones select it on theirs."""
        k, g = self.em.k, self.g
        words = [self._words(p) for p in pieces]
        per = len(words[0])
        slots: list[list[ir.Value | None]] = [[None] * per for _ in range(g)]
        for x, send, fill in rounds(g):
            for w in range(per):
                sent = self._pick([words[b if b is not None else 0][w] for b in send])
                got = sent if x == 0 else k.shuffle_xor(sent, x)
                for s in range(g):
                    lanes = [q for q in range(QUAD) if fill[q] == s]
                    if lanes:
                        slots[s][w] = got if slots[s][w] is None else self._fill(lanes, got, slots[s][w])
        elem = ir.VectorType(pieces[0].type).element_type
        flat = vector.from_elements(ir.VectorType.get([g * per], ir.IntegerType.get_signless(32)),
                                    [x for slot in slots for x in slot])
        return vector.bitcast(ir.VectorType.get([g * PIECE], elem), flat)

    def _fill(self, lanes: list[int], got: ir.Value, before: ir.Value) -> ir.Value:
        """`got` on the lanes of `lanes`, `before` on the others."""
        if len(lanes) == QUAD:
            return got
        cond = self.is_q[lanes[0]]
        for q in lanes[1:]:
            cond = arith.ori(cond, self.is_q[q])
        return arith.select(cond, got, before)

    def quad_origin(self, n: ir.Value) -> ir.Value:
        """The quad's column from this lane's output column `n` (its own q pieces removed)."""
        return arith.subi(n, arith.muli(self.q, self.em.k.const(PIECE)))

    def column(self, origin: ir.Value, dn: int) -> ir.Value:
        """This lane's column of the 16 bytes of the group at `dn` from its quad's column
        `origin` (`quad_origin`): G q pieces into the group."""
        return arith.addi(self.em.offset(origin, dn), arith.muli(self.q, self.em.k.const(self.g * PIECE)))
