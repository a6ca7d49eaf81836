"""The LDS maps of Hopper's wgmma operands (ldsopt/matmul/emit_wgmma.py): the 128-byte swizzle
that a wgmma matrix descriptor describes, for K-major operands (`SwizzledRows`) and for MN-major
ones in blocks of 64 columns (`SwizzledColumnBlocks`); row-structured maps of maps.py's kind,
whose `LdsRows` (ldsopt/layout/tile_layout.py) they serve."""

from __future__ import annotations

from dataclasses import dataclass

from ldsopt.layout.index_expr import Expr
from ldsopt.layout.maps import _ceil_div, _is_pow2, _RowStructured, _XorSwizzle


@dataclass(frozen=True)
class SwizzledRows(_XorSwizzle):
    """Triton's ``#ttg.swizzled_shared<vec, perPhase, maxPhase>``: ``RotatingSwizzle``
    without the rotation, ``col' = col ^ ((row // per_phase) % max_phase * vec)``.

    With rows of 128 bytes, 16-byte units (vec = 8 f16) and ``per_phase = 1, max_phase = 8``
    it is the 128-byte swizzle that Hopper's wgmma and TMA read (CuTe's ``Swizzle<3,4,3>`` on
    bytes): unit u of row r lies at unit ``u ^ (r % 8)``, the XOR of address bits [4, 7) with
    bits [7, 10), so a tile whose base is 1024-byte aligned is the layout a wgmma descriptor
    of swizzle mode 128B describes.
    """

    def _phase(self, rows: Expr) -> Expr:
        return rows % self.max_phase


@dataclass(frozen=True)
class SwizzledColumnBlocks(_RowStructured):
    """``SwizzledRows`` of ``block``-element rows: the ``rows x row_elems`` tile is cut into
    column blocks of ``block`` elements, and each block's ``rows`` rows are stored before the
    next block's (offset ``(col // block) * rows * block + row * block + col % block``, that
    column permuted as ``SwizzledRows``). The offset is indexed back as a row of ``row_elems``.

    With blocks of 128 bytes and the 128-byte swizzle it is the layout of an MN-major wgmma
    operand (CuTe's ``Layout_MN_SW128_Atom`` tiled down K, then along M/N): the tile's rows
    run along K, each block of 64 M/N elements is ``rows`` swizzled 128-byte rows, and a
    descriptor steps from block to block by its leading byte offset.
    """

    vec: int
    per_phase: int
    max_phase: int
    block: int
    rows: int
    row_elems: int

    def __post_init__(self):
        if not all(_is_pow2(v) for v in (self.vec, self.per_phase, self.max_phase, self.block)) \
                or self.row_elems % self.block:
            raise ValueError(f"swizzle parameters must be powers of two and blocks divide rows: {self}")

    def _phase(self, row: Expr) -> Expr:
        rows = row // self.per_phase if self.per_phase > 1 else row
        return rows % self.max_phase * self.vec

    def place(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        flat = col // self.block * (self.rows * self.block) + row * self.block + (col % self.block ^ self._phase(row))
        return flat // self.row_elems, flat % self.row_elems

    def unplace(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        flat = row * self.row_elems + col
        within = flat % (self.rows * self.block)
        r = within // self.block
        return r, flat // (self.rows * self.block) * self.block + (within % self.block ^ self._phase(r))

    def alloc_size(self, n: int) -> int:
        return _ceil_div(n, self.row_elems) * self.row_elems


def accumulator_coords(thread: int, n: int) -> list[tuple[int, int]]:
    """(row, column) of each f32 of an m64nNk16 accumulator that thread `thread` (0-127) of the
    warpgroup holds, in register order (PTX ISA, "wgmma .m64nNk16 register fragment layout for
    accumulator matrix D"): warp w's rows 16 w + l / 4 and that + 8, for each 8 columns i the
    columns 8 i + 2 (l % 4) and that + 1: register 4 i + 2 h + e at row 16 w + 8 h + l / 4,
    column 8 i + 2 (l % 4) + e."""
    w, lane = divmod(thread, 32)
    return [(16 * w + 8 * h + lane // 4, 8 * i + 2 * (lane % 4) + e)
            for i in range(n // 8) for h in (0, 1) for e in (0, 1)]


def register_a_coords(thread: int) -> list[tuple[int, int]]:
    """(row, K) of each 16-bit element of an m64nNk16 A operand held in registers that thread
    `thread` holds, in order (4 .b32 registers, each two elements, the first in the low half;
    PTX ISA, "wgmma .m64nNk16 register fragment layout for matrix A"): warp w's rows 16 w + l / 4
    (registers 0 and 2) and that + 8 (1 and 3), K 2 (l % 4) + e (registers 0, 1) and that + 8
    (2, 3)."""
    w, lane = divmod(thread, 32)
    return [(16 * w + lane // 4 + 8 * (r % 2), 2 * (lane % 4) + 8 * (r // 2) + e) for r in range(4) for e in (0, 1)]
