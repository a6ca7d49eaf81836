"""The attention kernel's plan: the scheme (FMA, or a matrix-core intrinsic of ldsopt/mma.py),
query rows and keys per tile, kv-split groups, threads; `plan` chooses it from the problem and
the target, None where nothing fits (the pass then leaves the dispatch, with the reason).

mma.sync (`plan_mma`, emit_mma.py): W warps of R row tiles of 16 (BM = 16 W R rows a
workgroup), BN keys a tile, `stages` LDS tiles of K and V in flight by cp.async, the LDS rows
padded or XOR-swizzled. `MmaKnobs` (ldsopt-attention's options) fixes any of them; the plan
chooses the rest:
- R = 1 or 2 (FlashAttention-2's 32 rows a warp: each K and V fragment read from LDS feeds two
  products, so a 16-row tile reads a third less of LDS for them). Q's fragments stay in
  registers for the whole loop up to head dim 64; past it two row tiles' O, S and Q would
  take more than a thread's 255 registers, so Q's tile goes to LDS once (`q_lds`) and its
  fragments are read by `ldmatrix` once a key tile.
- W (2, 4 or 8; BM at most MMA_MAX_ROWS) by the busiest SIMD (`busiest_simd`): a warp's row
  tiles run on one SIMD (an SM sub-partition), so a grid of G workgroups on U compute units
  of P SIMDs takes about ceil(G / U) W R / min(P, ceil(G / U) W) row-tile times. Among the
  shapes of the least, the most rows a workgroup (each K and V tile copied once for more
  rows: less L2 traffic, fewer copies a thread), then the most rows a warp. BERT's 12 heads
  of 512 rows: 96 workgroups of 4 warps x 16 rows (one row tile a SIMD; 2 x 32 rows leave
  two SIMDs idle, 192 workgroups of 2 x 16 rows copy K and V twice as often); 1x32x2048x128:
  4 warps x 32 rows (Q in LDS), 4x16x1024x64: 4 warps x 32 rows (the same load as 8 x 16,
  R = 2 the tie-break).
- BN = 64; two stages.
- The LDS layout by the bank model's price (`layout_price`): the conflicts of an ldmatrix
  matrix read and of a warp's cp.async row writes, then the LDS bytes. Rows padded by 16
  bytes and rows XOR-swizzled in 16-byte chunks (chunk c of row r at c ^ (r % 8), rows of
  whole groups of 8 chunks: head dims of multiples of 64) are both free of conflicts; the
  swizzle takes no bytes beyond the tiles (6% fewer at head dim 128, 11% at 64), so it is the
  layout wherever it applies, and padding the others.

wgmma (`plan_wgmma`, emit_wgmma.py; sm_90a, the first choice there): a warpgroup of 128
threads per 64 query rows, one or two a workgroup (two where 128-row workgroups still fill the
SMs), 128 keys a tile (S: 64 registers a thread), Q, K and V in LDS in the 128-byte swizzle,
two LDS tiles of K and V, or three with the overlap (a tile's P V under the next tile's
softmax), which is an option: it measured slower. What it does not take (`wgmma_refusal`:
other types, head dims, V^T, decode, a loaded float mask (where it measured slower than mma.sync:
`bench/results/cuda-attention/`), the mma-* options) keeps the mma.sync plan.

FMA (every target; lavapipe): `lanes` consecutive lanes of a subgroup share a query row (as
many as the subgroup has, each with at least one vector of the target's widest access of the
head dim, 16 bytes, where it allows), each holding an interleaved 1/lanes of its head dim (Q)
and value dim (accumulator); a score is their partial dot products summed by a butterfly. BM
rows (at most 16, fewer for fewer query rows), BN = 16 keys a tile; where the rows leave
threads idle (decode), KS kv-split groups (up to 128 threads, within the LDS) take the key
tiles in turn. One query row (`direct`: decode's partials) reads nothing twice: its lanes
read their K and V vectors from global memory into registers, the next tile's while the
current one is computed, with no LDS tile and no barrier (but for a V held keys innermost,
which goes through LDS to be transposed).
"""

from __future__ import annotations

import dataclasses
import fractions
import math

from ldsopt.layout import mma
from ldsopt.attention.match import AttentionProblem
from ldsopt.ir_types import element_bits
from ldsopt.target import Target

FMA_THREADS = 128       # threads the kv splits of an FMA kernel fill up to
FMA_KEYS = 16           # keys a tile, FMA
FMA_MAX_ROWS = 16
MMA_WARPS = (8, 4, 2)   # warps a workgroup the plan chooses from
MMA_MAX_ROWS = 128      # query rows a workgroup at most (FlashAttention-2's largest block)
MMA_FIXED_WARPS = 4     # warps of gfx942's MFMA kernel
MMA_KEYS = 64           # keys a tile, mma.sync
MMA_MAX_HEAD = 128
MMA_Q_REGISTERS_HEAD = 64  # head dims up to this keep two row tiles' Q in registers (O, S, Q: 64 + 64 + 32)
MMA_MIN_ROWS = 16
MMA_STAGES = 2
CHUNK_BYTES = 16        # a cp.async copy, an ldmatrix row
SWIZZLE_ROWS = 8        # the rows an XOR swizzle spreads over the banks (an ldmatrix matrix's)
PAD_BYTES = 16          # after each padded LDS row
WGMMA_HEADS = (64, 128)  # head and value dims of the wgmma kernel
WGMMA_KEYS = 128        # keys a tile, wgmma (S: 64 registers a thread)
WGMMA_STAGES = 2        # LDS tiles of K and V, wgmma; one more where P V runs under the next softmax
WGMMA_KV_SPLITS = 2     # warpgroups on one workgroup's rows, taking its key tiles in turn, where the rows are few


@dataclasses.dataclass(frozen=True)
class AttentionPlan:
    scheme: str            # "fma" or an ldsopt/mma.py intrinsic name
    bm: int                # query rows of a workgroup
    bn: int                # keys of a tile
    kv_splits: int         # groups of threads taking the key tiles in turn
    group_threads: int     # threads of one group
    lanes: int = 1         # FMA: lanes sharing a row
    vector: int = 1        # elements of a global read of K or V
    warp_rows: int = 1     # matrix cores: intrinsic row tiles of a warp (16 rows each)
    stages: int = 2        # mma.sync: LDS tiles of K and V (cp.async groups in flight + 1)
    swizzle: bool = False  # mma.sync: LDS rows XOR-swizzled in 16-byte chunks instead of padded
    direct: bool = False   # FMA: K and V read into registers, not staged through LDS
    q_lds: bool = False    # mma.sync: Q's tile in LDS, its fragments read once a key tile
    overlap: bool = False  # wgmma: a tile's P V runs on under the next tile's softmax

    @property
    def threads(self) -> int:
        return self.kv_splits * self.group_threads

    def row_tiles(self, p: AttentionProblem) -> int:
        return math.ceil(p.size(p.row) / self.bm)

    def lds_bytes(self, p: AttentionProblem) -> int:
        eb = element_bits(p.elem_type) // 8
        tiles = 0 if self.direct else 2 * self.kv_splits * self.bn * (p.size(p.k1) + p.size(p.n)) * eb
        combine = self.kv_splits * self.bm * (p.size(p.n) + 2) * 4 if self.kv_splits > 1 else 0
        q = self.bm * p.size(p.k1) * eb if self.q_lds else 0
        return tiles + combine + q


def _pow2_dividing(n: int, cap: int) -> int:
    w = 1
    while w * 2 <= cap and n % (w * 2) == 0:
        w *= 2
    return w


def copy_vector(p: AttentionProblem, tgt: Target) -> int:
    """Elements of a global read of K or V: the widest the target takes dividing both head dims."""
    return _pow2_dividing(math.gcd(p.size(p.k1), p.size(p.n)), tgt.vector_elems(element_bits(p.elem_type)))


def plan_fma(p: AttentionProblem, tgt: Target) -> AttentionPlan | None:
    heads = math.gcd(p.size(p.k1), p.size(p.n))
    vector = copy_vector(p, tgt)
    lanes = _pow2_dividing(heads, max(1, min(tgt.subgroup_size, heads // vector)))
    rows = p.size(p.row)
    bm = min(FMA_MAX_ROWS, 1 << max(0, (rows - 1).bit_length()))
    group = bm * lanes
    n_tiles = math.ceil(p.size(p.k2) / FMA_KEYS)
    splits = max(1, min(FMA_THREADS // group, n_tiles))
    while splits >= 1:
        pl = AttentionPlan("fma", bm, FMA_KEYS, splits, group, lanes, vector, direct=bm == 1 and not p.v_keys_inner)
        if pl.lds_bytes(p) <= tgt.lds_bytes and pl.threads <= tgt.max_threads:
            return pl
        splits //= 2
    return None


@dataclasses.dataclass(frozen=True)
class MmaKnobs:
    """What ldsopt-attention's options fix of the mma.sync plan; 0 / "auto": the plan's choice."""

    warps: int = 0
    rows_per_warp: int = 0   # 16 or 32
    keys: int = 0            # keys a tile, a multiple of 16
    stages: int = 0
    lds_layout: str = "auto"  # "pad", "xor" or "auto"


def layout_price(row_bytes: int, swizzle: bool, tgt: Target) -> tuple[int, int] | None:
    """(bank conflicts, LDS bytes a row) of rows of `row_bytes` in LDS, padded by PAD_BYTES or
    XOR-swizzled (16-byte chunk c of row r at chunk c ^ (r % 8)), by the bank model of
    ldsopt/layout/banks.py: the extra cycles of an ldmatrix matrix (8 consecutive rows, one
    chunk each, the same logical chunk; every chunk) and of a warp's cp.async writes (16 bytes
    a lane, consecutive chunks of consecutive rows). None where the layout does not apply: a
    swizzle needs rows of whole groups of 8 chunks (the swizzled chunk stays in its row)."""
    chunks = row_bytes // CHUNK_BYTES
    if row_bytes % CHUNK_BYTES or (swizzle and chunks % SWIZZLE_ROWS):
        return None
    stride = row_bytes if swizzle else row_bytes + PAD_BYTES
    banks = tgt.bank_model()

    def at(row: int, chunk: int) -> int:
        return row * stride + ((chunk ^ (row % SWIZZLE_ROWS)) if swizzle else chunk) * CHUNK_BYTES
    reads = sum(banks.conflicts([at(r, c) for r in range(SWIZZLE_ROWS)], CHUNK_BYTES) for c in range(chunks))
    lanes = tgt.subgroup_size
    writes = sum(banks.conflicts([at(*divmod(i, chunks)) for i in range(w, w + lanes)], CHUNK_BYTES)
                 for w in range(0, SWIZZLE_ROWS * chunks, lanes))
    return reads + writes, stride


def busiest_simd(workgroups: int, warps: int, warp_rows: int, tgt: Target) -> fractions.Fraction:
    """Row tiles (16 rows against every key) the busiest SIMD computes, in row-tile times, for
    `workgroups` of `warps` warps of `warp_rows` row tiles on the target's compute units: the
    busiest unit runs ceil(workgroups / units) of them, its warps spread over its SIMDs, each
    warp's tiles in turn on one. 0 where the target's units are unknown (every shape ties)."""
    units, simds = tgt.compute_units, tgt.simds_per_cu or 1
    if not units:
        return fractions.Fraction(0)
    per_unit = math.ceil(workgroups / units)
    return fractions.Fraction(per_unit * warps * warp_rows, min(simds, per_unit * warps))


def plan_mma(p: AttentionProblem, tgt: Target, knobs: MmaKnobs = MmaKnobs(),
             v_keys_inner: bool | None = None) -> AttentionPlan | None:
    """mma.sync m16n8k16 (emit_mma.py; the choices: the module docstring), cp.async copies of
    16 bytes; for head dims of multiples of 16 up to MMA_MAX_HEAD (the accumulators of O and
    S: at 128 with 32 rows a warp, 128 + 64 registers a thread, Q in LDS), with more
    rows than MMA_MIN_ROWS (fewer: decode, memory-bound, which ldsopt-split-attention splits
    and the FMA kernel's key splits fill the threads instead). V held keys innermost (V^T; or
    `v_keys_inner`, to ask of the other layout): its LDS tile is [value dim, keys], copied
    along the keys, whose count the copies must divide. None where the knobs do not fit."""
    intrinsic = mma.INTRINSICS.get((mma.family(tgt.backend, tgt.arch), str(p.elem_type)))
    if intrinsic is None or not intrinsic.name.startswith("NV_MMA_SYNC") or intrinsic.b_load is None \
            or not tgt.async_copy:
        return None
    d1, dn = p.size(p.k1), p.size(p.n)
    if d1 % intrinsic.k or dn % intrinsic.k or max(d1, dn) > MMA_MAX_HEAD or p.size(p.row) <= MMA_MIN_ROWS:
        return None
    keys = knobs.keys or MMA_KEYS
    vt = p.v_keys_inner if v_keys_inner is None else v_keys_inner
    # V^T's rows are copied in 16-byte chunks along the keys: a key count they divide (not one
    # read at run time, whose rows are not known to start aligned).
    if keys % intrinsic.k or (vt and (p.k2 in p.extents or p.size(p.k2) % copy_vector(p, tgt))):
        return None
    eb = element_bits(p.elem_type) // 8
    stages = knobs.stages or MMA_STAGES
    # (row, rows) of each LDS tile: K's [keys, d1], V's [keys, dn] or, V^T, [dn, keys].
    tiles = [(d1, keys), (keys, dn) if vt else (dn, keys)]
    layouts = []  # (conflicts, LDS bytes a stage of K and V, swizzle, Q's row) of each layout that applies
    for swizzle in {"xor": (True,), "pad": (False,)}.get(knobs.lds_layout, (True, False)):
        prices = [layout_price(row * eb, swizzle, tgt) for row, _ in tiles]
        if None not in prices:
            stage_bytes = sum(rows * stride for (_, rows), (_, stride) in zip(tiles, prices))
            layouts.append((sum(c for c, _ in prices), stage_bytes, swizzle, prices[0][1]))
    rows = p.size(p.row)
    shapes = []
    for _, stage_bytes, swizzle, q_row in sorted(layouts):
        for warps, warp_rows in _shapes(knobs):
            bm = warps * intrinsic.m * warp_rows
            lds = stages * stage_bytes
            q_lds = warp_rows > 1 and max(d1, dn) > MMA_Q_REGISTERS_HEAD and lds + bm * q_row <= tgt.lds_bytes
            # Two row tiles of Q past MMA_Q_REGISTERS_HEAD stay in registers only when the knobs ask for them.
            q_fits = q_lds or warp_rows == 1 or max(d1, dn) <= MMA_Q_REGISTERS_HEAD or knobs.rows_per_warp
            if warps * intrinsic.subgroup > tgt.max_threads or lds > tgt.lds_bytes or not q_fits or \
                    (bm > MMA_MAX_ROWS and not (knobs.warps and knobs.rows_per_warp)):
                continue
            load = busiest_simd(math.ceil(rows / bm) * p.groups, warps, warp_rows, tgt)
            shapes.append((load, -bm, -warp_rows, warps, swizzle, q_lds))
        if shapes:  # the cheapest layout where some shape fits
            break
    if not shapes:
        return None
    _, bm, warp_rows, warps, swizzle, q_lds = min(shapes)
    return AttentionPlan(intrinsic.name, -bm, keys, 1, warps * intrinsic.subgroup, 1, copy_vector(p, tgt),
                         -warp_rows, stages, swizzle, q_lds=q_lds)


def _shapes(knobs: MmaKnobs) -> list[tuple[int, int]]:
    """(warps, row tiles a warp) the plan chooses from: the knobs' where given."""
    tiles = [knobs.rows_per_warp // 16] if knobs.rows_per_warp else [2, 1]
    warps = [knobs.warps] if knobs.warps else list(MMA_WARPS)
    return [(w, t) for w in warps for t in tiles]


def plan_mfma(p: AttentionProblem, tgt: Target, v_keys_inner: bool | None = None) -> AttentionPlan | None:
    """gfx942's MFMA 16x16x16 (emit_mfma.py): 4 waves of 16 rows, 64 keys a tile (32 where two
    LDS tiles of 64 do not fit: head dim 128), for head dims of multiples of 32 (16-byte fragment
    reads of two K steps) up to MMA_MAX_HEAD, with more rows than MMA_MIN_ROWS; V with its value
    dim innermost (`v_keys_inner`: asks of that layout, whatever the problem's)."""
    intrinsic = mma.INTRINSICS.get((mma.family(tgt.backend, tgt.arch), str(p.elem_type)))
    vt = p.v_keys_inner if v_keys_inner is None else v_keys_inner
    if intrinsic is None or intrinsic.name not in ("MFMA_F32_16x16x16_F16", "MFMA_F32_16x16x16_BF16") or vt:
        return None
    d1, dn = p.size(p.k1), p.size(p.n)
    if d1 % 32 or dn % 16 or max(d1, dn) > MMA_MAX_HEAD or p.size(p.row) <= MMA_MIN_ROWS:
        return None
    eb = element_bits(p.elem_type) // 8
    for keys in (MMA_KEYS, MMA_KEYS // 2):
        lds = 2 * (keys * (d1 + 8) + dn * (keys + 8)) * eb
        if lds <= tgt.lds_bytes:
            return AttentionPlan(intrinsic.name, MMA_FIXED_WARPS * intrinsic.m, keys, 1, MMA_FIXED_WARPS * intrinsic.subgroup, 1,
                                 copy_vector(p, tgt))
    return None


def matrix_cores_decline_v_keys_inner(p: AttentionProblem, tgt: Target, knobs: MmaKnobs = MmaKnobs()) -> bool:
    """V held keys innermost, which a matrix-core kernel would take with V the other way (and
    IREE's own kernel takes: not of a dynamic key count, where IREE 3.13 fails, "Padding
    OnlineAttention without existing mask is not yet supported", and the FMA kernel takes it)."""
    return p.v_keys_inner and p.norm is not None and p.k2 not in p.extents and \
        not (plan_mma(p, tgt, knobs) or plan_mfma(p, tgt)) and \
        bool(plan_mma(p, tgt, knobs, v_keys_inner=False) or plan_mfma(p, tgt, v_keys_inner=False))


@dataclasses.dataclass(frozen=True)
class WgmmaKnobs:
    """What ldsopt-attention's options fix of the wgmma plan: whether to use it at all, its
    warpgroups of query rows a workgroup (0: the plan's), the overlap of P V with the next
    softmax, the kv splits (0: the plan's)."""

    use: bool = True
    warpgroups: int = 0
    overlap: bool = False
    kv_splits: int = 0


def wgmma_refusal(p: AttentionProblem, tgt: Target, knobs: MmaKnobs = MmaKnobs(),
                  wgmma: WgmmaKnobs = WgmmaKnobs()) -> str | None:
    """Why the wgmma kernel (emit_wgmma.py) does not take the attention on `tgt` (None: it does;
    `plan_wgmma` plans it)."""
    d1, dn = p.size(p.k1), p.size(p.n)
    if not tgt.wgmma:
        return f"wgmma needs sm_90a (the target is {tgt.arch})"
    if not wgmma.use:
        return "wgmma=false asks for the mma.sync kernel"
    if str(p.elem_type) not in ("f16", "bf16"):
        return f"wgmma takes f16 and bf16 ({p.elem_type})"
    if p.norm is None:
        return "the split-KV partial form (few query rows) takes the FMA kernel"
    if p.size(p.row) <= MMA_MIN_ROWS:
        return f"{p.size(p.row)} query rows: decode, memory-bound (the FMA kernel's key splits)"
    if d1 not in WGMMA_HEADS or dn not in WGMMA_HEADS:
        return f"head dims {d1} and {dn}: the wgmma kernel takes {' and '.join(map(str, WGMMA_HEADS))}"
    if p.v_keys_inner:
        return "V held keys innermost (V^T): the wgmma kernel reads V's value dim contiguous"
    if p.mask is not None and p.mask_kind == "float":
        return "a float mask loaded tile by tile: the mma.sync kernel is faster there"
    if knobs != MmaKnobs():
        return "the mma-* options fix the mma.sync kernel"
    return None


def plan_wgmma(p: AttentionProblem, tgt: Target, knobs: WgmmaKnobs = WgmmaKnobs()) -> AttentionPlan | None:
    """Hopper's wgmma kernel (emit_wgmma.py) where `wgmma_refusal` has no reason: a warpgroup of
    128 threads per 64 query rows, WGMMA_KEYS keys a tile, WGMMA_STAGES LDS tiles of K and V
    (cp.async), Q's tile in LDS, everything in the 128-byte swizzle. Two warpgroups of rows a
    workgroup (each K and V tile copied once for 128 rows) where the grid of 128-row workgroups
    still fills every SM; else one (BERT's 12 heads of 512 rows: 96 workgroups of 64 rows rather
    than 48 of 128 on the H200's 132 SMs), and a second warpgroup on the same rows takes every
    other key tile instead (`kv_splits` = WGMMA_KV_SPLITS groups, tiles s, s + KS, ... each in
    LDS tiles of its own, combined through LDS at the end) where there are two tiles or more and
    the LDS holds both groups' tiles (head dim 64): the SM then has two warpgroups' work.
    `knobs.warpgroups` (1 or 2) and `knobs.kv_splits` (1 or 2; splits only with one warpgroup
    of rows) fix them. `knobs.overlap`: each tile's P V wgmmas run on while the next tile's S is
    computed and its softmax runs (FlashAttention-3's intra-warpgroup overlap), which keeps V's
    tile one round longer: an LDS tile more; no kv splits then."""
    if wgmma_refusal(p, tgt, wgmma=knobs) is not None:
        return None
    warpgroups, overlap = knobs.warpgroups, knobs.overlap
    d1, dn, eb = p.size(p.k1), p.size(p.n), element_bits(p.elem_type) // 8
    units = tgt.compute_units or 1
    if not warpgroups:
        warpgroups = 2 if math.ceil(p.size(p.row) / 128) * p.groups >= units else 1
    many_tiles = p.k2 in p.extents or math.ceil(p.size(p.k2) / WGMMA_KEYS) >= 2
    stages = WGMMA_STAGES + overlap
    for wg in sorted({warpgroups, 1}, reverse=True):
        bm = 64 * wg
        splits = (knobs.kv_splits or (WGMMA_KV_SPLITS if many_tiles else 1)) if wg == 1 and not overlap else 1
        for ks in sorted({splits, 1}, reverse=True):
            lds = ks * stages * WGMMA_KEYS * (d1 + dn) * eb + bm * d1 * eb + (ks - 1) * wgmma_combine_bytes(bm, dn)
            if lds <= tgt.lds_bytes and 128 * wg * ks <= tgt.max_threads:
                return AttentionPlan("wgmma", bm, WGMMA_KEYS, ks, 128 * wg, 1, copy_vector(p, tgt), 1, stages,
                                     swizzle=True, q_lds=True, overlap=overlap)
    return None


def wgmma_combine_bytes(bm: int, dn: int) -> int:
    """LDS of one kv split's partials for the combine of the wgmma kernel, f32: O's bm x dn
    accumulators and the running max and sum of each thread's two rows (bm / 64 warpgroups of
    128 threads)."""
    return bm * (dn + 8) * 4


def plan(p: AttentionProblem, tgt: Target, use_mma: bool = True, knobs: MmaKnobs = MmaKnobs(),
         wgmma: WgmmaKnobs = WgmmaKnobs()) -> AttentionPlan | None:
    """The matrix-core plan where the target and problem have one (and `use_mma`): Hopper's
    wgmma kernel first (sm_90a, as `wgmma` asks), else mma.sync's or MFMA's, else FMA's. The
    partial form (split-KV chunks: decode, few rows) takes the FMA kernel."""
    if not use_mma or p.norm is None:
        return plan_fma(p, tgt)
    return ((knobs == MmaKnobs() and plan_wgmma(p, tgt, wgmma)) or plan_mma(p, tgt, knobs) or plan_mfma(p, tgt)
            or plan_fma(p, tgt))
