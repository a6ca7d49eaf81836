"""Statistics per chunk of columns of the matmul's output, made by its kernel from the output
tile it stages in LDS, or else from the values its threads store, and stored as further results
of its dispatch (`ChunkStats`).

What this is for: a norm of the rows that a product's epilogue makes (GPT-2's and Llama's
h = x + attn @ Wo + b, before the norm of the next sublayer) needs every column of a row, which
no workgroup holds. Each workgroup holds whole chunks of W columns of its rows; their sums,
shifted by the chunk's first element so that a sum of squares does not cancel, are all the
product after the norm needs to recover the rows' statistics (row_stats.py's loaded row
values combine them), so the norm needs no dispatch of its own.

Matched (`split`, `match`): in a matmul dispatch with a fused consumer whose (first) result h
[M, N] is stored, one more `linalg.generic` that
- reads only h, over its loops (b.., m, n) with n reduced (the batch's loops leading, as h's),
  each input at (b.., m, n) (`ELEMENT`) or at (b.., m, (n floordiv W) * W) (`FIRST`: the
  chunk's first element), W dividing N (h is not reshaped into chunks: IREE's CUDA
  configuration would carry such a reshape into the product and its operands);
- reduces n into each of its results, f32 [b.., M, N / W] at (b.., m, n floordiv W), each
  started from a fill of 0 and combined by `arith.addf` of its output block argument and a
  value the body computes from its inputs by arith / math ops (row_stats.py's sums, over a
  chunk of a row);
- whose results are stored whole.
Refused (`refusal`): a dynamic extent, a convolution, the copy engine's stores, tiles whose
columns are not whole chunks (W must divide BN), and, without an output stage (a K split over a
cluster, whose summing warps store the tile; `output-lds=false`; a stage past the LDS budget),
a consumer of several results or a layout whose lanes do not hold a row's chunk within one
subgroup (`_lanes`: a chunk of 64 over lavapipe's FMA tiles). Planned (`whole_chunks`,
`reserved`): among the tilings whose BN W divides, each plan leaving the LDS of its stage.

Emitted from the stage (`emit`, after the output stage's barrier, before its copy out): thread t takes the
(row, chunk) pairs t, t + threads, ... of its tile, reads the chunk's W elements from the stage
in vectors of V (the stage's copy width where it divides W, at most the target's widest
vector: the partials are f32), applies the body to vector
partial sums, adds their lanes and stores each result at (m, N tile's first chunk + chunk);
rows past M and chunks past N (a last N tile's) are skipped. From the registers
(`emit_registers`, after the stores): each thread applies the body to the pieces it stored of
each (row, chunk) it holds (zeros past M and N, whose sums nobody stores), the chunk's first
element shuffled from the chunk's first lane, the chunk's lanes add their sums by a butterfly
(`gpu.shuffle xor`; the wgmma and mma.sync C layouts' quads) and its first lane stores them.
The sums are the program's reassociated, as any parallel reduction.
"""

from __future__ import annotations

import dataclasses
import math
import re

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf, vector

from ldsopt.codegen.dispatch import Binding, Graph
from ldsopt.codegen.elementwise import clone_body
from ldsopt.codegen.kernel import read_vector
from ldsopt.ir_types import element_bits
from ldsopt.matmul import row_stats
from ldsopt.remarks import Unmatched

ELEMENT, FIRST = "element", "first"


@dataclasses.dataclass
class ChunkStats:
    """The matched chunk statistics: the generic, per input ELEMENT or FIRST, the chunk width
    W and each result's binding."""

    op: ir.Operation
    reads: list[str]
    width: int
    outputs: list[Binding]


_CHUNK = re.compile(r"d(\d+) floordiv (\d+)")
_HEAD = re.compile(r"\(d(\d+) floordiv (\d+)\) \* (\d+)")


def split(ops: list[ir.Operation]) -> tuple[list[ir.Operation], ir.Operation | None]:
    """`ops` without the chunk statistics (`_candidate`: exactly one), and their op (else None)."""
    made = {v for op in ops for v in op.results}
    found = [op for op in ops if _candidate(op) and op.operands[0] in made]
    return ([op for op in ops if op != found[0]], found[0]) if len(found) == 1 else (ops, None)


def without_stores(g: Graph, op: ir.Operation | None) -> Graph:
    """Graph `g` less the stores of `op`'s results (the statistics', which the consumer's
    matcher does not count as its own)."""
    mine = list(op.results) if op is not None else []
    return dataclasses.replace(g, stores=[s for s in g.stores if s[0] not in mine])


def _leading(rank: int) -> list[str]:
    """The leading loops (b.., m) of a generic of `rank` loops, as its maps print them."""
    return [f"d{i}" for i in range(rank - 1)]


def _candidate(op: ir.Operation) -> bool:
    """A generic over (b.., m, n), n reduced, whose inputs are all one value and whose results
    are read at (b.., m, n floordiv W)."""
    if op.name != "linalg.generic" or not op.operands:
        return False
    its = [str(it) for it in op.attributes["iterator_types"]]
    n_in = len(op.operands) - len(op.results)
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    rank = len(its)
    return rank >= 2 and ["reduction" in it for it in its] == [False] * (rank - 1) + [True] and n_in > 0 and \
        all(v == op.operands[0] for v in list(op.operands)[:n_in]) and \
        all([str(e) for e in m.results][:-1] == _leading(rank) and _chunk_of(str(m.results[-1]), rank)
            for m in maps[n_in:])


def _chunk_of(expr: str, rank: int) -> int | None:
    """W where `expr` is `n floordiv W` (n the last of `rank` loops)."""
    m = _CHUNK.fullmatch(expr)
    return int(m.group(2)) if m and int(m.group(1)) == rank - 1 else None


def match(op: ir.Operation, h: ir.Value, stores: dict) -> ChunkStats | Unmatched:
    """`op` (split's) as chunk statistics of `h`, the consumer's result (module doc); `stores`
    maps each stored value to its binding."""
    why = "statistics per chunk of the matmul's output fused into its dispatch"
    if op.operands[0] != h:
        return Unmatched(f"{why}: they read another value than the consumer's result")
    n_in = len(op.operands) - len(op.results)
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    rank = maps[0].n_dims
    width = {_chunk_of(str(m.results[-1]), rank) for m in maps[n_in:]}
    reads = []
    for m in maps[:n_in]:
        exprs = [str(e) for e in m.results]
        head = _HEAD.fullmatch(exprs[-1]) if exprs[:-1] == _leading(rank) else None
        if exprs == _leading(rank) + [f"d{rank - 1}"]:
            reads.append(ELEMENT)
        elif head and int(head.group(1)) == rank - 1 and head.group(2) == head.group(3):
            reads.append(FIRST)
            width.add(int(head.group(2)))
        else:
            return Unmatched(f"{why}: reads h through {m}; takes (b.., m, n) or (b.., m, (n floordiv W) * W)")
    n = ir.RankedTensorType(h.type).shape[-1]
    if len(width) != 1 or n % min(width) or ELEMENT not in reads:
        return Unmatched(f"{why}: not every element of chunks of one width dividing {n}")
    refused = row_stats.sums_refusal(op, why)
    if refused is not None:
        return refused
    if any(r not in stores for r in op.results):
        return Unmatched(f"{why}: a result is not stored whole")
    return ChunkStats(op, reads, width.pop(), [stores[r] for r in op.results])


def whole_chunks(p, t) -> bool:
    """Whether tiling `t`'s tiles hold whole chunks of problem `p`'s statistics (True without)."""
    return not p.chunk_stats or t.bn % p.chunk_stats.width == 0


def reserved(p, t) -> int:
    """LDS bytes that planning tiling `t` for problem `p` leaves the output stage that chunk
    statistics are made from (0 without them)."""
    return t.bm * t.bn * element_bits(p.output.tensor_type.element_type) // 8 if p.chunk_stats else 0


def refusal(em) -> str | None:
    """Why kernel `em` (its output stage and TMA stores planned) cannot make its problem's chunk
    statistics (None where it can): from its staged tile, else from its registers (`_lanes`)."""
    p, pl = em.p, em.pl
    why = "statistics per chunk of the output"
    if p.dynamic or p.view is not None:
        return f"{why} of a dynamic or convolution product"
    if pl.tiling.bn % p.chunk_stats.width:
        return f"{why}: the {pl.tiling.bn}-column tile holds no whole chunks of {p.chunk_stats.width}"
    if em.tma_store is not None:
        return f"{why} through the copy engine's stores' stage"
    lanes = None if em.output_stage is not None else _lanes(em)
    return lanes if isinstance(lanes, str) else None


def _lanes(em) -> int | str:
    """Where the output is not staged: the lane bits that tell apart the lanes of a subgroup
    holding one chunk of one of their rows (their mask), or why the registers cannot make the
    chunks' sums. It takes, on the first subgroup's lanes (`lane_output`) and the pieces each
    stores (`output_pieces`, offsets from the lane's output origin): the lanes holding a (row,
    chunk) are those equal but for the mask's bits (a butterfly sums over them), together
    they hold the chunk's W columns, and every piece lies in one chunk, the same number of
    chunks after its lane's own on every lane (its slot), and its group's first lane (the
    leader) holds the chunk's first column first among its pieces of the slot."""
    sg, w = em.k.target.subgroup_size, em.p.chunk_stats.width
    at = [em.lane_output(lane) for lane in range(sg)]
    pieces = [(dm, dn, width) for _, _, width, dm, dn in em.output_pieces()]
    why = (f"statistics per chunk of the output need the output tile staged in LDS, or each chunk of "
           f"{w} columns of a row in the registers of lanes of one subgroup")
    if em.p.epilogue.extra:
        return f"{why}, and a consumer of one result"
    for dm, dn, width in pieces:
        spans = {(_slot(c, dn, w), _slot(c, dn + width - 1, w)) for _, c in at}
        if len(spans) != 1 or len(set(*spans)) != 1:  # one slot on every lane, one chunk a piece
            return why
    key = [(r, c // w) for r, c in at]
    mask = 0
    for a in range(sg):
        for b in range(sg):
            mask |= a ^ b if key[a] == key[b] else 0
    if any((key[a] == key[b]) != (a & ~mask == b & ~mask) for a in range(sg) for b in range(sg)):
        return why
    for (dm, s), mine in _by_slot(at[0][1], w, pieces).items():
        for leader in (lane for lane in range(sg) if not lane & mask):
            first = (at[leader][1] // w + s) * w
            cols = {at[lane][1] + dn + e for lane in range(sg) if lane & ~mask == leader
                    for dn, width in mine for e in range(width)}
            if at[leader][1] + mine[0][0] != first or cols != set(range(first, first + w)):
                return why
    return mask


def _slot(c: int, dn: int, w: int) -> int:
    """The chunk of the piece at `dn` from a lane whose output starts at column `c`, counted from
    the lane's own."""
    return (c + dn) // w - c // w


def _by_slot(c: int, w: int, pieces: list[tuple]) -> dict[tuple[int, int], list[tuple]]:
    """A lane's pieces (dm, dn, x), its output starting at column `c`, grouped by (dm, slot),
    each group's (dn, x) in order of dn."""
    groups: dict[tuple[int, int], list[tuple]] = {}
    for dm, dn, x in sorted(pieces, key=lambda piece: piece[:2]):
        groups.setdefault((dm, _slot(c, dn, w)), []).append((dn, x))
    return groups


def emit(em) -> None:
    """The chunk statistics of emitter `em`'s output tile, from its output stage (module doc);
    at the point after the stage's barrier."""
    k, t, stats = em.k, em.pl.tiling, em.p.chunk_stats
    st, w = em.output_stage, stats.width
    v = math.gcd(w, st.vec, em.k.target.max_vector_elems or st.vec)  # f32 partials: SPIR-V's vectors of 4
    elem = ir.MemRefType(em.out.type).element_type
    f32 = ir.F32Type.get()
    per_row = t.bn // w
    pairs = t.bm * per_row
    mems = [b.memref() for b in stats.outputs]
    first_chunk = arith.divui(em.origin["n"], k.const(w))
    zero = vector.broadcast(ir.VectorType.get([v], f32), k.const(0.0, f32))
    for first in range(0, pairs, t.threads):
        pair = em.offset(em.tid, first)
        row, chunk = arith.divui(pair, k.const(per_row)), arith.remui(pair, k.const(per_row))
        m, c = arith.addi(em.origin["m"], row), arith.addi(first_chunk, chunk)
        ragged = [(m, em.p.extent("m")), (c, em.p.sizes["n"] // w)] + \
            ([(pair, pairs)] if first + t.threads > pairs else [])
        with em.guard(ragged):
            col0 = arith.muli(chunk, k.const(w))
            head = None
            if FIRST in stats.reads:
                one = read_vector(ir.VectorType.get([1], elem), em.out_lds, em.writer.stage_indices(row, col0))
                head = vector.broadcast(ir.VectorType.get([v], elem), vector.extract(one, [], [0]))
            loop = scf.ForOp(k.const(0), k.const(w // v), k.const(1), [zero] * len(stats.outputs))
            with ir.InsertionPoint(loop.body):
                col = arith.addi(col0, arith.muli(loop.induction_variable, k.const(v)))
                x = read_vector(ir.VectorType.get([v], elem), em.out_lds, em.writer.stage_indices(row, col),
                                em.writer.stage_align(v))
                args = [x if r == ELEMENT else head for r in stats.reads] + list(loop.inner_iter_args)
                scf.yield_(clone_body(stats.op, args, v))
            at = [*em.batch, m, c]
            for mem, partial in zip(mems, loop.results):
                memref.store(row_stats.sum_lanes(partial), mem, at)


def emit_registers(em, kept: list[tuple[ir.Value, int, int]]) -> None:
    """The chunk statistics of emitter `em`'s output tile from the values its threads store,
    where it has no output stage (`kept`: each piece's stored vector and its (dm, dn) from
    the thread's output origin): each thread applies the body to its pieces of each (row,
    slot) (`_lanes`), the lanes holding a chunk add their sums by a butterfly, the chunk's
    first element broadcast from its leader (a shuffle) where the body reads it, and the
    leader stores them (rows past M, chunks past N skipped). Every lane of a subgroup runs it."""
    k, stats = em.k, em.p.chunk_stats
    w, mask, f32 = stats.width, _lanes(em), ir.F32Type.get()
    slots = _by_slot(em.lane_output(0)[1], w, [(dm, dn, value) for value, dm, dn in kept])
    lane = arith.remui(em.tid, k.const(k.target.subgroup_size))
    leader = arith.andi(lane, k.const(k.target.subgroup_size - 1 & ~mask))
    offsets = [1 << b for b in range(mask.bit_length()) if mask >> b & 1]
    m0, n0 = em.output_origin()
    mems = [b.memref() for b in stats.outputs]
    for (dm, _), pieces in slots.items():
        head = None
        if FIRST in stats.reads:
            head = k.shuffle_from(vector.extract(pieces[0][1], [], [0]), leader)
        totals = None
        for _, value in pieces:
            width = ir.VectorType(value.type).shape[0]
            zero = vector.broadcast(ir.VectorType.get([width], f32), k.const(0.0, f32))
            args = [value if r == ELEMENT else vector.broadcast(value.type, head) for r in stats.reads]
            sums = [row_stats.sum_lanes(v) for v in clone_body(stats.op, args + [zero] * len(mems), width)]
            totals = sums if totals is None else [arith.addf(t, x) for t, x in zip(totals, sums)]
        totals = [k.butterfly(t, offsets, arith.addf) for t in totals]
        m, c = em.offset(m0, dm), arith.divui(em.offset(n0, pieces[0][0]), k.const(w))
        with em.guard([(arith.andi(lane, k.const(mask)), 1), (m, em.p.extent("m")), (c, em.p.sizes["n"] // w)]):
            for mem, total in zip(mems, totals):
                memref.store(total, mem, [*em.batch, m, c])
