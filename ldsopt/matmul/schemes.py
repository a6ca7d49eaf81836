"""What a matmul plan is made of: the workgroup tiling (`Tiling`, the default `TILINGS`, the
`tiles` option's syntax), the product scheme (`FmaScheme`: per-thread micro-tiles of FMAs;
`MmaScheme`: waves of matrix-core intrinsics, each with the LDS reads of its fragments;
`WgmmaScheme`: Hopper's warpgroup MMA, its operands read by descriptors), and
`MatmulPlan`: the scheme, the K step and each operand's `TileLayout`."""

from __future__ import annotations

import dataclasses
import functools
import math

from ldsopt.layout import mma
from ldsopt import target as target_model
from ldsopt.layout.mma import Intrinsic, OperandLayout
from ldsopt.layout.tile_layout import TileLayout

@dataclasses.dataclass(frozen=True)
class Tiling:
    bm: int
    bn: int
    tm: int  # FMA: the thread's micro-tile, TM x TN; the thread count of both schemes
    tn: int
    ku: int = 4  # FMA: K elements of one fragment read, per LDS row or as rows
    # Offered by default only where BN divides N (planner.wgmma_plan; a tiling asked for by
    # `tiles` is taken wherever it fits). Not part of the tiling's identity.
    dividing: bool = dataclasses.field(default=False, compare=False)

    @property
    def threads(self) -> int:
        return (self.bm // self.tm) * (self.bn // self.tn)


# The tilings `plan` chooses from by `plan_cost`: 256 threads from 128x128 down to 32x32, and
# 64-thread ones for skinny products (M or N up to 16, GEMV-like: a 16-row tile rather than a
# 64-row one, the grid along the long side, B read once).
TILINGS = (Tiling(128, 128, 8, 8), Tiling(128, 64, 8, 4), Tiling(64, 128, 4, 8), Tiling(64, 64, 4, 4),
           Tiling(64, 32, 4, 2), Tiling(32, 64, 2, 4), Tiling(32, 32, 2, 2),
           Tiling(16, 64, 4, 4), Tiling(64, 16, 4, 4), Tiling(16, 32, 2, 4), Tiling(32, 16, 4, 2))


def check_tilings(text: str) -> None:
    """BMxBNxTMxTN,... with TM dividing BM and TN dividing BN."""
    parse_tilings(text)


def check_k_bytes(value: int) -> None:
    """0 (the plan's choice) or a multiple of 16 (a K step of whole 16-byte vectors)"""
    if value % 16:
        raise ValueError(f"{value} is not a multiple of 16")


def parse_tilings(text: str) -> tuple[Tiling, ...]:
    """The `tiles` option: comma-separated `BMxBNxTMxTN` (TM, TN: the FMA micro-tile, which
    also sets the thread count), to choose from; "" for TILINGS. ValueError if malformed."""
    if not text:
        return TILINGS
    out = []
    for item in text.split(","):
        try:
            bm, bn, tm, tn = (int(x) for x in item.strip().split("x"))
        except ValueError:
            raise ValueError(f"tile '{item}' is not BMxBNxTMxTN") from None
        if min(bm, bn, tm, tn) < 1 or bm % tm or bn % tn:
            raise ValueError(f"tile '{item}': TM must divide BM and TN divide BN")
        out.append(Tiling(bm, bn, tm, tn))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class FmaScheme:
    """Thread (ty, tx) owns the TM x TN micro-tile at (ty*TM, tx*TN); per K element, TM x TN
    FMAs on vectors of TN. Fragments: TM (A) or TN (B) by KU per K sub-step of KU."""

    tiling: Tiling

    @property
    def k_step(self) -> int:
        return self.tiling.ku

    def extent(self, role: str) -> int:
        return self.tiling.tm if role == "A" else self.tiling.tn

    def fragment(self, role: str) -> str:
        return f"fma {self.extent(role)}x{self.tiling.ku}"

    def reads(self, role: str, k_contiguous: bool, lane: int, k_pack: int = 0) -> list[tuple[int, int, int]]:
        """(row, col, width) in the LDS tile of each fragment read of `lane`, K sub-step 0
        (`k_pack`: matrix cores only)."""
        per_row = self.tiling.bn // self.tiling.tn
        x0 = (lane // per_row) * self.tiling.tm if role == "A" else (lane % per_row) * self.tiling.tn
        if k_contiguous:
            return [(x0 + i, 0, self.tiling.ku) for i in range(self.extent(role))]
        return [(u, x0, self.extent(role)) for u in range(self.tiling.ku)]


@dataclasses.dataclass(frozen=True)
class MmaScheme:
    """The waves form a WGM x WGN grid over the workgroup tile; each wave owns RM x RN
    intrinsic tiles of its (BM/WGM) x (BN/WGN) part and accumulates them in the intrinsic's
    C layout. Fragments are the intrinsic's A and B operand layouts."""

    tiling: Tiling
    intrinsic: Intrinsic

    @property
    def waves(self) -> tuple[int, int]:
        n = self.tiling.threads // self.intrinsic.subgroup
        wgm = 1 << (n.bit_length() - 1) // 2
        return wgm, n // wgm

    @property
    def reps(self) -> tuple[int, int]:
        wgm, wgn = self.waves
        return self.tiling.bm // wgm // self.intrinsic.m, self.tiling.bn // wgn // self.intrinsic.n

    @property
    def k_step(self) -> int:
        return self.intrinsic.k

    def fits(self) -> bool:
        wgm, wgn = self.waves
        return all(r >= 1 for r in self.reps) and self.tiling.bm % (wgm * self.intrinsic.m) == 0 and \
            self.tiling.bn % (wgn * self.intrinsic.n) == 0

    def layout(self, role: str) -> OperandLayout:
        return self.intrinsic.a if role == "A" else self.intrinsic.b

    def fragment(self, role: str) -> str:
        return self.intrinsic.name

    def k_pack(self, bk: int, bits: int, tgt: target_model.Target, most: int = -1) -> int:
        """K steps per fragment read group, their K slots fed in mma.k_order: the most (at most
        `most` unless -1) whose order exists and is the same for A and B (the product pairs
        their slots), divides the K step `bk` and puts a lane's elements in one read of the
        target's widest vector; 0 for the natural order."""
        k = self.intrinsic.k
        orders = {g: [mma.k_order(self.layout(r), k, g) for r in ("A", "B")] for g in (8, 4, 2, 1)}
        fits = [g for g, (a, b) in orders.items() if (most < 0 or g <= most) and bk % (k * g) == 0 and a is not None
                and a == b and max(len(set(self.layout(r).d_second)) for r in ("A", "B")) * g <= tgt.vector_elems(bits)]
        return fits[0] if fits else 0

    def lane_maps(self, role: str, k_pack: int) -> tuple[mma.LaneMap, mma.LaneMap]:
        """The lane's offsets along M/N and K (of its first K slot's K index when packed)."""
        lay = self.layout(role)
        return lay.first, mma.packed_lane_map(lay, k_pack) if k_pack else lay.second

    def element_coords(self, role: str, k_contiguous: bool, k_pack: int) -> list[list[tuple[int, int]]]:
        """Per K step of one fragment read (k_pack of them, else one), each register element's
        (row, col) offset in the LDS tile from the lane's base."""
        lay = self.layout(role)
        steps = mma.packed_elements(lay, k_pack) if k_pack else [list(zip(lay.d_first, lay.d_second))]
        return [[(x, k) if k_contiguous else (k, x) for x, k in step] for step in steps]

    def matrix_load(self, role: str, k_pack: int) -> mma.MatrixLoad | None:
        """The matrix load that reads the operand's fragments, where the intrinsic has one and
        K is in its natural order (a packed K order is read in element runs)."""
        return None if k_pack else self.intrinsic.matrix_load(role)

    def paired_b_load(self, k_pack: int) -> mma.MatrixLoad | None:
        """The ldmatrix.x4 that reads the B fragments of two consecutive N repetitions at once
        (mma.LDMATRIX_B_PAIR: half the instructions of one x2 each), where B is read by a
        2-tile matrix load and the wave has an even number of N repetitions. Each of its
        8x8 matrices is 8 consecutive LDS rows of 16 bytes, as each of the x2 one's is (`reads`
        prices those), whose pads and row XORs treat any 8 consecutive rows alike."""
        load = self.matrix_load("B", k_pack)
        return mma.LDMATRIX_B_PAIR if load is not None and load.tiles == 2 and self.reps[1] % 2 == 0 else None

    def reads(self, role: str, k_contiguous: bool, lane: int, k_pack: int = 0) -> list[tuple[int, int, int]]:
        """As FmaScheme.reads; by the matrix load where there is one."""
        load = self.matrix_load(role, k_pack)
        if load:  # the row this lane addresses
            x, k, r = load.first(lane), load.second(lane), load.ROW(lane)
            return [(x + r, k, load.ELEMS) if k_contiguous else (k + r, x, load.ELEMS)]
        first, second = self.lane_maps(role, k_pack)
        x, k = first(lane), second(lane)
        row, col = (x, k) if k_contiguous else (k, x)
        return [(row + r, col + c, n) for r, c, n in self._runs(role, k_contiguous, k_pack)]

    @functools.lru_cache(maxsize=None)
    def _runs(self, role: str, k_contiguous: bool, k_pack: int) -> tuple[tuple[int, int, int], ...]:
        """The element runs of one fragment read from a lane's base (the same for every lane:
        the planner's bank model asks for every lane of every candidate plan)."""
        return tuple(row_runs([c for step in self.element_coords(role, k_contiguous, k_pack) for c in step]))


@dataclasses.dataclass(frozen=True)
class WgmmaScheme:
    """Hopper's warpgroup matrix multiply (sm_90a `wgmma.mma_async`, f16/bf16 into f32):
    warpgroup g (warps 4g..4g+3, 128 threads) owns the 64-row slab [64g, 64g + 64) of the
    BM x BN tile and accumulates it in registers with one m64nBNk16 instruction per 16 of K
    (BN / 2 f32 a thread, in the m16n8 C layout of mma.sync repeated along N), both operands
    read from LDS by matrix descriptors: no thread reads a fragment, so the bank model prices
    only the stores (the copies), and the LDS layout is the one the descriptors describe,
    rows of K_ROW elements (128 bytes) in the 128-byte swizzle. `tiling.threads` is BM / 64
    warpgroups; its TM x TN only sets that count."""

    tiling: Tiling
    M = 64
    K = 16
    K_ROW = 64  # elements of one 128-byte LDS row (16-bit types): the K step

    @property
    def k_step(self) -> int:
        return self.K

    @property
    def warpgroups(self) -> int:
        return self.tiling.bm // self.M

    def fragment(self, role: str) -> str:
        return f"wgmma m64n{self.tiling.bn}k16"


# The tilings of the wgmma scheme: BM / 64 warpgroups (128 threads each), BN at most 256
# (wgmma's widest N), the accumulators BN / 2 registers a thread. 64x48 and 64x144 fill one
# wave of 132 SMs with 512-row products of a K-contiguous B (BERT-base's N = 768 and 2304:
# 128 workgroups each; an N-contiguous B takes whole 64-column blocks, planner.wgmma_plan).
# 128x192 packs the waves of mid-sized products (512 x 6144, 4096 x 768: one wave of 128
# tiles; 2048 x 2304: two of 96), only where it divides N: a ragged N loses the copy engine's
# copies (tma_copy.refusal), which the cost model does not price. Measured and left out:
# 64x192 (FFN up's wave), 192x192, and 256x128 ahead of 128x256
# (bench/results/cuda-matmul/wave-tiles-128x192/, and the README's "Measured choices").
WGMMA_TILINGS = (Tiling(128, 256, 8, 16), Tiling(128, 128, 8, 8), Tiling(128, 192, 8, 12, dividing=True),
                 Tiling(64, 256, 8, 16), Tiling(64, 144, 8, 9), Tiling(64, 128, 8, 8), Tiling(64, 64, 8, 4),
                 Tiling(64, 48, 8, 3))


def row_runs(coords: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(row, col, elements) of the runs of consecutive columns in one row that cover `coords`,
    in row then column order: the LDS reads that fetch them."""
    out: list[list[int]] = []
    for r, c in sorted(set(coords)):
        if out and out[-1][0] == r and out[-1][1] + out[-1][2] == c:
            out[-1][2] += 1
        else:
            out.append([r, c, 1])
    return [tuple(x) for x in out]


@dataclasses.dataclass(frozen=True)
class MatmulPlan:
    scheme: FmaScheme | MmaScheme | WgmmaScheme
    bk: int
    staging: dict[str, TileLayout]
    # Workgroups of one cluster that share each output tile, each multiplying its own chunk
    # of the K steps (the wgmma scheme's cluster split, emit_wgmma.py; 1: none).
    split: int = 1
    # Workgroups of one cluster along N that share the row sums of A (row_stats.py), each
    # summing every row_share-th K step of the same rows (the wgmma scheme; 1: none).
    row_share: int = 1

    @property
    def tiling(self) -> Tiling:
        return self.scheme.tiling

    @property
    def stages(self) -> int:
        """LDS tiles of each operand in the K pipeline."""
        return self.staging["A"].buffers

    def lds_bytes(self, elem_bytes: int) -> int:
        return sum(math.prod(s.lds_shape) + s.raw_elems for s in self.staging.values()) * elem_bytes

    def grid(self, sizes: dict[str, int]) -> tuple[int, int, int]:
        """Workgroups along x (N tiles, each `split` workgroups side by side), y (M tiles) and
        z (the batch) for a problem's sizes."""
        t = self.tiling
        return math.ceil(sizes["n"] / t.bn) * self.split, math.ceil(sizes["m"] / t.bm), sizes["b"]
