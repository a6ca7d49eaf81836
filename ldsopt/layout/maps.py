"""The maps of the library, each written once with two faces.

Every pass is a map between (thread, register slot) and tensor coordinates, and between
tensor coordinates and LDS addresses. This module (with `ldsopt.layout.tile_layout`, `ldsopt.layout.mma`,
`ldsopt.layout.dtl` and `ldsopt.reduction.plan`, which build on it) is the one place where those
maps are written down. Each map is built as `ldsopt.layout.index_expr` expressions: evaluated on
ints it is the map the bank model (`ldsopt.layout.banks`), the planners and the tests call; emitted,
it is the `arith` index IR the passes put in kernels. Composition is by expressions: one
map's output expressions are the next one's inputs (``Composed.place``, a tile layout's chunk
coordinates then its address map).

``Layout``
    CuTe's ``shape:stride`` layout, *flat* (no nested modes). As in CuTe, a linear index is
    split into a coordinate **colexicographically** (the first mode varies fastest:
    ``coords``, ``coords_expr``) and the image of a coordinate is the dot product with the
    strides. ``Layout((4, 2), (1, 4))`` is a 4x2 column-major tile.

LDS address maps (``Padded``, ``BlockPadded``, ``XorSwizzle``, ``RotatingSwizzle``, ``RowXor``,
``PerpPermutation``, ``BlockedRotation``, ``Composed``)
    Maps from a *logical* element index of a 2-D tile stored row by row
    (``i = row * row_elems + col``; "row" is whatever the pass keeps contiguous) to an LDS
    element offset. They are injective, may leave holes (padding), and each has
    ``inverse(offset)`` (``None`` on a padding slot) and ``alloc_size(n)`` (LDS elements to
    allocate for logical elements ``[0, n)``). The row-structured ones keep rows whole and
    have an expression face ``place(row, col)`` (and ``unplace``): the LDS (row, col) of a
    tile element in a memref whose rows are the map's rows (a pad is the memref's row
    pitch); the paddings have ``offset_expr``, the flat offset. Divisions are named, so that
    a caller can do them by magic multiply-shifts proven for their ranges (`dtl.divisions`).

``Walk``
    Blocks of an N-D tile visited level by level (preload_transposed's walks): the level
    split of a block index and each dim's coordinate.
"""
from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from typing import Optional, Sequence, Union

from ldsopt.layout import index_expr
from ldsopt.layout.index_expr import Expr

Index = Union[int, Sequence[int]]


def _is_pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# --------------------------------------------------------------------------- Layout


@dataclass(frozen=True)
class Layout:
    """A flat CuTe layout ``shape:stride`` with non-negative strides."""

    shape: tuple[int, ...]
    stride: tuple[int, ...]

    def __post_init__(self):
        shape = (self.shape,) if isinstance(self.shape, int) else tuple(self.shape)
        stride = (self.stride,) if isinstance(self.stride, int) else tuple(self.stride)
        if not shape or len(shape) != len(stride):
            raise ValueError(f"shape {shape} and stride {stride} must be non-empty and of equal rank")
        if any(s < 1 for s in shape) or any(d < 0 for d in stride):
            raise ValueError(f"shapes must be >= 1 and strides >= 0: {shape}:{stride}")
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "stride", stride)

    @classmethod
    def of_bit_permutation(cls, table: Sequence[int]) -> Optional["Layout"]:
        """The layout computing ``table`` (``i -> table[i]`` over ``[0, len(table))``) when it
        permutes the bits of the index (a power-of-two size, each bit sent to one bit,
        ``table[i]`` the sum of the images of ``i``'s bits); None otherwise. Runs of bits sent
        to consecutive bits become one mode: the K slot orders of mma.k_order are such layouts."""
        n = len(table)
        if not _is_pow2(n) or sorted(table) != list(range(n)):
            return None
        bits = n.bit_length() - 1
        images = [table[1 << b] for b in range(bits)]
        if any(not _is_pow2(x) for x in images) or \
                any(table[i] != sum(x for b, x in enumerate(images) if i >> b & 1) for i in range(n)):
            return None
        shape, stride = [], []
        for x in images:
            if shape and x == shape[-1] * stride[-1]:
                shape[-1] *= 2
            else:
                shape.append(2)
                stride.append(x)
        return cls(tuple(shape), tuple(stride)) if shape else cls((1,), (0,))

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of coordinates (the domain is ``[0, size)``)."""
        return math.prod(self.shape)

    def coords_expr(self, x: Expr) -> list[Expr]:
        """`coords` as index expressions of `x` (the last mode without a remainder)."""
        return index_expr.split(x, self.shape)

    def coords(self, i: int) -> tuple[int, ...]:
        """Colexicographic coordinate of linear index ``i`` (first mode fastest)."""
        if not 0 <= i < self.size:
            raise IndexError(f"index {i} outside [0, {self.size}) of {self}")
        out = []
        for s in self.shape:
            i, c = divmod(i, s)
            out.append(c)
        return tuple(out)

    def __call__(self, idx: Index) -> int:
        """Image of a linear index (split colexicographically) or of a coordinate tuple."""
        try:
            coord = self.coords(operator.index(idx))
        except TypeError:
            coord = tuple(idx)
        if len(coord) != self.rank or any(not 0 <= c < s for c, s in zip(coord, self.shape)):
            raise IndexError(f"coordinate {coord} outside shape {self.shape}")
        return sum(c * d for c, d in zip(coord, self.stride))

    def __str__(self) -> str:
        def fmt(t):
            return str(t[0]) if len(t) == 1 else "(" + ",".join(map(str, t)) + ")"
        return f"{fmt(self.shape)}:{fmt(self.stride)}"


# ------------------------------------------------------------------ LDS address maps


class LdsMap:
    """Interface of the LDS address maps: logical element index -> LDS element offset."""

    def __call__(self, i: int) -> int:
        raise NotImplementedError

    def inverse(self, offset: int) -> Optional[int]:
        """Logical index stored at ``offset``, or ``None`` for a padding slot."""
        raise NotImplementedError

    def alloc_size(self, n: int) -> int:
        """LDS elements to allocate so that logical elements ``[0, n)`` fit."""
        raise NotImplementedError

    def place(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        """The LDS (row, col) of tile element (row, col) in a memref whose rows are this map's
        rows: the row-structured maps only."""
        raise NotImplementedError(f"{type(self).__name__} has no row-structured form")


class _RowStructured(LdsMap):
    """A map that keeps rows of ``row_elems`` whole: ``__call__`` and ``inverse`` are the
    integer faces of ``place`` and ``unplace``."""

    row_elems: int

    @functools.cached_property
    def _placed(self) -> index_expr.Function:
        return index_expr.Function(("row", "col"), self.place(index_expr.var("row"), index_expr.var("col")))

    def __call__(self, i: int) -> int:
        row, col = self._placed(*divmod(i, self.row_elems))
        return row * self.row_elems + col

    @functools.cached_property
    def _unplaced(self) -> index_expr.Function:
        return index_expr.Function(("row", "col"), self.unplace(index_expr.var("row"), index_expr.var("col")))

    def unplace(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        """The inverse of ``place`` (the involutions: ``place`` itself)."""
        return self.place(row, col)

    def inverse(self, offset: int) -> Optional[int]:
        row, col = self._unplaced(*divmod(offset, self.row_elems))
        return row * self.row_elems + col


class _PadEvery(LdsMap):
    """``pad`` unused elements after every ``interval`` logical elements."""

    interval: int
    pad: int

    def offset_expr(self, u: Expr, unit: int = 1, div: index_expr.Exact = index_expr.EXACT) -> Expr:
        """The LDS offset of logical index ``u * unit`` (``unit`` dividing the interval):
        ``(u // (interval / unit)) * pad + u * unit``, the index itself without a pad. The
        division is named ``block_elems`` (``block_chunks`` in units of more than one element)."""
        if not self.pad:
            return index_expr.scaled(u, unit)
        blocks = div.quotient(u, self.interval // unit, "block_elems" if unit == 1 else "block_chunks")
        flat = index_expr.scaled(u, unit)
        return blocks * self.pad + flat

    @functools.cached_property
    def _offset(self) -> index_expr.Function:
        return index_expr.Function(("i",), [self.offset_expr(index_expr.var("i"))])

    def __call__(self, i: int) -> int:
        return self._offset(i)[0]

    def inverse(self, offset: int) -> Optional[int]:
        block, rem = divmod(offset, self.interval + self.pad)
        return None if rem >= self.interval else block * self.interval + rem

    def alloc_size(self, n: int) -> int:
        return self(n - 1) + 1 if n > 0 else 0


@dataclass(frozen=True)
class Padded(_PadEvery):
    """Row padding: ``pad_elems`` after every ``rows_per_pad`` rows of ``row_elems``.

    The classic fix for column reads: with 32 banks of 4 B a 32-word row padded by
    one word starts each row on the next bank.
    """

    row_elems: int
    pad_elems: int
    rows_per_pad: int = 1

    def __post_init__(self):
        if self.row_elems < 1 or self.pad_elems < 0 or self.rows_per_pad < 1:
            raise ValueError(f"invalid padding {self}")

    @property
    def interval(self) -> int:
        return self.row_elems * self.rows_per_pad

    @property
    def pad(self) -> int:
        return self.pad_elems

    def place(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        """Unmoved: the pad of a padded row is the memref's row pitch (rows_per_pad 1)."""
        if self.rows_per_pad != 1:
            raise NotImplementedError(f"{self} pads blocks of rows, not each row")
        return row, col


@dataclass(frozen=True)
class BlockPadded(_PadEvery):
    """Padding only between the blocks that one wave's direct-to-LDS load writes.

    A wave's ``buffer_load ... lds`` writes ``wave_size * lane_bytes`` contiguous
    bytes from M0, so padding can only be inserted between loads, by advancing M0.
    hipBLASLt therefore rounds its ``LdsBlockSizePerPad`` up to a multiple of
    ``wave_size * lane_bytes`` (256 B for dword loads on gfx942; hipBLASLt issue
    #3078 is the bug where it came out as 0).  ``block_bytes`` is rounded the same
    way here; ``block_elems`` says what it became.
    """

    block_bytes: int
    pad_bytes: int
    elem_bytes: int
    wave_size: int = 64
    lane_bytes: int = 4

    def __post_init__(self):
        if min(self.block_bytes, self.elem_bytes, self.wave_size, self.lane_bytes) < 1 or self.pad_bytes < 0:
            raise ValueError(f"invalid block padding {self}")
        if self.pad_bytes % self.elem_bytes or self.wave_size * self.lane_bytes % self.elem_bytes:
            raise ValueError(f"pad and wave block must be whole elements: {self}")

    @property
    def block_elems(self) -> int:
        run = self.wave_size * self.lane_bytes
        return _ceil_div(self.block_bytes, run) * run // self.elem_bytes

    @property
    def interval(self) -> int:
        return self.block_elems

    @property
    def pad(self) -> int:
        return self.pad_bytes // self.elem_bytes


@dataclass(frozen=True)
class XorSwizzle(LdsMap):
    """CuTe ``Swizzle<B, M, S>``: ``o ^ ((o & yyy) >> S)`` with ``yyy = (2^B - 1) << (M + S)``.

    Bits ``[M+S, M+S+B)`` of the offset are XORed into bits ``[M, M+B)``: units of
    ``2^M`` elements stay contiguous, and the row selected by the high bits picks
    which unit goes where.  With ``S >= B`` the source and target bits are disjoint,
    so the map is an involution (its own inverse) on every aligned block of
    ``2^(B+M+S)`` elements.  Offsets are in whatever unit the input is (elements).
    """

    bits: int
    base: int
    shift: int

    def __post_init__(self):
        if self.bits < 0 or self.base < 0 or self.shift < self.bits:
            raise ValueError(f"need bits >= 0, base >= 0, shift >= bits: {self}")

    def __call__(self, i: int) -> int:
        yyy = ((1 << self.bits) - 1) << (self.base + self.shift)
        return i ^ ((i & yyy) >> self.shift)

    def inverse(self, offset: int) -> int:
        return self(offset)

    def alloc_size(self, n: int) -> int:
        # Only bits below base+bits change, so images stay in their aligned 2^(base+bits) block.
        unit = 1 << (self.base + self.bits)
        return _ceil_div(n, unit) * unit


@dataclass(frozen=True)
class _XorSwizzle(_RowStructured):
    """``col' = col ^ (phase(row) * vec % row_elems)``: rows of ``row_elems`` whose ``vec``-element
    units are permuted by an XOR with a phase of the row (``_phase``); all parameters powers of
    two. An involution on each row."""

    vec: int
    per_phase: int
    max_phase: int
    row_elems: int

    def __post_init__(self):
        if not all(_is_pow2(v) for v in (self.vec, self.per_phase, self.max_phase, self.row_elems)):
            raise ValueError(f"swizzle parameters must be powers of two: {self}")

    def _phase(self, rows: Expr) -> Expr:
        """The XOR of the units of row group ``rows`` (the row // per_phase)."""
        raise NotImplementedError

    def place(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        rows = row // self.per_phase if self.per_phase > 1 else row
        return row, col ^ self._phase(rows) * self.vec % self.row_elems

    def alloc_size(self, n: int) -> int:
        return _ceil_div(n, self.row_elems) * self.row_elems


@dataclass(frozen=True)
class RotatingSwizzle(_XorSwizzle):
    """Triton's AMD rotating shared layout (``#ttg.amd_rotating_shared<vec, perPhase, maxPhase>``).

    Definition (Triton ``sharedToLinearLayoutAMDRotating``, LinearLayoutConversions.cpp)::

        phase = (row // per_phase) % max_phase
        block = (row // (per_phase * max_phase)) % max_phase
        col'  = col ^ ((vec * (phase ^ block)) % row_elems)

    For the first ``per_phase * max_phase`` rows this is the usual swizzle
    ``((col // vec) ^ phase) * vec + col % vec``; the ``block`` term then changes
    (rotates) the pattern for every further block of rows, so that rows a whole
    swizzle period apart no longer share banks.  All parameters are powers of two
    (Triton's definition is a linear layout over GF(2)); ``row_elems`` is the
    length of the contiguous (K) dimension.
    """

    def _phase(self, rows: Expr) -> Expr:
        return rows % self.max_phase ^ rows // self.max_phase % self.max_phase


@dataclass(frozen=True)
class RowXor(_RowStructured):
    """Row ``r`` stored at row ``r ^ (r // stride % 2)``: in every odd block of ``stride``
    rows, rows swap in pairs.  Rows ``stride`` apart then differ in the lowest row bit, so
    with rows of half a bank row (64 B on 32 x 4 B banks) they fill the two halves: what a
    thread rake writing ``stride`` consecutive rows per lane needs.  An involution."""

    stride: int
    row_elems: int

    def __post_init__(self):
        if not (_is_pow2(self.stride) and self.stride >= 2 and self.row_elems >= 1):
            raise ValueError(f"row_xor stride must be a power of two >= 2: {self}")

    def place(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        return row ^ (row >> self.stride.bit_length() - 1) & 1, col

    def alloc_size(self, n: int) -> int:
        return _ceil_div(n, 2 * self.row_elems) * 2 * self.row_elems


@dataclass(frozen=True)
class PerpPermutation(_RowStructured):
    """hipBLASLt's perpDim permutation of rows, in blocks of ``block`` rows.

    With ``S' = block // stride``, within each block (hipBLASLt PR #2487)::

        forward:  I' = S  * (I  % S') + I  // S'    (global-read offsets)
        backward: I  = S' * (I' % S ) + I' // S     (local-read offsets)

    Under direct-to-LDS each lane's LDS slot is fixed, so the load that fills LDS
    row ``I`` fetches global (logical) row ``forward(I)``, and a local read of
    logical row ``J`` finds it at LDS row ``backward(J)``.  Consecutive logical
    rows thus land in different loads and, with M0 padding between loads, start
    on different banks.  As an :class:`LdsMap` (logical -> LDS) the map is
    ``backward``, applied to the row of ``i = row * row_elems + col``.
    """

    block: int
    stride: int
    row_elems: int = 1

    def __post_init__(self):
        if self.block < 1 or self.stride < 1 or self.block % self.stride or self.row_elems < 1:
            raise ValueError(f"stride must divide block: {self}")

    def row_expr(self, row: Expr, forward: bool, div: index_expr.Exact = index_expr.EXACT) -> Expr:
        """``forward`` or ``backward`` of ``row``; the divisions are named ``perm_block`` (the
        block) and ``perm_sp`` / ``perm_s`` (within it)."""
        sp = self.block // self.stride
        base, j = div.divmod(row, self.block, "perm_block")
        q, r = div.divmod(j, sp if forward else self.stride, "perm_sp" if forward else "perm_s")
        within = r * (self.stride if forward else sp) + q
        return base * self.block + within

    @functools.cached_property
    def _rows(self) -> index_expr.Function:
        row = index_expr.var("row")
        return index_expr.Function(("row",), [self.row_expr(row, True), self.row_expr(row, False)])

    def forward(self, row: int) -> int:
        return self._rows(row)[0]

    def backward(self, row: int) -> int:
        return self._rows(row)[1]

    def place(self, row: Expr, col: Expr, div: index_expr.Exact = index_expr.EXACT) -> tuple[Expr, Expr]:
        return self.row_expr(row, False, div), col

    def unplace(self, row: Expr, col: Expr, div: index_expr.Exact = index_expr.EXACT) -> tuple[Expr, Expr]:
        """The inverse of ``place``: the logical (row, col) stored at LDS (row, col)."""
        return self.row_expr(row, True, div), col

    def alloc_size(self, n: int) -> int:
        rows = _ceil_div(n, self.row_elems)
        return _ceil_div(rows, self.block) * self.block * self.row_elems


@dataclass(frozen=True)
class BlockedRotation(_RowStructured):
    """hipBLASLt's blocked rotation of the K-chunk index (PR #4314, replaces perpDim for TLU=0 + DTL).

    A row of ``row_elems`` is cut into chunks of ``chunk_elems``; chunk ``k`` of row
    ``row`` is stored at chunk::

        (k + row // (perp_block * stride_tile)) & (para_block - 1)

    i.e. every ``perp_block * stride_tile`` rows the chunks rotate by one.  hipBLASLt
    applies this to a chunk index below ``para_block``; here chunks are rotated
    within each aligned group of ``para_block`` chunks (the high bits of ``k`` are
    kept), so a row may hold several groups.
    """

    perp_block: int
    stride_tile: int
    para_block: int
    chunk_elems: int
    row_elems: int

    def __post_init__(self):
        if not _is_pow2(self.para_block) or min(self.perp_block, self.stride_tile, self.chunk_elems) < 1:
            raise ValueError(f"para_block must be a power of two, the rest positive: {self}")
        if self.row_elems % (self.chunk_elems * self.para_block):
            raise ValueError(f"row_elems must be a multiple of chunk_elems * para_block: {self}")

    def _rotated(self, row: Expr, col: Expr, sign: int, div: index_expr.Exact) -> Expr:
        """Chunk k of the row moved to ``k - k % Q + (k + sign * (row / (P * stride))) % Q``
        (masks: Q is a power of two; -rot as Q - rot % Q). The divisions are named
        ``rot_perp`` (row -> rotation) and ``chunk`` (col -> chunk)."""
        q = self.para_block
        mask = index_expr.const(q - 1)
        rot = div.quotient(row, self.perp_block * self.stride_tile, "rot_perp") & mask
        k, e = div.divmod(col, self.chunk_elems, "chunk")
        shift = rot if sign > 0 else q - rot
        kk = (k - (k & mask)) + ((k + shift) & mask)
        return kk * self.chunk_elems + e

    def place(self, row: Expr, col: Expr, div: index_expr.Exact = index_expr.EXACT) -> tuple[Expr, Expr]:
        return row, self._rotated(row, col, +1, div)

    def unplace(self, row: Expr, col: Expr, div: index_expr.Exact = index_expr.EXACT) -> tuple[Expr, Expr]:
        """The inverse of ``place``: the logical (row, col) stored at LDS (row, col)."""
        return row, self._rotated(row, col, -1, div)

    def alloc_size(self, n: int) -> int:
        return _ceil_div(n, self.row_elems) * self.row_elems


@dataclass(frozen=True)
class Composed(LdsMap):
    """``outer(inner(i))``: a placement ``inner`` (a bijection of ``[0, n)``, e.g. a row
    permutation or a chunk rotation) followed by a map that may leave holes (padding)."""

    inner: LdsMap
    outer: LdsMap

    def __call__(self, i: int) -> int:
        return self.outer(self.inner(i))

    def inverse(self, offset: int) -> Optional[int]:
        j = self.outer.inverse(offset)
        return None if j is None else self.inner.inverse(j)

    def alloc_size(self, n: int) -> int:
        return self.outer.alloc_size(self.inner.alloc_size(n))

    def place(self, row: Expr, col: Expr) -> tuple[Expr, Expr]:
        return self.outer.place(*self.inner.place(row, col))


# ------------------------------------------------------------------ walks of a tile


@dataclass(frozen=True)
class Walk:
    """Blocks of an N-D tile visited level by level: level n has ``count`` positions ``step``
    elements apart along dim ``dim``, the first level fastest. Block i is split into its level
    indices colexicographically (a ``Layout`` of shape ``counts``), and its coordinate along a
    dim is the sum of its levels' index * step (a flat CuTe layout per dim)."""

    levels: tuple[tuple[int, int, int], ...]   # (dim, count, step), fastest first

    @property
    def counts(self) -> list[int]:
        return [c for _, c, _ in self.levels]

    @property
    def size(self) -> int:
        return math.prod(self.counts)

    def levels_expr(self, i: Expr) -> list[Expr]:
        """The level indices of block ``i`` (< size)."""
        return index_expr.split(i, self.counts)

    def levels_of_offset(self, t: Expr, bound: int, offset: int) -> Optional[list[Expr]]:
        """The level indices of block ``t + offset`` (``0 <= t < bound``) as ``t``'s own level
        indices plus constants, when no level carries (counts and ``bound`` dividing one
        another); None otherwise. Short index chains: LLVM still sees that vector accesses
        from them are aligned."""
        counts, s, index = self.counts, offset, []
        last = max([n for n, c in enumerate(counts) if c > 1], default=0)
        for n, c in enumerate(counts):
            if n > last:
                index.append(index_expr.const(0))
            elif n == last:
                index.append(index_expr.offset(t, s))
            elif bound % c == 0 and s % c == 0:
                index.append(t % c)
                t, bound, s = t // c, bound // c, s // c
            elif c % bound == 0 and s % bound == 0:
                zero = index_expr.const(0)
                index.append(index_expr.offset(t, s % c))
                t, bound, s = zero, 1, s // c
            else:
                return None
        return index

    def coords_expr(self, index: Sequence[Expr]) -> dict[int, Expr]:
        """Each dim's coordinate of the block with level indices ``index``."""
        coords: dict[int, Expr] = {}
        for (dim, count, step), ix in zip(self.levels, index):
            if count == 1:
                continue
            term = index_expr.scaled(ix, step)
            coords[dim] = coords[dim] + term if dim in coords else term
        for dim, _, _ in self.levels:
            if dim not in coords:
                coords[dim] = index_expr.const(0)
        return coords

    @functools.cached_property
    def _coords(self) -> tuple[tuple[int, ...], index_expr.Function]:
        coords = self.coords_expr(self.levels_expr(index_expr.var("i")))
        return tuple(coords), index_expr.Function(("i",), list(coords.values()))

    def __call__(self, i: int) -> dict[int, int]:
        """Each dim's coordinate of block ``i``."""
        dims, f = self._coords
        return dict(zip(dims, f(i)))
