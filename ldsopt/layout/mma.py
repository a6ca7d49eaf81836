"""Matrix-core intrinsics as lane layouts: which elements of A, B and C each lane holds.

One `Intrinsic` computes C[M x N] += A[M x K] * B[K x N] over one subgroup. For each operand
an `OperandLayout` says where element e of a lane's register vector sits: along the
operand's first dim (M for A and C, N for B) at `first(lane) + d_first[e]`, along its second
dim (K for A and B, N for C) at `second(lane) + d_second[e]`. Layouts are from the AMD matrix
instruction calculator (gfx942 `v_mfma_f32_16x16x16_f16`, `..._bf16`, `v_mfma_f32_16x16x4_f32`,
`v_mfma_i32_16x16x32_i8`) and the PTX ISA (`mma.sync.m16n8k16`, "Matrix Fragments for
mma.m16n8k16"; `mma.sync.m16n8k32` .s8, "Matrix Fragments for mma.m16n8k32").
"""

from __future__ import annotations

import dataclasses
import functools
import re

from iree.compiler import ir
from iree.compiler.dialects import amdgpu

from ldsopt.layout import index_expr
from ldsopt.layout.maps import Layout


@dataclasses.dataclass(frozen=True)
class LaneMap:
    """lane -> (lane // div) % mod * scale."""

    div: int
    mod: int
    scale: int

    def expr(self, lane: index_expr.Expr, lanes: int = 0) -> index_expr.Expr:
        """The map of `lane`, a lane below `lanes` (0: any): the division only past one, the
        remainder only where the lanes reach past `mod` groups, the scale only past one."""
        v = lane // self.div if self.div > 1 else lane
        if not lanes or self.div * self.mod < lanes:
            v = v % self.mod
        return index_expr.scaled(v, self.scale)

    def __call__(self, lane: int) -> int:
        """The map of lane number `lane` (what `expr` computes, for a lane known here: the
        planner's bank model asks for every lane of every candidate plan)."""
        return (lane // self.div) % self.mod * self.scale


@dataclasses.dataclass(frozen=True)
class OperandLayout:
    first: LaneMap
    second: LaneMap
    d_first: tuple[int, ...]
    d_second: tuple[int, ...]
    shape: tuple[int, ...]  # of the register value; () for a scalar

    @property
    def elems(self) -> int:
        return len(self.d_first)

    def coords(self, lane: int) -> list[tuple[int, int]]:
        """(first, second) of each element lane `lane` holds."""
        f, s = self.first(lane), self.second(lane)
        return [(f + df, s + ds) for df, ds in zip(self.d_first, self.d_second)]

    def register_type(self, elem: ir.Type) -> ir.Type:
        return ir.VectorType.get(list(self.shape), elem) if self.shape else elem


@dataclasses.dataclass(frozen=True)
class MatrixLoad:
    """PTX `ldmatrix` (sm_75 and later) of an operand whose lane layout is the one ldmatrix hands
    out: one instruction reads `tiles` 8x8 matrices of 16-bit elements from LDS and gives each
    lane one register (2 elements) of each; read plainly, lane t gets row t // 4, columns
    2 (t % 4) and 2 (t % 4) + 1 of a matrix; transposed (`.trans`), column t // 4 of those two
    rows. Lane l gives the address of row l % 8 of matrix (l // 8) % tiles, which is register
    (l // 8) % tiles of the layout: its 8x8 block starts at (`first`(l), `second`(l)) in the
    operand's (M or N, K) coordinates. The operand's LDS rows are its first dim (K-contiguous:
    read plainly) or K (transposed): either way one lane's row is 8 consecutive elements."""

    tiles: int
    first: LaneMap
    second: LaneMap

    ROW = LaneMap(1, 8, 1)  # the row of its matrix that lane l addresses
    ELEMS = 8               # elements of one matrix row

    def lds_row_col(self, lane: int, k_contiguous: bool) -> tuple[int, int]:
        """(LDS row, LDS col) lane `lane` addresses, from the fragment's corner: rows along M/N
        (K-contiguous, read plainly) or along K (transposed)."""
        f, k, r = self.first(lane), self.second(lane), self.ROW(lane)
        return (f + r, k) if k_contiguous else (k + r, f)

    def emit(self, result: ir.Type, lds: ir.Value, indices: list[ir.Value], transpose: bool) -> ir.Value:
        """`nvgpu.ldmatrix` of the lane's address `indices` into `lds`: the lane's register."""
        i32 = ir.IntegerType.get_signless(32)
        return ir.Operation.create("nvgpu.ldmatrix", results=[result], operands=[lds, *indices],
                                   attributes={"transpose": ir.BoolAttr.get(transpose),
                                               "numTiles": ir.IntegerAttr.get(i32, self.tiles)}).result


@dataclasses.dataclass(frozen=True)
class Intrinsic:
    name: str
    m: int
    n: int
    k: int
    a: OperandLayout
    b: OperandLayout
    c: OperandLayout
    subgroup: int
    a_load: MatrixLoad | None = None  # how A's and B's registers are read from LDS, where
    b_load: MatrixLoad | None = None  # a matrix load gives them whole (else element runs)

    def matrix_load(self, role: str) -> MatrixLoad | None:
        return self.a_load if role == "A" else self.b_load

    def emit(self, a: ir.Value, b: ir.Value, c: ir.Value) -> ir.Value:
        if self.name.startswith("MFMA"):
            return amdgpu.mfma(self.m, self.n, self.k, a, b, c)
        i64 = ir.IntegerType.get_signless(64)
        shape = ir.ArrayAttr.get([ir.IntegerAttr.get(i64, x) for x in (self.m, self.n, self.k)])
        return ir.Operation.create("nvgpu.mma.sync", results=[c.type], operands=[a, b, c],
                                   attributes={"mmaShape": shape}).result


_ROW16 = LaneMap(1, 16, 1)   # lane % 16
_QUAD4 = LaneMap(16, 4, 4)   # 4 * (lane // 16)
_MFMA_16x16x16 = OperandLayout(_ROW16, _QUAD4, (0, 0, 0, 0), (0, 1, 2, 3), (4,))
_MFMA_ACC = OperandLayout(_QUAD4, _ROW16, (0, 1, 2, 3), (0, 0, 0, 0), (4,))
_MFMA_16x16x4 = OperandLayout(_ROW16, LaneMap(16, 4, 1), (0,), (0,), ())
# i8: lane l holds row l % 16, K 8 * (l // 16) + 0..7 (two VGPRs, one i64 to the intrinsic).
_MFMA_16x16x32 = OperandLayout(_ROW16, LaneMap(16, 4, 8), (0,) * 8, tuple(range(8)), (8,))

_GROUP = LaneMap(4, 8, 1)    # lane // 4
_PAIR = LaneMap(1, 4, 2)     # 2 * (lane % 4)
_MMA_A = OperandLayout(_GROUP, _PAIR, (0, 0, 8, 8, 0, 0, 8, 8), (0, 1, 0, 1, 8, 9, 8, 9), (4, 2))
_MMA_B = OperandLayout(_GROUP, _PAIR, (0, 0, 0, 0), (0, 1, 8, 9), (2, 2))
_MMA_ACC = OperandLayout(_GROUP, _PAIR, (0, 0, 8, 8), (0, 1, 0, 1), (2, 2))
# m16n8k16's A registers are the 8x8 blocks at (M, K) (0, 0), (8, 0), (0, 8), (8, 8); B's at
# (N, K) (0, 0), (0, 8).
_LDMATRIX_A = MatrixLoad(4, LaneMap(8, 2, 8), LaneMap(16, 2, 8))
_LDMATRIX_B = MatrixLoad(2, LaneMap(1, 1, 0), LaneMap(8, 2, 8))
# ldmatrix.x4 of two m16n8k16 B fragments at once: those of two consecutive N tiles (lane l
# addresses N 8 ((l // 16) % 2), K 8 ((l // 8) % 2)); registers 0, 1 are the first tile's,
# 2, 3 the second's. Read plainly or `.trans` alike (`MatrixLoad.lds_row_col`).
LDMATRIX_B_PAIR = MatrixLoad(4, LaneMap(16, 2, 8), LaneMap(8, 2, 8))
# m16n8k32 s8: each 4-byte register holds 4 K-consecutive i8 at K 4 * (lane % 4); A's registers
# are rows g, g + 8, g, g + 8 at K +0, +0, +16, +16 (g = lane // 4), B's (one column g) K +0, +16.
_QUAD = LaneMap(1, 4, 4)     # 4 * (lane % 4)
_MMA_A_I8 = OperandLayout(_GROUP, _QUAD, (0,) * 4 + (8,) * 4 + (0,) * 4 + (8,) * 4,
                          (0, 1, 2, 3) * 2 + (16, 17, 18, 19) * 2, (4, 4))
_MMA_B_I8 = OperandLayout(_GROUP, _QUAD, (0,) * 8, (0, 1, 2, 3, 16, 17, 18, 19), (2, 4))

# (target family, input type) -> intrinsic. f32 on CUDA has none: tf32 would lose precision.
# i8 accumulates in i32 (C's layout is the f32 one); mma.sync's s8 form saturates (.satfinite,
# as nvgpu lowers it) where llvm-cpu's i32 sum would wrap: only past 2^31, which the i8 products
# of K < 2^17 never reach.
INTRINSICS = {
    ("cdna3", "f16"): Intrinsic("MFMA_F32_16x16x16_F16", 16, 16, 16, _MFMA_16x16x16, _MFMA_16x16x16, _MFMA_ACC, 64),
    ("cdna3", "bf16"): Intrinsic("MFMA_F32_16x16x16_BF16", 16, 16, 16, _MFMA_16x16x16, _MFMA_16x16x16, _MFMA_ACC, 64),
    ("cdna3", "f32"): Intrinsic("MFMA_F32_16x16x4_F32", 16, 16, 4, _MFMA_16x16x4, _MFMA_16x16x4, _MFMA_ACC, 64),
    ("sm80", "f16"): Intrinsic("NV_MMA_SYNC_F32_16x8x16_F16", 16, 8, 16, _MMA_A, _MMA_B, _MMA_ACC, 32,
                               _LDMATRIX_A, _LDMATRIX_B),
    ("sm80", "bf16"): Intrinsic("NV_MMA_SYNC_F32_16x8x16_BF16", 16, 8, 16, _MMA_A, _MMA_B, _MMA_ACC, 32,
                                _LDMATRIX_A, _LDMATRIX_B),
    ("cdna3", "i8"): Intrinsic("MFMA_I32_16x16x32_I8", 16, 16, 32, _MFMA_16x16x32, _MFMA_16x16x32, _MFMA_ACC, 64),
    ("sm80", "i8"): Intrinsic("NV_MMA_SYNC_I32_16x8x32_I8", 16, 8, 32, _MMA_A_I8, _MMA_B_I8, _MMA_ACC, 32),
}


BY_NAME = {i.name: i for i in INTRINSICS.values()}


@functools.cache
def k_order(layout: OperandLayout, k: int, steps: int) -> Layout | None:
    """K slot -> K index for a read group of `steps` consecutive K steps (of `k`) of the
    intrinsic, such that each lane's slots of all the steps are consecutive K indices (one
    LDS read along K fetches them): the lanes' K offsets c_0 < c_1 < ... (`layout.second`)
    and the elements' K offsets e_0 < e_1 < ... (E of them, `layout.d_second`) must tile
    [0, k); slot c_i + e_j + s * k (step s) is fed K index (i * steps + s) * E + j. As a
    Layout over [0, k * steps) (a permutation of the index bits), None when the offsets do
    not tile K or the order is no bit permutation. mma.sync m16n8k16, 2 steps: lane quad t's
    A slots 2t, 2t+1, 2t+8, 2t+9 and the same + 16 read K 8t .. 8t+7, one 16-byte read for
    what took four 4-byte reads; MFMA 16x16x16 f16, 2 steps: 8 K, ds_read_b128 for two
    ds_read_b64."""
    lane_offsets = sorted({layout.second(lane) for lane in range(64)})  # 64 lanes cover every lane map here
    elems = sorted(set(layout.d_second))
    table = [-1] * (k * steps)
    for i, c in enumerate(lane_offsets):
        for j, e in enumerate(elems):
            for s in range(steps):
                x = c + e + s * k
                if x >= len(table) or table[x] >= 0 or c + e >= k:
                    return None
                table[x] = (i * steps + s) * len(elems) + j
    return Layout.of_bit_permutation(table) if -1 not in table else None


def packed_lane_map(layout: OperandLayout, steps: int) -> LaneMap:
    """The K index of the lane's first slot under `k_order(layout, k, steps)`: its i-th K offset
    reads from i * steps * E."""
    m = layout.second
    return LaneMap(m.div, m.mod, steps * len(set(layout.d_second)))


def packed_elements(layout: OperandLayout, steps: int) -> list[list[tuple[int, int]]]:
    """Per K step s < `steps`, each register element's (first-dim offset, K index offset) from
    the lane's base under `k_order(layout, k, steps)`."""
    elems = sorted(set(layout.d_second))
    return [[(f, s * len(elems) + elems.index(e)) for f, e in zip(layout.d_first, layout.d_second)]
            for s in range(steps)]


def family(backend: str, arch: str) -> str | None:
    """The intrinsic family of a target: gfx940-942 (CDNA3) or CUDA sm_80 and later."""
    if backend == "rocm" and arch in ("gfx940", "gfx941", "gfx942"):
        return "cdna3"
    sm = re.fullmatch(r"sm_(\d+)a?", arch)
    if backend == "cuda" and sm and int(sm.group(1)) >= 80:
        return "sm80"
    return None


def runs(coords: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(first element, length) of each run of consecutive elements whose coords step by one
    along the second coordinate with the first fixed: what one contiguous access covers."""
    out: list[list[int]] = []
    for e, (f, s) in enumerate(coords):
        if out and coords[e - 1] == (f, s - 1):
            out[-1][1] += 1
        else:
            out.append([e, 1])
    return [(e, n) for e, n in out]
