"""The matmul planner, pure Python: for each tiling, the target's scheme and each operand's
staging (its global reads, LDS row pad and fragment reads, chosen by the bank model of
ldsopt/layout/banks.py, `cheapest`); K steps per fragment read group (`packing`); then, over the
tilings and K steps, the plan of least `plan_cost`, a model of how the tiles spread over the
target's compute units and of the LDS reads that K-strided fragments take, that fits the
target's threads, vectors and LDS (`plan`), costed as the pass that plans it would record it
(ldsopt-inthread-transpose: its operands transposed). On sm_90a, `wgmma_plan` plans the
products that Hopper's warpgroup MMA takes (`wgmma_refusal` says which)."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable

import numpy as np
from iree.compiler import ir

from ldsopt.codegen import cluster
from ldsopt.codegen.dispatch import Binding
from ldsopt.layout import mma
from ldsopt import target as target_model
from ldsopt.layout.banks import BankModel
from ldsopt.ir_types import element_bits
from ldsopt.matmul import chunk_stats
from ldsopt.matmul.match import MatmulProblem
from ldsopt.matmul.schemes import TILINGS, WGMMA_TILINGS, FmaScheme, MatmulPlan, MmaScheme, Tiling, WgmmaScheme
from ldsopt.layout.tile_layout import Direct, Lanes, LdsRows, RowChunks, TileLayout

def pow2_dividing(n: int, cap: int) -> int:
    return math.gcd(n, 1 << (cap.bit_length() - 1))


def _staging(p: MatmulProblem, role: str, scheme, bk: int, tgt: target_model.Target,
             model: BankModel, stages: int) -> TileLayout | None:
    """The operand's staging: global order kept, the widest vectors that divide the
    contiguous extent (and split evenly over the threads), fragment reads of one K step, the
    row pad of fewest bank conflicts (`with_k_pack`); None when not even single elements split
    evenly over the threads (a given tiling)."""
    t = scheme.tiling
    dims = p.dims[role]
    extent = {"m": t.bm, "n": t.bn, "k": bk}
    tile = (extent[dims[0]], extent[dims[1]])
    bits = element_bits(p.elem_type)
    vec = pow2_dividing(math.gcd(p.run(role), tile[1]), max(1, tgt.vector_elems(bits) // p.run_stride(role)))
    # IREE's SPIR-V lowering retypes a binding that only vectors of n read as an array of
    # vector<n> (iree-spirv-vectorize-load-store), each read at its last index divided by n: a
    # convolution's vector must start at a multiple of n of its tensor's last dim, which an
    # NCHW image's `ow + kw` does not (it read the wrong elements).
    while tgt.backend == "vulkan" and p.view is not None and vec > 1 and \
            not p.view.aligned_vectors(role, p.view.read_width(role, vec)):
        vec //= 2
    while vec and (tile[0] * tile[1] // vec) % t.threads:
        vec //= 2
    if not vec:
        return None
    base = TileLayout.planned(role, dims, tile, vec, t.threads, scheme.fragment(role), 1, buffers=stages)
    return with_k_pack(base, scheme, 0, bits // 8, model)


def with_k_pack(s: TileLayout, scheme, k_pack: int, elem_bytes: int, model: BankModel) -> TileLayout:
    """Untransposed `s` read in groups of `k_pack` K steps (MmaScheme.k_pack; 0: one, in the
    natural order): its widest fragment read, and the row pad of fewest bank conflicts for its
    writes and those reads (`padded`)."""
    return cheapest(padded(s, scheme, k_pack), scheme, elem_bytes, model)


def padded(s: TileLayout, scheme, k_pack: int) -> list[TileLayout]:
    """The candidates of `with_k_pack`: `s` with its widest fragment read of `k_pack` K steps,
    each row pad of `address_maps`. No swizzle: on the H200 the rotating swizzle that the model
    preferred for A's K-contiguous tile was slower than the pad, its reads no longer at
    immediate offsets (bench/results/cuda-matmul/README.md, "Measured choices")."""
    read = max(n for _, _, n in scheme.reads(s.operand, s.k_contiguous, 0, k_pack))
    base = dataclasses.replace(s, k_pack=k_pack, read_vector=read, lds=dataclasses.replace(s.lds, pad=0, swizzle=()))
    return address_maps(base, swizzles=False)


def address_maps(base: TileLayout, lanes: tuple[Lanes, ...] = (Lanes.COLS,), row_xors: tuple[int, ...] = (0,),
                 forced_pad: int = -1, swizzles: bool = True, lane_rows: tuple[int, ...] = (1,)) -> list[TileLayout]:
    """`base` with threads along the contiguous dim (lanes cols, with each of `lane_rows` that
    divides the row chunks) or down the rows (lanes rows), each row XOR of `row_xors`, and row
    pads of 0, 1 and 2 units (and `forced_pad` if it is a multiple of the unit) or
    (`swizzles`) rotating swizzles of 1 and 2 units (perPhase 1..8 rows, maxPhase 2..units per
    row). The unit is the wider of the LDS writes and the fragment reads, so that both stay
    whole, aligned vectors."""
    unit = max(base.write_vector, base.read_vector)
    cols = base.lds_tile[1]
    pads = sorted({0, unit, 2 * unit} | ({forced_pad} if forced_pad > 0 and forced_pad % unit == 0 else set()))
    out = []
    orders = [(lane_order, r) for lane_order in lanes
              for r in (lane_rows if lane_order is Lanes.COLS else (1,)) if (base.tile[0] // base.rake) % r == 0]
    for lane_order, rows_first in orders:
        b = dataclasses.replace(base, thread_map=dataclasses.replace(base.thread_map, lanes=lane_order,
                                                                     lane_rows=rows_first))
        for row_xor in row_xors:
            out += [dataclasses.replace(b, lds=LdsRows.padded(cols, pad).xor_rows(row_xor)) for pad in pads]
            out += [dataclasses.replace(b, lds=LdsRows.rotating(cols, u, per_phase, max_phase).xor_rows(row_xor))
                    for u in (unit, 2 * unit) if swizzles and u <= cols
                    for max_phase in _powers_of_two(2, cols // u) for per_phase in _powers_of_two(1, 8)]
    return out


def cheapest(candidates: list[TileLayout], scheme, elem_bytes: int, model: BankModel) -> TileLayout:
    """The candidate of fewest bank conflicts (LDS writes and fragment reads of the first wave),
    then of the fewest non-affine address maps (a row XOR, a swizzle: each makes every fragment
    read compute its address, where a padded layout reads at immediate offsets from one base),
    then least LDS, then first listed."""
    return _cheapest(tuple(candidates), scheme, elem_bytes, model)


@functools.lru_cache(maxsize=1024)
def _cheapest(candidates: tuple[TileLayout, ...], scheme, elem_bytes: int, model: BankModel) -> TileLayout:
    """`cheapest`, cached: each pass of a pipeline that stages a matmul plans it again."""
    conflicts = _bank_conflicts_of(candidates, scheme, elem_bytes, model)
    cost = [(int(conflicts[i]), c.lds.computed, math.prod(c.lds_shape), i)
            for i, c in enumerate(candidates)]
    return candidates[min(cost)[-1]]


def _bank_conflicts_of(candidates: tuple[TileLayout, ...], scheme, elem_bytes: int,
                       model: BankModel) -> np.ndarray:
    """`bank_conflicts` of each candidate, all of them priced in one `conflicts_many` call per
    access width (its accesses are priced one by one, so they stack)."""
    by_width: dict[int, tuple[list, list]] = {}
    for i, s in enumerate(candidates):
        for addrs, widths in _wave_accesses(s, scheme, elem_bytes, model):
            for w in np.unique(widths):
                rows, owners = by_width.setdefault(int(w), ([], []))
                rows.append(addrs[:, widths == w].T)
                owners.append(np.full(int((widths == w).sum()), i))
    total = np.zeros(len(candidates), dtype=np.int64)
    for w, (rows, owners) in by_width.items():
        np.add.at(total, np.concatenate(owners), model.conflicts_many(np.concatenate(rows), w))
    return total


def _powers_of_two(lo: int, hi: int) -> list[int]:
    return [1 << e for e in range(lo.bit_length() - 1, hi.bit_length())] if hi >= lo else []


def packing(scheme, staging: dict[str, TileLayout], bk: int, bits: int, tgt: target_model.Target,
            most: int = -1) -> int:
    """K steps per fragment read group (MmaScheme.k_pack, at most `most` unless -1) when every
    operand is K-contiguous in LDS, else 0. The group's K slots are fed in mma.k_order for both
    operands; a K-strided one would read its slots' K rows 8 apart, one scalar at a time, all
    in one bank (measured on the H200: bench/results/cuda-matmul/README.md, "Measured
    choices"). Where the intrinsic has a matrix load for both operands (CUDA's 16-bit
    mma.sync: ldmatrix), `most` = -1 reads them by it, in the natural order (0): a packed
    group's 16-byte reads take no fewer instructions than ldmatrix.x4 and hold a second K
    step's A fragments, which spilled the NT f16 4096^3 kernel at 128 registers (ptxas
    sm_90: 16 bytes; none with ldmatrix); a packing asked for (`most` > 0) is kept."""
    if not isinstance(scheme, MmaScheme) or not all(s.k_contiguous for s in staging.values()):
        return 0
    if most < 0 and all(scheme.matrix_load(r, 0) for r in ("A", "B")):
        return 0
    return scheme.k_pack(bk, bits, tgt, most)


def bank_conflicts(s: TileLayout, scheme, elem_bytes: int, model: BankModel) -> int:
    """Extra LDS cycles of the first wave: each of its tile stores, then each of its fragment reads."""
    return sum(lds_conflicts(s, scheme, elem_bytes, model))


def lds_conflicts(s: TileLayout, scheme, elem_bytes: int, model: BankModel) -> tuple[int, int]:
    """(stores, fragment reads): extra LDS cycles of the first wave's stores of its first chunk
    and of its fragment reads of K sub-step 0."""
    stores, reads = (model.wave_cycles(addrs, widths) for addrs, widths in _wave_accesses(s, scheme, elem_bytes, model))
    return stores, reads


def _wave_accesses(s: TileLayout, scheme, elem_bytes: int, model: BankModel) -> list[tuple[np.ndarray, np.ndarray]]:
    """The first wave's stores of its first chunk, then its fragment reads of K sub-step 0, each
    as (byte address [lane, access] at the staging's address map, bytes [access])."""
    writes = np.array([s.lds_writes(lane) for lane in range(model.wave_size)], dtype=np.int64)
    reads = _fragment_reads(scheme, s.operand, s.k_contiguous, s.k_pack, model.wave_size)
    return [(s.address_map(a[:, :, 0] * s.lds_tile[1] + a[:, :, 1]) * elem_bytes, a[0, :, 2] * elem_bytes)
            for a in (writes, reads)]


@functools.lru_cache(maxsize=256)
def _fragment_reads(scheme, role: str, k_contiguous: bool, k_pack: int, lanes: int) -> np.ndarray:
    """(lane, read) -> (row, col, elements) of the scheme's fragment reads: the same for every
    staging a planner prices for them (they differ in the address map only)."""
    return np.array([scheme.reads(role, k_contiguous, lane, k_pack) for lane in range(lanes)], dtype=np.int64)


def _scheme(p: MatmulProblem, t: Tiling, tgt: target_model.Target, use_mma: bool) -> FmaScheme | MmaScheme | None:
    """The target's matrix-core scheme for the input type if there is one (and it is wanted),
    else FMA; None when the FMA micro-tile is too wide for the target's vectors."""
    intrinsic = mma.INTRINSICS.get((mma.family(tgt.backend, tgt.arch), str(p.elem_type))) if use_mma else None
    if intrinsic is not None and intrinsic.subgroup == tgt.subgroup_size:
        scheme = MmaScheme(t, intrinsic)
        if scheme.fits():
            return scheme
    # Vector widths are powers of two (SPIR-V has no vector<3xf16> loads); TM is one only for the
    # reads of an A whose rows run along M.
    widths = (t.tn, t.ku) + ((t.tm,) if p.dims["A"][1] != "k" else ())
    if any(w & (w - 1) for w in widths) or (tgt.max_vector_elems and max(widths) > tgt.max_vector_elems):
        return None
    return FmaScheme(t)


@dataclasses.dataclass(frozen=True)
class CostModel:
    """The constants of `plan_cost`, in multiply-adds: per K element, a tile costs its BM x BN
    multiply-adds, `load` per element of A and B it loads and `step` whatever its size (the
    latency a K step waits for that no tile size hides); the consumer's body `epilogue_op` per
    op and output; each tile that shares a CU with another adds `share` of its time (a second
    workgroup on an SM hides some of the first one's latency)."""

    load: float
    step: float
    epilogue_op: float
    share: float

    def time(self, tiles: int, compute_units: int, k: int, bm: int, bn: int, epilogue_ops: int,
             narrow: float = 0.0, split: int = 1) -> tuple[float, float]:
        """(time, work) of `tiles` tiles of BM x BN over K elements (`plan_cost`)."""
        per_cu = math.ceil(tiles / (compute_units or 1))
        tile = k * (bm * bn + self.load * (bm + bn) + self.step + narrow) + bm * bn * self.epilogue_op * epilogue_ops / split
        if split > 1:  # its share of the partial sums, out to and back from the others' LDS
            tile += SPLIT_SYNC_COST + bm * bn * SPLIT_SUM_COST * (split - 1) / split
        return tile * (1 + (per_cu - 1) * self.share), tiles * tile


# Fitted to the mma.sync kernels of the BERT-base layer's five shapes, f16, at seven tilings
# (128x128 to 32x32) on the H200 (bench/results/cuda-bert); every scheme's plans but wgmma's
# take them.
COSTS = CostModel(load=9, step=4096, epilogue_op=64, share=0.8)
# Fitted by bench/fit_cost_model.py to the wgmma kernels' tiling sweeps, one-wave products and
# grids of several waves (bench/results/cuda-matmul/cost-model-fit/): wgmma_plan's. Against
# COSTS they load an operand's element dearer and a K step's latency cheaper, and a second
# tile on an SM hides nothing of the first: several waves take the larger tiles. The sweeps
# do not pin `epilogue_op` (their error moves by 5% from 0 to 128): it is Hopper's ratio of
# f16 tensor-core multiply-adds to f32 ops an SM does a cycle, 16, which the products timed
# with heavy epilogues (a norm folded before a GELU) bear out
# (bench/results/cuda-matmul/cost-model-fit/README.md).
WGMMA_COSTS = CostModel(load=64, step=256, epilogue_op=16, share=1.0)
# Per matrix-core family (mma.family): each LDS read instruction of a wave that a fragment
# staged K-strided takes beyond what the same fragment K-contiguous would (MFMA f16: four
# 16-bit reads for one 64-bit one; i8: eight 8-bit ones). CDNA3 (gfx942): not fitted (no gfx942
# to measure on), an estimate of 2 LDS cycles a wave64 read (32 lanes a cycle) at the 1024 f16
# multiply-adds a CDNA3 CU's matrix cores do a cycle. None on CUDA: its f16 plans are the
# measured ones (bench/results/cuda-bert), ldmatrix.trans reads its K-strided f16 fragments as
# wide, and its transposed i8 staging is unmeasured. What the cost decides is where
# ldsopt-inthread-transpose may transpose such an operand (see `plan`): the tilings and K steps
# that leave none of these reads cost less.
NARROW_READ_COST = {"cdna3": 2048}
# A K split over a cluster (MatmulPlan.split, the wgmma scheme, `cluster-k`): per workgroup,
# the two cluster barriers, and per element of the tile its share of the partial sums sent to
# and added by other SMs, fitted to the H200 (bench/results/cuda-matmul/README.md, "Measured
# choices", which also says why no plan splits unless asked to).
SPLIT_SYNC_COST = 26000
SPLIT_SUM_COST = 10
# The bytes of K a K step stages that `plan` chooses from (k_bytes = 0), the first of equal cost
# taken: 64 (32 f16), or 128 where its cost is less, e.g. where a K-strided operand's K tile
# then gives each thread the 2 K rows that ldsopt-inthread-transpose needs.
K_BYTES = (64, 128)


def shaped_problem(dims_a: tuple[str, str], dims_b: tuple[str, str], elem: ir.Type, m: int, n: int,
                   k: int) -> MatmulProblem:
    """A product of these sizes, each operand's dims in its memory order, over bindings of no
    value (planning reads only shapes and types; the output f32), for planning without a
    dispatch. Needs a context."""
    sizes = {"b": 1, "m": m, "n": n, "k": k}
    binding = {r: Binding(ir.RankedTensorType.get([sizes[d] for d in dims], elem), None)
               for r, dims in (("A", dims_a), ("B", dims_b))}
    return MatmulProblem(sizes, binding, {"A": dims_a, "B": dims_b}, False, 0.0,
                         Binding(ir.RankedTensorType.get([m, n], ir.F32Type.get()), None))


def plan_cost(p: MatmulProblem, pl: MatmulPlan, tgt: target_model.Target,
              costs: CostModel | None = None) -> tuple[float, float]:
    """(time, work) of the plan in multiply-adds, by a simple model of the machine (`costs`, by
    default COSTS). The grid's T = ceil(M/BM) * ceil(N/BN) * B tiles go round-robin over the
    target's CUs (SMs); the busiest CU takes n = ceil(T / CUs) of them and takes
    1 + (n - 1) * share times one tile's time (the CUs left idle cost nothing). A tile's time:
    K x (BM x BN + load x (BM + BN) + step), the rows and columns past M and N included, plus
    BM x BN x epilogue_op per op of the fused consumer's body but its constants (the cast to
    f16 is one), plus K x the target's NARROW_READ_COST per extra fragment read per K element
    of its K-strided operands (`narrow_reads`). work = T tiles' time.
    So a small product takes a tiling whose tiles spread over more CUs (512 x 768 on the
    H200's 132 SMs: 96 tiles of 64x64 rather than 24 of 128x128), a large one the tiling of
    most reuse (4096^2: 128x128), and a skinny one (M or N up to 16, GEMV-like) a 16-row
    (column) tile whose grid runs along the long side."""
    t = pl.tiling
    costs = costs or COSTS
    k = math.ceil(p.sizes["k"] / pl.bk) * pl.bk // pl.split
    epilogue_ops = sum(op.name not in ("arith.constant", "linalg.yield")
                       for op in p.epilogue.op.regions[0].blocks[0].operations) if p.epilogue else 0
    narrow = NARROW_READ_COST.get(mma.family(tgt.backend, tgt.arch), 0) * narrow_reads(pl)
    return costs.time(math.prod(pl.grid(p.sizes)), tgt.compute_units, k, t.bm, t.bn, epilogue_ops, narrow, pl.split)


def narrow_reads(pl: MatmulPlan) -> float:
    """LDS read instructions per K element of one tile, over its waves, that the matrix-core
    fragments of its K-strided operands take beyond what they would K-contiguous: 0 where a
    matrix load reads them as wide (CUDA f16's ldmatrix.trans) and for FMA schemes (whose
    fragment reads ldsopt-inthread-transpose widens only when forced)."""
    if not isinstance(pl.scheme, MmaScheme):
        return 0
    waves = pl.tiling.threads // pl.scheme.intrinsic.subgroup
    extra = 0.0
    for role, s in pl.staging.items():
        if s.k_contiguous:
            continue
        reads = [len(pl.scheme.reads(role, k_contiguous, 0, s.k_pack)) for k_contiguous in (False, True)]
        reps = pl.scheme.reps[0 if role == "A" else 1]
        extra += waves * reps * (reads[0] - reads[1]) / (pl.scheme.k_step * max(1, s.k_pack))
    return extra


def plan(p: MatmulProblem, tgt: target_model.Target, lds_budget: int, use_mma: bool,
         tilings: tuple[Tiling, ...] = TILINGS, k_pack: int = -1, stages: int = 2,
         k_bytes: int = 0, staged: Callable[[MatmulPlan], MatmulPlan] | None = None) -> MatmulPlan | None:
    """The plan of least `plan_cost` (time, then work, then the first listed) among those of
    `tilings` and K steps that fit the target (threads, vector width, LDS), of the target's
    matrix-core scheme when one of them has it (a tiling its intrinsic does not tile falls back
    to FMA); None if none fits. `k_pack`: K steps per fragment read group of matrix-core
    schemes, at most (-1: the most; see `packing`); `stages`: LDS tiles per operand; `k_bytes`:
    bytes of K per K step (BK = k_bytes / element size; 0: each of K_BYTES); `staged`: the plan
    as the pass planning it would record it (ldsopt-inthread-transpose's restaging), which is
    what is costed (default: as planned here)."""
    elem_bytes = element_bits(p.elem_type) // 8
    fitting = [pl for kb in ((k_bytes,) if k_bytes else K_BYTES)
               for pl in _plans(p, tgt, lds_budget, use_mma, tilings, k_pack, stages, kb // elem_bytes)]
    if any(isinstance(pl.scheme, MmaScheme) for pl in fitting):
        fitting = [pl for pl in fitting if isinstance(pl.scheme, MmaScheme)]
    staged = staged or (lambda pl: pl)
    # Restaging changes the cost only through narrow_reads: the others are costed as planned.
    return min(fitting, key=lambda pl: plan_cost(p, staged(pl) if narrow_reads(pl) else pl, tgt), default=None)


def _plans(p: MatmulProblem, tgt: target_model.Target, lds_budget: int, use_mma: bool,
           tilings: tuple[Tiling, ...], k_pack: int, stages: int, bk: int) -> list[MatmulPlan]:
    """The plans of `tilings` at K step `bk` that fit the target, in the order of `tilings`."""
    elem_bytes = element_bits(p.elem_type) // 8
    model = tgt.bank_model()
    fitting = []
    for t in tilings:
        whole_subgroups = t.threads % tgt.subgroup_size == 0  # a wave's lanes are all in the tile
        fits = t.threads <= tgt.max_threads and whole_subgroups and chunk_stats.whole_chunks(p, t)
        scheme = _scheme(p, t, tgt, use_mma) if fits else None
        if scheme is None:
            continue
        staging = {r: _staging(p, r, scheme, bk, tgt, model, stages) for r in ("A", "B")}
        if None in staging.values():
            continue
        pack = packing(scheme, staging, bk, element_bits(p.elem_type), tgt, k_pack)
        staging = {r: with_k_pack(s, scheme, pack, elem_bytes, model) for r, s in staging.items()} if pack else staging
        pl = MatmulPlan(scheme, bk, staging)
        if pl.lds_bytes(elem_bytes) + chunk_stats.reserved(p, t) <= lds_budget:
            fitting.append(pl)
    return fitting


# The wgmma scheme's K pipeline: at least 3 LDS tiles (a step's wgmmas still read its tile while
# the next tile lands and the one after is copied), at most WGMMA_STAGES, as many as the LDS takes.
WGMMA_STAGES = 4
WGMMA_MIN_STAGES = 3


def wgmma_refusal(p: MatmulProblem, tgt: target_model.Target) -> str | None:
    """Why the wgmma scheme does not take the product on `tgt` (None: it does): sm_90a only;
    f16 or bf16 inputs accumulated in f32; each operand's contiguous dim (K, or M / N: wgmma
    transposes 16-bit operands itself) a multiple of 8 (whole 16-byte copies; one past K
    zero-filled), so not dynamic; no fused prologue and no convolution whose run is strided (the copies hold
    no registers to compute an operand in, or to keep every other element of a run); a
    convolution's other gathers are the copies' addresses, its padding their zero fill."""
    if not tgt.wgmma:
        return f"wgmma needs sm_90a (the target is {tgt.arch})"
    if str(p.elem_type) not in ("f16", "bf16") or str(p.acc_type) != "f32":
        return f"wgmma takes f16 and bf16 into f32 ({p.elem_type} into {p.acc_type})"
    if p.prologues or any(p.run_stride(r) > 1 for r in ("A", "B")):
        return "wgmma's operands are copied without registers: no fused prologue, no strided convolution run"
    dynamic = [r for r in ("A", "B") if not p.view and p.dims[r][1] in p.dynamic]
    if dynamic:
        return (f"wgmma's 16-byte copies need each operand's contiguous dim a multiple of 8; operand "
                f"{' and '.join(dynamic)}'s is dynamic")
    if any(p.run(r, copied=True) % 8 for r in ("A", "B")):
        return "wgmma's 16-byte copies need each operand's contiguous dim a multiple of 8, its starts aligned to it"
    return None


def wgmma_plan(p: MatmulProblem, tgt: target_model.Target, lds_budget: int,
               tilings: tuple[Tiling, ...] = WGMMA_TILINGS, most_stages: int = WGMMA_STAGES,
               split: int = 1, costs: CostModel | None = None) -> MatmulPlan | None:
    """The plan of least `plan_cost` among the wgmma scheme's tilings (WgmmaScheme) that fit
    the target's threads and LDS at WGMMA_MIN_STAGES tiles or more (as many as fit, up to
    `most_stages`), its K split over a cluster of `split` workgroups (`split_fits`; 1: none),
    costed by `costs` (WGMMA_COSTS); None if none fits. A tiling marked `dividing` is taken
    only where its BN divides N. Each operand's tile, in its memory order, is copied by
    cp.async in 16-byte chunks, threads along its rows, into the layout the scheme's
    descriptors describe: K-contiguous, BM (BN) rows of the 64-element K step (128 bytes) in
    the 128-byte swizzle; M/N-contiguous, the 64 K rows of each 64-column block in it (so
    such an operand's BM or BN is a multiple of 64)."""
    elem_bytes = element_bits(p.elem_type) // 8
    bk = WgmmaScheme.K_ROW
    costs = costs or WGMMA_COSTS
    fitting = []
    for t in tilings:
        if t.threads > tgt.max_threads or t.bm % WgmmaScheme.M or t.bn % 8 or not 8 <= t.bn <= 256 or \
                (t.dividing and p.ragged("n", t.bn)) or not chunk_stats.whole_chunks(p, t):
            continue
        stages = min(most_stages, (lds_budget - chunk_stats.reserved(p, t)) // ((t.bm + t.bn) * bk * elem_bytes))
        if stages < WGMMA_MIN_STAGES:
            continue
        scheme = WgmmaScheme(t)
        staging = {}
        for role, rows in (("A", t.bm), ("B", t.bn)):
            k_major = p.dims[role][1] == "k"
            if (rows * bk // 8) % t.threads or (not k_major and rows % WgmmaScheme.K_ROW):
                break
            tile = (rows, bk) if k_major else (bk, rows)
            lds = LdsRows.swizzled(bk, 8, 1, 8) if k_major else \
                LdsRows.swizzled(rows, 8, 1, 8, column_block=WgmmaScheme.K_ROW, rows=bk)
            staging[role] = TileLayout(role, p.dims[role], t.threads, scheme.fragment(role), 8,
                                       RowChunks(tile, 8), lds, Direct(), buffers=stages)
        else:
            if split_fits(p, t, bk, stages, split, elem_bytes):
                fitting.append(MatmulPlan(scheme, bk, staging, split))
    return min(fitting, key=lambda pl: plan_cost(p, pl, tgt, costs), default=None)


# The K split the plans take unasked (`cluster-k=0`, `auto_split`): 2 ways, where the unsplit
# plan's tiles are 64x64 and its K loop has at least SPLIT_MIN_STEPS steps. The split plan's
# 64x128 tiles feed each wgmma twice the columns of one A tile, and the split keeps their
# grid as wide; measured on the H200 over 18 long-K products, faster only there
# (bench/results/cuda-matmul/cluster-split-long-k/); the cost rule's split terms do not rank
# splits (they would split every small product: `cluster-split-80a1ad9/`).
SPLIT_MIN_STEPS = 48


def auto_split(p: MatmulProblem, tgt: target_model.Target, unsplit: MatmulPlan,
               plan_split: Callable[[int], MatmulPlan | None]) -> MatmulPlan:
    """The plan split 2 ways (`plan_split(2)`, planned only where the rule above may take it)
    where its workgroups fit one wave of the target's compute units, else `unsplit`."""
    t = unsplit.tiling
    if (t.bm, t.bn) != (64, 64) or math.ceil(p.sizes["k"] / unsplit.bk) < SPLIT_MIN_STEPS or not tgt.compute_units:
        return unsplit
    split = plan_split(2)
    return split if split is not None and math.prod(split.grid(p.sizes)) <= tgt.compute_units else unsplit


def split_fits(p: MatmulProblem, t: Tiling, bk: int, stages: int, split: int, elem_bytes: int) -> bool:
    """Whether the wgmma scheme can split the K steps of tiling `t` over a cluster of `split`
    workgroups (1: unsplit, always): as many steps each, each warp's partial sums summed by one
    workgroup (split at most the tile's warps), within a portable cluster, and the f32 partial
    sums a workgroup receives fit the LDS of its operands' tiles."""
    if split == 1:
        return True
    steps = math.ceil(p.sizes["k"] / bk)
    partials = (split - 1) * summing_warps(t, split) * 32 * t.bn // 2 * 4  # f32, received per workgroup
    return steps % split == 0 and split <= min(t.threads // 32, cluster.PORTABLE_MOST) and \
        partials <= (t.bm + t.bn) * bk * elem_bytes * stages


def summing_warps(t: Tiling, split: int) -> int:
    """The most warps a workgroup of a K split sums the rows of (warp w's by workgroup w % split)."""
    return math.ceil(t.threads // 32 / split)
