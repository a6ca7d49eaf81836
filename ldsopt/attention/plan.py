"""The attention kernel's plan: the scheme (FMA, or a matrix-core intrinsic of ldsopt/mma.py),
query rows and keys per tile, kv-split groups, threads; `plan` chooses it from the problem and
the target, None where nothing fits (the pass then leaves the dispatch, with the reason).

FMA (every target; lavapipe): `lanes` consecutive lanes of a subgroup share a query row (as
many as the subgroup has, each with at least 4 of the head dim where it allows), each
holding an interleaved 1/lanes of its head dim (Q) and value dim (accumulator); a score is
their partial dot products summed by a butterfly. BM rows (at most 16, fewer for fewer query
rows), BN = 16 keys a tile; where the rows leave threads idle (decode), KS kv-split groups
(up to 128 threads, within the LDS) take the key tiles in turn.
"""

from __future__ import annotations

import dataclasses
import math

from ldsopt.layout import mma
from ldsopt.attention.match import AttentionProblem
from ldsopt.ir_types import element_bits
from ldsopt.target import Target

FMA_THREADS = 128       # threads the kv splits of an FMA kernel fill up to
FMA_KEYS = 16           # keys a tile, FMA
FMA_MAX_ROWS = 16
FMA_LANE_ELEMS = 4      # head-dim elements a lane holds at least, where the head dim allows
MMA_WARPS = 4           # warps of 16 query rows each
MMA_KEYS = 64           # keys a tile, mma.sync
MMA_MAX_HEAD = 128
MMA_TWO_ROW_TILES_HEAD = 64  # head dims up to this take two row tiles a warp (O, S, Q: 64 + 64 + 32 registers)
MMA_MIN_ROWS = 16


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

    @property
    def threads(self) -> int:
        return self.kv_splits * self.group_threads

    def row_tiles(self, p: AttentionProblem) -> int:
        return math.ceil(p.size(p.row) / self.bm)

    def lds_bytes(self, p: AttentionProblem) -> int:
        eb = element_bits(p.elem_type) // 8
        tiles = 2 * self.kv_splits * self.bn * (p.size(p.k1) + p.size(p.n)) * eb
        combine = self.kv_splits * self.bm * (p.size(p.n) + 2) * 4 if self.kv_splits > 1 else 0
        return tiles + combine


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
    lanes = _pow2_dividing(heads, max(1, min(tgt.subgroup_size, heads // FMA_LANE_ELEMS)))
    rows = p.size(p.row)
    bm = min(FMA_MAX_ROWS, 1 << max(0, (rows - 1).bit_length()))
    group = bm * lanes
    n_tiles = math.ceil(p.size(p.k2) / FMA_KEYS)
    splits = max(1, min(FMA_THREADS // group, n_tiles))
    while splits >= 1:
        pl = AttentionPlan("fma", bm, FMA_KEYS, splits, group, lanes, copy_vector(p, tgt))
        if pl.lds_bytes(p) <= tgt.lds_bytes and pl.threads <= tgt.max_threads:
            return pl
        splits //= 2
    return None


def plan_mma(p: AttentionProblem, tgt: Target) -> AttentionPlan | None:
    """mma.sync m16n8k16 (emit_mma.py): 4 warps of 16 rows (32 for head dims up to 64), 64 keys
    a tile, cp.async copies of 16 bytes; for head dims of multiples of 16 up to MMA_MAX_HEAD (the accumulators of O and S,
    Q's fragments: at 128, 64 + 32 + 32 registers a thread), with more rows than MMA_MIN_ROWS
    (fewer: decode, memory-bound, the FMA kernel's key splits fill the threads instead)."""
    intrinsic = mma.INTRINSICS.get((mma.family(tgt.backend, tgt.arch), str(p.elem_type)))
    if intrinsic is None or not intrinsic.name.startswith("NV_MMA_SYNC") or intrinsic.b_load is None \
            or not tgt.async_copy:
        return None
    d1, dn = p.size(p.k1), p.size(p.n)
    if d1 % intrinsic.k or dn % intrinsic.k or max(d1, dn) > MMA_MAX_HEAD or p.size(p.row) <= MMA_MIN_ROWS:
        return None
    vector = copy_vector(p, tgt)
    warps = MMA_WARPS
    # Two row tiles a warp (128 rows a workgroup, FlashAttention-2's 32 rows a warp) where the
    # registers allow: each K and V fragment read from LDS then feeds two products.
    warp_rows = 2 if max(d1, dn) <= MMA_TWO_ROW_TILES_HEAD else 1
    pl = AttentionPlan(intrinsic.name, warps * intrinsic.m * warp_rows, MMA_KEYS, 1, warps * intrinsic.subgroup, 1,
                       vector, warp_rows)
    eb = element_bits(p.elem_type) // 8
    lds = 2 * MMA_KEYS * (d1 + dn + 16) * eb
    return pl if lds <= tgt.lds_bytes else None


def plan_mfma(p: AttentionProblem, tgt: Target) -> AttentionPlan | None:
    """gfx942's MFMA 16x16x16 (emit_mfma.py): 4 waves of 16 rows, 64 keys a tile (32 where two
    LDS tiles of 64 do not fit: head dim 128), for head dims of multiples of 32 (16-byte fragment
    reads of two K steps) up to MMA_MAX_HEAD, with more rows than MMA_MIN_ROWS."""
    intrinsic = mma.INTRINSICS.get((mma.family(tgt.backend, tgt.arch), str(p.elem_type)))
    if intrinsic is None or intrinsic.name not in ("MFMA_F32_16x16x16_F16", "MFMA_F32_16x16x16_BF16"):
        return None
    d1, dn = p.size(p.k1), p.size(p.n)
    if d1 % 32 or dn % 16 or max(d1, dn) > MMA_MAX_HEAD or p.size(p.row) <= MMA_MIN_ROWS:
        return None
    eb = element_bits(p.elem_type) // 8
    for keys in (MMA_KEYS, MMA_KEYS // 2):
        lds = 2 * (keys * (d1 + 8) + dn * (keys + 8)) * eb
        if lds <= tgt.lds_bytes:
            return AttentionPlan(intrinsic.name, MMA_WARPS * intrinsic.m, keys, 1, MMA_WARPS * intrinsic.subgroup, 1,
                                 copy_vector(p, tgt))
    return None


def plan(p: AttentionProblem, tgt: Target, use_mma: bool = True) -> AttentionPlan | None:
    """The matrix-core plan where the target and problem have one (and `use_mma`), else FMA's.
    The partial form (split-KV chunks: decode, few rows) takes the FMA kernel."""
    return (use_mma and p.norm is not None and (plan_mma(p, tgt) or plan_mfma(p, tgt))) or plan_fma(p, tgt)
