"""Row sums of the matmul's A operand fused into its dispatch (`RowStats`), computed by the
kernel from the A tiles it stages in LDS (`RowStatsKernel`) and read by its fused consumer.

What this is for: a normalization before a product with constant weights, LayerNorm(x) @ W =
r * (x @ (gamma W) - mean * gamma W) + beta W per row (r = 1 / sqrt(var + eps)), needs only the
rows' sums of x beside the product of x itself. The workgroup of an M tile reads every K of
its rows anyway; summing them as they pass through LDS saves the normalization's own
dispatch and its write and read of the normalized rows.

Matched (`match`): in a matmul dispatch, one `linalg.generic` beside the contraction that
- reads only the contraction's A operand (the same loaded tensor, stored (b?, m, k) with K
  contiguous and no fused producer), each input through the identity of its loops, the
  reduced one last (`ELEMENT`), or with that loop at 0 (`FIRST`: the row's first element, a
  shift that keeps a sum of squares from cancelling);
- reduces that last loop into each of its results, f32 over (b?, m), each started from a
  `linalg.fill` of 0.0 and combined by `arith.addf` of its output block argument and a
  value the body computes from its inputs by arith / math ops;
- whose results only the contraction's fused consumer reads (through (b?, m): a value per
  row, `RowValue` in its inputs).
Anything else is left to the matcher's other rules (`candidate` is the shape test).

Emitted (`RowStatsKernel`): K steps of BK, threads in groups of q consecutive lanes per row
(q divides the BK / V vectors of V elements of a row, q threads of a group a vector apart),
several rows per thread where the tile has more rows than threads / q. In each K step (its A
tile in LDS until a later step's copies overwrite it): first, or where the scheme's products
run asynchronously (`Emitter.ROW_SUMS_LAST`, wgmma) last, after them and the next tile's
copies, so that the sums run under both instead of delaying the copies; each thread reads its
vectors of its rows from the LDS tile (`Emitter.lds_read`: any layout whose rows hold the
tile's rows, swizzles within a row included) and applies the body to them with the vector
partial sums the K loop carries as its outputs' block arguments (the body adds to them), the
lanes past K keeping their sums. After the loop: each partial summed across its
vector and its group (`Kernel.butterfly`), the group's first lane writes the row's sums into
an LDS array [results, BM], and a barrier publishes it to the output, which reads row m's at
m % BM. The sums are the program's reassociated, as any parallel reduction.

Row values from loaded tensors (`RowStats.loaded`): where the generic's inputs are not A alone
but loaded tensors (A among them or not), read through any maps that are sums of its loops
times constants (`(m, c) -> (m, c * 64)`), it reduces a short loop of a few values a row
(statistics per chunk of a row's columns, made where the rows were produced, combined into the
rows' sums). The kernel computes them once before its K loop, once its first copies are
issued (their latency hides the loads'): q lanes a row (as many as one pass over the tile's
rows leaves each), each walking every q-th step of the reduced loop, loading each input's
element and applying the body to its running sums (a short loop unrolled, every row's loads
issued first); a butterfly adds the lanes' sums, and the row's first lane writes its results
into the same LDS array, which the barrier after the loop publishes. Matched where every
result is read only by the fused consumer, along its rows (through (b?, m):
what tells them from a contraction written as a generic); refused where the reduced loop's
extent is not static.

Finished per row (`RowStats.finish`): the sums may be read through one all-parallel generic
over their own loops (b?, m) that computes the consumer's row values from them (a norm's mean
and its scale, where the consumer would otherwise redo that per element), reading only the
sums through the identity, its results f32 and read only by the consumer along rows. The
kernel applies its body to each row's finished sums before writing them to the LDS array,
which then holds its results in place of the sums.

Shared over a cluster (`MatmulPlan.row_share` = C > 1, the wgmma scheme on sm_90a, opt-in by
`row-sums-cluster`, `shared_by`): every workgroup of a row band sums the same rows, so the C
workgroups of a cluster along N (C consecutive N tiles of one band) share the work: the
workgroup of cluster rank r sums the K steps kt with kt % C == r alone. After the loop each writes its partial
sums into its LDS array, a cluster barrier publishes them, each thread adds its entries of
the C arrays (distributed shared memory, `cluster.load_remote`, in rank order, so that every
workgroup of the cluster gets the same bits), a second cluster barrier tells every workgroup
that the others are done reading its array, and the totals replace its partial sums there.
Refused (C = 1): a dynamic N (its tiles' count is not known to divide into clusters), a K
split over a cluster, a multicast (options.py: both take the cluster), a finish (a row's sums
are added up over the cluster entry by entry, not row by row).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf, vector
import numpy as np

from ldsopt.codegen import cluster
from ldsopt.codegen.elementwise import clone_body, dim_sums
from ldsopt.codegen.kernel import lds_alloc, read_vector
from ldsopt.ir_types import element_bits, fill_constant, producer
from ldsopt.remarks import Unmatched

ELEMENT, FIRST = "element", "first"
MOST_ROWS = 256  # the tallest tile of any scheme (its LDS reserved before planning)
# Loaded row values: the most steps of their reduced loop that are unrolled, so that a row's
# loads are all in flight at once; in an scf.for each step waits for its own loads
# (bench/results/cuda-models/s32-row-inputs/ measured what that cost).
UNROLLED = 32


@dataclasses.dataclass
class RowStats:
    """The matched row sums of A: the generic and, per input, how it reads A; or the row values
    it computes from loaded tensors (`loaded`, module doc)."""

    op: ir.Operation
    reads: list[str]  # per input: ELEMENT (at (b?, m, k)) or FIRST (at (b?, m, 0)); [] where loaded
    loaded: list | None = None  # per input: its Binding, and its map's `dim_sums`
    extent: int = 0  # loaded: the reduced loop's extent
    finish: ir.Operation | None = None  # the generic making the row values from the sums (module doc)

    @property
    def results(self) -> int:
        """The sums' count."""
        return len(self.op.results)

    @property
    def values(self) -> list[ir.Value]:
        """The row values the consumer reads: the finish's results, else the sums."""
        return list((self.finish or self.op).results)


@dataclasses.dataclass
class RowValue:
    """An input of the fused consumer that the kernel computes: result `result` of the row
    sums, one f32 per row."""

    stats: RowStats
    result: int

    @property
    def tensor_type(self) -> ir.RankedTensorType:
        return ir.RankedTensorType(self.stats.values[self.result].type)


def candidate(op: ir.Operation, binding_of) -> bool:
    """Whether `op` has the shape of row sums: a generic with one reduced loop, the last one,
    whose results drop that loop, and whose inputs are either one value, read through the
    loops' identity or with the last at a constant, or loaded tensors (`binding_of` gives
    their Binding) whose every use is a read along rows (`_read_per_row`)."""
    if op.name != "linalg.generic" or len(op.results) < 1:
        return False
    its = [str(it) for it in op.attributes["iterator_types"]]
    n_in = len(op.operands) - len(op.results)
    inputs = list(op.operands)[:n_in]
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    loops = list(range(len(its)))
    if not inputs or ["reduction" in it for it in its] != [False] * (len(its) - 1) + [True] or \
            any(_dims(list(m.results)) != loops[:-1] for m in maps[n_in:]):
        return False
    if all(v == inputs[0] for v in inputs) and any(_dims(list(m.results)) == loops for m in maps[:n_in]):
        return True
    return all(binding_of(v) is not None for v in inputs) and _read_per_row(op)


def _read_per_row(op: ir.Operation) -> bool:
    """Every use of `op`'s results (or of a finish's, `finishes`, of them) is a generic's input
    read through fewer dims than its loops (a value per row broadcast along N), never through
    their identity as a contraction's result is."""
    for r in op.results:
        for u in r.uses:
            user = u.owner
            if finishes(user.operation, op):
                if not _read_per_row(user.operation):
                    return False
                continue
            if user.name != "linalg.generic":
                return False
            m = ir.AffineMapAttr(user.attributes["indexing_maps"][u.operand_number]).value
            if len(m.results) >= m.n_dims:
                return False
    return any(True for r in op.results for _ in r.uses)


def finishes(op: ir.Operation, sums: ir.Operation) -> bool:
    """Whether `op` is a finish of row sums `sums` (module doc): an all-parallel generic over the
    sums' loops reading only them through the identity, into f32 results through the identity
    whose initial values it does not read, its body arith/math ops."""
    if op.name != "linalg.generic" or op == sums:
        return False
    rank = ir.RankedTensorType(sums.results[0].type).rank
    its = [str(it) for it in op.attributes["iterator_types"]]
    n_in = len(op.operands) - len(op.results)
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    block = op.regions[0].blocks[0]
    return len(its) == rank and all("parallel" in it for it in its) and n_in > 0 and \
        all(v in list(sums.results) for v in list(op.operands)[:n_in]) and \
        all(m == ir.AffineMap.get_identity(rank) for m in maps) and \
        all(str(ir.RankedTensorType(r.type).element_type) == "f32" for r in op.results) and \
        not any(True for a in list(block.arguments)[n_in:] for _ in a.uses) and \
        _scalar_body(op)


def match(op: ir.Operation, consumer: ir.Operation | None, binding_of, operands: list[ir.Value],
          finish: ir.Operation | None = None) -> RowStats | Unmatched:
    """`op` (a `candidate`) as row sums read only by `consumer`, or by `finish` (a `finishes`
    of them) whose results only `consumer` reads (module doc); that it reads the contraction's
    A operand (one of its `operands`) is for the contraction's matcher to check. Where its
    inputs are not one of those, as row values from the loaded tensors `binding_of` gives
    (`_match_loaded`)."""
    why = "row sums of A fused into the matmul's dispatch"
    n_in = len(op.operands) - len(op.results)
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    loops = list(range(maps[0].n_dims))
    refused = _sums_refusal(op, finish or consumer, why)
    if refused is None and finish is not None:
        refused = _sums_refusal(finish, consumer, why, sums=False)
    if refused is not None:
        return refused
    inputs = list(op.operands)[:n_in]
    if not all(v == inputs[0] for v in inputs) or not any(_dims(list(m.results)) == loops for m in maps[:n_in]) \
            or inputs[0] not in operands:
        return _match_loaded(op, binding_of, finish)
    reads = []
    for m in maps[:n_in]:
        exprs = list(m.results)
        if _dims(exprs) == loops:
            reads.append(ELEMENT)
        elif _dims(exprs[:-1]) == loops[:-1] and isinstance(exprs[-1], ir.AffineConstantExpr) and \
                ir.AffineConstantExpr(exprs[-1]).value == 0:
            reads.append(FIRST)
        else:
            return Unmatched(f"{why}: reads A through {m}; takes its loops' identity, or the row's first element")
    return RowStats(op, reads, finish=finish)


def _match_loaded(op: ir.Operation, binding_of, finish: ir.Operation | None) -> RowStats | Unmatched:
    """`op` as row values reduced from loaded tensors (module doc)."""
    why = "row values from loaded tensors fused into the matmul's dispatch"
    n_in = len(op.operands) - len(op.results)
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    loaded, extent = [], None
    for v, m in zip(list(op.operands)[:n_in], maps):
        sums = dim_sums(m)
        if sums is None or binding_of(v) is None:
            return Unmatched(f"{why}: reads an input through {m}, not a sum of its loops times constants, or "
                             "an input that is not a loaded tensor")
        shape = ir.RankedTensorType(v.type).shape
        for (terms, const), size in zip(sums, shape):
            if terms == ((m.n_dims - 1, 1),) and const == 0:
                extent = size
        loaded.append((binding_of(v), sums))
    if extent is None or extent == ir.ShapedType.get_dynamic_size():
        return Unmatched(f"{why}: no input reads the reduced loop alone along a static dim (its extent)")
    return RowStats(op, [], loaded, extent, finish)


def _sums_refusal(op: ir.Operation, reader: ir.Operation | None, why: str, sums: bool = True) -> Unmatched | None:
    """Why `op` is not sums per row (`sums_refusal`; where `sums`) that only `reader` reads."""
    refused = sums_refusal(op, why) if sums else None
    if refused is None and (reader is None or any(u.owner != reader for r in op.results for u in r.uses)):
        return Unmatched(f"{why}: its results are read by other ops than the matmul's fused consumer")
    return refused


def sums_refusal(op: ir.Operation, why: str) -> Unmatched | None:
    """Why generic `op` is not sums: f32 results from fills of 0, each combined by an addf of its
    output, a body of arith/math ops (chunk_stats.py's sums too)."""
    n_in = len(op.operands) - len(op.results)
    block = op.regions[0].blocks[0]
    outs = list(block.arguments)[n_in:]
    yielded = list(list(block.operations)[-1].operands)
    for j, (out, init) in enumerate(zip(outs, list(op.operands)[n_in:])):
        if str(out.type) != "f32" or fill_constant(init) != 0.0:
            return Unmatched(f"{why}: result {j} is not an f32 sum started from a fill of 0")
        add = producer(yielded[j])
        if add is None or add.name != "arith.addf" or out not in list(add.operands) or len(list(out.uses)) != 1:
            return Unmatched(f"{why}: result {j} is not combined by arith.addf of its output")
    if not _scalar_body(op):
        return Unmatched(f"{why}: the body is not arith/math ops on its inputs")
    return None


def _scalar_body(op: ir.Operation) -> bool:
    """Whether generic `op`'s body is arith / math ops alone (but its yield)."""
    body = list(op.regions[0].blocks[0].operations)[:-1]
    return all(o.operation.name.startswith(("arith.", "math.")) for o in body)


def _dims(exprs: list) -> list[int | None]:
    return [ir.AffineDimExpr(e).position if isinstance(e, ir.AffineDimExpr) else None for e in exprs]


def refusal(p, pl, choice, tgt) -> str | None:
    """Why the kernel of plan `pl` (of `choice`, on `tgt`) cannot sum the rows of problem
    `p`'s A (None where it can)."""
    s = pl.staging.get("A")
    if p.row_stats.loaded is not None:
        loops = len(p.row_stats.op.attributes["iterator_types"])
        if p.view is not None or loops - 2 != (len(p.batch_shape) or int(p.batched)):
            return "row values from loaded tensors whose loops are not the product's batch, rows and one more"
    elif "A" in p.prologues:
        return "row sums of A with a fused producer of A (the sums read the loaded A)"
    elif p.view is not None:
        return "row sums of a convolution's gathered operand"
    elif p.dims["A"] != ("m", "k") or s is None or not s.k_contiguous:
        return "row sums of A need A stored and staged K-contiguous (rows of LDS holding rows of A)"
    elif pl.split > 1:
        return "row sums of A under a K split over a cluster (each workgroup sees part of the rows)"
    if pl.lds_bytes(element_bits(p.elem_type) // 8) + _lds_bytes(p.row_stats, pl.tiling.bm) > choice.lds_budget(tgt):
        return "row sums of A: the plan's LDS leaves no room for the rows' sums"
    return None


def shared_by(p, pl, most: int) -> int:
    """The workgroups of a cluster along N that share the row sums of problem `p` under the
    wgmma plan `pl` (MatmulPlan.row_share; module doc): the most, a power of 2 at most `most`
    and a portable cluster, that divide its N tiles and leave each a K step; 1 where `p` has
    no row sums, a dynamic N, or `pl` splits K over a cluster."""
    if not p.row_stats or p.row_stats.loaded is not None or p.row_stats.finish is not None or pl.split > 1 \
            or "n" in p.dynamic:
        return 1
    tiles = math.ceil(p.sizes["n"] / pl.tiling.bn)
    steps = most if "k" in p.dynamic else math.ceil(p.sizes["k"] / pl.bk)
    share = 1
    while 2 * share <= min(most, cluster.PORTABLE_MOST, steps) and tiles % (2 * share) == 0:
        share *= 2
    return share


def reserved_lds(p) -> int:
    """LDS bytes to leave the row sums of problem `p` when planning (the largest tile's rows)."""
    return _lds_bytes(p.row_stats, MOST_ROWS) if p.row_stats else 0


def _lds_bytes(stats: RowStats, rows: int) -> int:
    """The LDS array of the row values of `rows` rows: an f32 per value (the finish's results, or
    the sums, whose partials a cluster adds up there: a finish is never shared) and row."""
    return 4 * len(stats.values) * rows


class RowStatsKernel:
    """The row sums' part of the kernel of Emitter `em` (module doc)."""

    def __init__(self, em, stats: RowStats):
        self.em, self.stats = em, stats
        t, bk = em.pl.tiling, em.pl.bk
        self.v = math.gcd(bk, em.k.target.vector_elems(element_bits(em.p.elem_type)))
        units = bk // self.v
        # q lanes a row: the most (a power of 2, for the butterfly) that divide a row's
        # vectors, fit a subgroup and still give each of BM rows a group where threads allow.
        limit = min(units, em.k.target.subgroup_size, max(1, t.threads // t.bm))
        self.q = max(d for d in (1 << b for b in range(8)) if d <= limit and units % d == 0)
        self.rows_at_once = t.threads // self.q
        self.passes = math.ceil(t.bm / self.rows_at_once)
        self.units = units // self.q  # vectors of a row a thread reads a K step
        self.share = em.pl.row_share
        self.f32 = ir.F32Type.get()
        self.vtype = ir.VectorType.get([self.v], self.f32)

    def lds_bytes(self) -> int:
        return _lds_bytes(self.stats, self.em.pl.tiling.bm)

    def begin(self) -> list[ir.Value]:
        """Before the K loop, once the pipeline's first copies are issued (their latency hides
        these loads'): the LDS array of the finished sums, each row's first element where the
        body reads it, and the loop's initial partial sums (zeros); or the row values from
        loaded tensors, computed."""
        em, k = self.em, self.em.k
        t = em.pl.tiling
        self.lds = lds_alloc([len(self.stats.values), t.bm], self.f32)
        if self.stats.loaded is not None:
            self._loaded_values()
            return []
        self.lane = arith.remui(em.tid, k.const(self.q))
        if self.share > 1:  # this workgroup's rank in its cluster along N
            self.rank = arith.remui(k.block_id("x"), k.const(self.share))
        group = arith.divui(em.tid, k.const(self.q))
        self.rows = [em.offset(group, self.rows_at_once * i) for i in range(self.passes)]
        self.first = []
        if FIRST in self.stats.reads:
            one = ir.VectorType.get([1], em.p.elem_type)
            for row in self.rows:
                m = arith.addi(em.origin["m"], row)
                idx = em.operand_index("A", [m, k.const(0)])
                got = em.or_zero([(m, em.p.extent("m"))] + self._past_tile(row), one,
                                 lambda: read_vector(one, em.mem["A"], idx))
                self.first.append(vector.broadcast(ir.VectorType.get([self.v], em.p.elem_type),
                                                   vector.extract(got, [], [0])))
        return [self._zeros()] * (self.stats.results * self.passes)

    def _loaded_values(self) -> None:
        """Each row's values from the loaded tensors into the LDS array (module doc): q lanes a
        row (the least power of 2 that covers the reduced loop, at most a subgroup, and few
        enough that one pass of the threads covers the tile's rows: each pass is a butterfly
        and a finish after the loads, in turn), lane l taking its steps l, l + q, ... (so
        that a row's loads are consecutive); where a lane
        takes at most UNROLLED steps, every row's loads are issued before the body's first use
        of them (one round trip, not one a step), else an scf.for carries the running sums.
        Then the lanes' sums are added by a butterfly, finished, and stored by the row's first
        lane. Rows past M read M's last one (every lane runs the butterfly) and store nothing."""
        em, k = self.em, self.em.k
        t, stats = em.pl.tiling, self.stats
        one_pass = 1 << (max(1, t.threads // t.bm).bit_length() - 1)
        q = min(1 << (stats.extent - 1).bit_length(), k.target.subgroup_size, one_pass)
        rows, steps = t.threads // q, math.ceil(stats.extent / q)
        mems = [b.memref() for b, _ in stats.loaded]
        lane, group = arith.remui(em.tid, k.const(q)), arith.divui(em.tid, k.const(q))
        extent_m = em.p.extent("m")
        last_m = k.const(extent_m - 1) if isinstance(extent_m, int) else arith.subi(extent_m, k.const(1))

        def loads(m: ir.Value, j: int | ir.Value) -> tuple[list[ir.Value], ir.Value | None]:
            """The inputs of lane step j of row m (at step min(l + q j, extent - 1)), and
            whether that step is inside the loop (None: always)."""
            c = arith.addi(lane, k.const(q * j) if isinstance(j, int) else arith.muli(j, k.const(q)))
            whole = stats.extent % q == 0 or (isinstance(j, int) and q * (j + 1) <= stats.extent)
            inside = None if whole else arith.cmpi(arith.CmpIPredicate.ult, c, k.const(stats.extent))
            at = [*em.batch, m, c if inside is None else arith.minui(c, k.const(stats.extent - 1))]
            return [memref.load(mem, [_sum_index(k, terms, const, at) for terms, const in sums])
                    for mem, (_, sums) in zip(mems, stats.loaded)], inside

        def body(step: tuple[list[ir.Value], ir.Value | None], values: list[ir.Value]) -> list[ir.Value]:
            args, inside = step
            new = clone_body(stats.op, args + values, None)
            return new if inside is None else [arith.select(inside, n, v) for n, v in zip(new, values)]
        passes = []
        for first in range(0, t.bm, rows):
            row = em.offset(group, first)
            m = arith.addi(em.origin["m"], row)
            passes.append((first, row, m, arith.minui(m, last_m)))
        zeros = [k.const(0.0, self.f32)] * stats.results
        if steps <= UNROLLED:
            issued = [[loads(read, j) for j in range(steps)] for *_, read in passes]
            partial = []
            for row_steps in issued:
                values = zeros
                for step in row_steps:
                    values = body(step, values)
                partial.append(values)
        else:
            partial = []
            for *_, read in passes:
                loop = scf.ForOp(k.const(0), k.const(steps), k.const(1), zeros)
                with ir.InsertionPoint(loop.body):
                    scf.yield_(body(loads(read, loop.induction_variable), list(loop.inner_iter_args)))
                partial.append(list(loop.results))
        offsets = [1 << b for b in range(q.bit_length() - 1)]
        for (first, row, m, _), values in zip(passes, partial):
            sums = [k.butterfly(v, offsets, arith.addf) for v in values]  # every lane: shuffles
            ragged = [(lane, 1), (m, extent_m)] + ([(row, t.bm)] if first + rows > t.bm else [])
            with em.guard(ragged):
                for j, value in enumerate(self._finished(sums)):
                    memref.store(value, self.lds, [k.const(j), row])

    def _zeros(self) -> ir.Value:
        return vector.broadcast(self.vtype, self.em.k.const(0.0, self.f32))

    def _past_tile(self, row: ir.Value) -> list:
        """The guard of the rows of the last pass past BM (where BM is no multiple of the rows a
        pass covers)."""
        t = self.em.pl.tiling
        return [(row, t.bm)] if t.bm % self.rows_at_once else []

    def stepped(self, kt: ir.Value, partial: list[ir.Value], step) -> tuple[list[ir.Value], list[ir.Value]]:
        """K step `kt`'s results (`step()`, the emitter's step) and the partial sums after it,
        its A tile's rows added before the step or after it (`Emitter.ROW_SUMS_LAST`); the tile
        stays published throughout: no copy of step kt refills its LDS tile."""
        em = self.em
        if em.ROW_SUMS_LAST:
            results = step()
            return results, self.accumulate(em.lds_tile(kt), em.k0(kt), kt, partial)
        summed = self.accumulate(em.lds_tile(kt), em.k0(kt), kt, partial)
        return step(), summed

    def accumulate(self, buf: ir.Value, k0: ir.Value, kt: ir.Value, partial: list[ir.Value]) -> list[ir.Value]:
        """The partial sums after adding LDS tile `buf`, A's tile of K step `kt` at K offset
        `k0`: the body applied to the partial sums as its outputs' block arguments (it adds
        its value to them), lanes at K and past it left as they were; shared over a cluster,
        only in the workgroup whose step it is."""
        if self.share == 1:
            return self._add(buf, k0, partial)
        k = self.em.k
        mine = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(kt, k.const(self.share)), self.rank)
        branch = scf.IfOp(mine, [v.type for v in partial], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            scf.yield_(self._add(buf, k0, partial))
        with ir.InsertionPoint(branch.else_block):
            scf.yield_(partial)
        return list(branch.results)

    def _add(self, buf: ir.Value, k0: ir.Value, partial: list[ir.Value]) -> list[ir.Value]:
        em, k = self.em, self.em.k
        out = list(partial)
        n = self.stats.results
        elems = ir.VectorType.get([self.v], em.p.elem_type)
        for i, row in enumerate(self.rows):
            for u in range(self.units):
                col = arith.muli(arith.addi(self.lane, k.const(u * self.q)), k.const(self.v))
                x = em.or_zero(self._past_tile(row), elems, lambda: em.lds_read("A", buf, row, col, self.v))
                sums = out[i * n:(i + 1) * n]
                args = [x if r == ELEMENT else self.first[i] for r in self.stats.reads] + sums
                values = clone_body(self.stats.op, args, self.v)
                if em.p.ragged("k", em.pl.bk):
                    inside = self._inside_k(arith.addi(k0, col))
                    values = [arith.select(inside, value, s) for value, s in zip(values, sums)]
                out[i * n:(i + 1) * n] = values
        return out

    def _inside_k(self, col: ir.Value) -> ir.Value:
        """Which of the V lanes from K index `col` are inside K (the LDS tile holds zeros past
        it, which the body may turn into something else)."""
        k, i32 = self.em.k, ir.IntegerType.get_signless(32)
        v32 = ir.VectorType.get([self.v], i32)
        lanes = arith.constant(v32, ir.DenseElementsAttr.get(
            np.arange(self.v, dtype="int32"), type=v32))
        at = arith.addi(vector.broadcast(v32, arith.index_cast(i32, col)), lanes)
        extent = self.em.p.extent("k")
        limit = k.const(extent, i32) if isinstance(extent, int) else arith.index_cast(i32, extent)
        return arith.cmpi(arith.CmpIPredicate.ult, at, vector.broadcast(v32, limit))

    def finish(self, partial: list[ir.Value]) -> None:
        """After the K loop: each row's sums into the LDS array (shared over a cluster, the
        cluster's totals: `_sum_over_cluster`), then the barrier that publishes them."""
        em, k = self.em, self.em.k
        offsets = [1 << b for b in range(self.q.bit_length() - 1)]
        for i, row in enumerate(self.rows if self.stats.loaded is None else []):
            sums = []
            for j in range(self.stats.results):
                s = sum_lanes(partial[i * self.stats.results + j])
                sums.append(k.butterfly(s, offsets, arith.addf))  # every lane: shuffles
            values = self._finished(sums)
            with em.guard([(self.lane, 1)] + self._past_tile(row)):
                for j, value in enumerate(values):
                    memref.store(value, self.lds, [k.const(j), row])
        if self.share > 1:
            self._sum_over_cluster()
        em.barrier()

    def _finished(self, sums: list[ir.Value]) -> list[ir.Value]:
        """A row's values from its sums (scalars): the finish's body, else the sums."""
        finish = self.stats.finish
        if finish is None:
            return sums
        n_in = len(finish.operands) - len(finish.results)
        of = dict(zip(self.stats.op.results, sums))
        unread = [self.em.k.const(0.0, self.f32)] * len(finish.results)  # initial values it does not read
        return clone_body(finish, [of[v] for v in list(finish.operands)[:n_in]] + unread, None)

    def _sum_over_cluster(self) -> None:
        """Each entry of the LDS array, the sum of the cluster's partial sums of it (module
        doc): thread t adds entries t, t + threads, ... of every workgroup's array."""
        em, k = self.em, self.em.k
        i32 = ir.IntegerType.get_signless(32)
        bm, threads = em.pl.tiling.bm, em.pl.tiling.threads
        entries = self.stats.results * bm
        base = cluster.shared_address(self.lds)
        cluster.sync()  # every workgroup's partial sums are in its array
        totals = []
        for first in range(0, entries, threads):
            at = em.offset(em.tid, first)
            # past the last entry: a re-read of it, whose total is not stored
            address = arith.addi(base, arith.muli(arith.index_cast(i32, arith.minui(at, k.const(entries - 1))),
                                                  k.const(4, i32)))
            total = None
            for rank in range(self.share):
                x = cluster.load_remote(address, k.const(rank, i32))
                total = x if total is None else arith.addf(total, x)
            totals.append((first, at, total))
        cluster.sync()  # no workgroup reads this one's partial sums any more
        for first, at, total in totals:
            with em.guard([(at, entries)] if first + threads > entries else []):
                memref.store(total, self.lds, [arith.divui(at, k.const(bm)), arith.remui(at, k.const(bm))])

    def read(self, j: int, m: ir.Value, vtype: ir.VectorType) -> ir.Value:
        """Row m's sum j (m a row of this workgroup's tile), broadcast to `vtype`."""
        k = self.em.k
        return vector.broadcast(vtype, memref.load(self.lds, [k.const(j), arith.remui(m, k.const(self.em.pl.tiling.bm))]))


def sum_lanes(vec: ir.Value) -> ir.Value:
    """The sum of a vector's lanes, first to last (chunk_stats.py's partial sums too)."""
    total = vector.extract(vec, [], [0])
    for lane in range(1, ir.VectorType(vec.type).shape[0]):
        total = arith.addf(total, vector.extract(vec, [], [lane]))
    return total


def _sum_index(k, terms: tuple[tuple[int, int], ...], const: int, at: list[ir.Value]) -> ir.Value:
    """The index sum(at[loop] * stride) + const of one dim of a `dim_sums` map."""
    out = None
    for loop, stride in terms:
        x = at[loop] if stride == 1 else arith.muli(at[loop], k.const(stride))
        out = x if out is None else arith.addi(out, x)
    return k.const(const) if out is None else arith.addi(out, k.const(const)) if const else out
