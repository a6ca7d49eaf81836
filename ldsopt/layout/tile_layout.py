"""How one matrix operand tile travels global -> LDS -> registers: its `TileLayout`.

A matmul kernel stages, per K step, a tile of each operand through LDS. Everything about that
trip is one `TileLayout`, so that the kernel builder emits it from one place and a pass
(inthread_transpose, dtl_layout) rewrites it before the kernel builder runs. It is made of
three parts, each with an integer face (the planners, the bank model ldsopt/layout/banks.py,
the tests) and an index-expression face that the kernel builder emits (ldsopt/layout/index_expr.py:
both faces read one expression, so what the bank model prices is what a kernel computes):

- the thread map: which tile elements chunk `c = tid + threads * j` (j < `chunks_per_thread`)
  moves, the tile being `rows x cols` in the operand's *global* memory order (cols
  contiguous), read by `threads` threads:
  - `RowChunks`, in the global order: a chunk is a register tile of `rake` consecutive rows by
    `vector` columns, read as `rake` vectors; its first element is logical element
    `layout(c)` (a `maps.Layout`; logical index = row * cols + col): column chunks fastest
    (`Lanes.COLS`; with `lane_rows` = R > 1, R row chunks down the rows first, then along),
    or row chunks fastest (`Lanes.ROWS`: consecutive threads down the raked rows). With
    `rake == 1` a chunk's vector is stored as read and the LDS holds the tile in the global
    order; with `rake > 1` (the in-thread transpose) the register tile is transposed first and
    stored as `vector` runs of `rake` elements: the LDS holds the tile transposed, `cols x
    rows`, i.e. in the order of `lds_dims`;
  - `StorageOrder`, in LDS storage order (direct-to-LDS, ldsopt/layout/dtl.py): chunk c fills
    LDS storage index `c * vector` with the tile element the LDS map's placement puts there;
- the LDS map: where a tile element lives in the `buffers` (the kernel's pipeline stages; 2:
  double buffering) LDS copies of the tile, made by its constructors:
  - `LdsRows.padded(cols, pad)` (`maps.Padded`), `LdsRows.rotating(cols, vec, per_phase,
    max_phase)` (Triton's rotating swizzle, `maps.RotatingSwizzle`) or `LdsRows.swizzled(...)`
    (the plain one, `wgmma_maps.SwizzledRows`: wgmma's 128-byte swizzle), each optionally
    `.xor_rows(s)` (LDS row r first moves to row r ^ (r / s % 2), `maps.RowXor`): the LDS rows
    kept whole, a memref `buffers x lds rows x (lds cols + pad)`;
  - `LdsDtl(spec, rows, cols)` (`dtl.DtlSpec`): a flat memref `buffers x elements` in a DTL
    placement (block padding, the perpDim permutation, the blocked rotation);
- the copy: `Registers` (global -> registers -> LDS; with `prefetch = P`, on CUDA, each K step
  prefetches into L1 the lines of its global reads P steps ahead) or `Direct` (the target's
  copy engine, no registers: gather_to_lds or cp.async into the LDS tile of a storage-order
  thread map; cp.async of each unraked row chunk straight to its place in LDS rows (the wgmma
  scheme's swizzled rows); cp.async of each raked row into the thread's own slots of a staging
  buffer of `buffers - 1` tiles, `raw_elems`, read back to be transposed). The kernel builder's copy
  strategies (ldsopt/matmul/copy.py) emit them.

Registers: each thread reads its fragment (`fragment` names the register layout: `fma TxU`, T
elements along M (A) or N (B) by U along K per thread, or a matrix-core intrinsic such as
`MFMA_F32_16x16x16_F16`, whose operand layout is in ldsopt/layout/mma.py) with LDS reads of at
most `read_vector` elements along the LDS rows. With `k_pack = G` (matrix cores) each read group
covers G intrinsic K steps and feeds K slot j of the group (the intrinsic's K index, j < G * K)
with K index `k_order(j)` (mma.k_order): a lane's slots of G steps are then consecutive K
indices, one read along K-contiguous rows (mma.sync f16: 16 bytes for four 4-byte reads) or rows
of static offsets down K-strided ones. The product pairs slot j of A with slot j of B, so both
operands of a kernel have the same order; the LDS holds K in its natural order.

`attr()` prints it as the discardable `ldsopt.staging` dictionary that the kernel builder puts
on the operand's `memref.alloc` (and a rewriting pass on the root op), e.g. for a K-contiguous A:
`{operand = "A", dims = ["m", "k"], lds_order = [1, 0], tile = [64, 16], lds_shape = [2, 64, 20],
pad = 4, swizzle = "none", vector = 4, rake = 1, register_transpose = false, threads = 256,
thread_map = "(4,64):(4,16)", fragment = "fma 4x4", read_vector = 4}`, the other parts' entries
(`copy`, `lds_layout`, `lanes`, `row_xor`, `lane_rows`, `k_pack` and `k_order`, `prefetch`) only
where they are not the default; `from_attr`, the one parser, reads it back.
`lds_order` follows Triton's `order` over the operand's logical dims (A: [m, k], B: [k, n]),
fastest first, of the LDS: [1, 0] is K-contiguous for A and N-contiguous for B.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
import re

from iree.compiler import ir

from ldsopt.layout import dtl, index_expr, mma
from ldsopt.layout.index_expr import Expr
from ldsopt.layout.maps import Composed, Layout, LdsMap, Padded, RotatingSwizzle, RowXor
from ldsopt.layout.wgmma_maps import SwizzledColumnBlocks, SwizzledRows

ATTR = "ldsopt.staging"
_LOGICAL = {"A": ("m", "k"), "B": ("k", "n")}
_SWIZZLE = re.compile(r"(rotating|swizzled)<(\d+),(\d+),(\d+)>")


# --- the thread maps -------------------------------------------------------------------------

class Lanes(enum.Enum):
    """Which chunks consecutive threads of a `RowChunks` map take."""

    COLS = "cols"  # along the contiguous dim (after `lane_rows` row chunks)
    ROWS = "rows"  # down all the raked rows first


@dataclasses.dataclass(frozen=True)
class RowChunks:
    """Chunks of `rake` rows x `vector` columns in the tile's global order (module doc)."""

    tile: tuple[int, int]
    vector: int
    rake: int = 1
    lanes: Lanes = Lanes.COLS
    lane_rows: int = 1

    def __post_init__(self):
        rows, cols = self.tile
        if cols % self.vector or rows % self.rake:
            raise ValueError(f"{self}: chunks must tile the tile")
        if self.lane_rows < 1 or (rows // self.rake) % self.lane_rows or \
                (self.lane_rows > 1 and self.lanes is not Lanes.COLS):
            raise ValueError(f"{self}: lane_rows (lanes cols only) divides the row chunks")

    @property
    def chunks(self) -> int:
        return self.tile[0] // self.rake * (self.tile[1] // self.vector)

    @property
    def transposed(self) -> bool:
        """Whether the LDS holds the tile transposed (a raked register tile, transposed)."""
        return self.rake > 1

    def _modes(self) -> list[tuple[int, str, int]]:
        """The modes of the chunk index, fastest first: (size, "row" or "col", stride in row
        chunks or column chunks)."""
        rows, cols = self.tile[0] // self.rake, self.tile[1] // self.vector
        if self.lanes is Lanes.ROWS:
            return [(rows, "row", 1), (cols, "col", 1)]
        if self.lane_rows > 1:
            r = self.lane_rows
            return [(r, "row", 1), (cols, "col", 1), (rows // r, "row", r)]
        return [(cols, "col", 1), (rows, "row", 1)]

    @property
    def layout(self) -> Layout:
        """Chunk index -> logical element index of its first element."""
        unit = {"row": self.rake * self.tile[1], "col": self.vector}
        modes = self._modes()
        return Layout(tuple(n for n, _, _ in modes), tuple(d * unit[axis] for _, axis, d in modes))

    def source_expr(self, c: Expr) -> tuple[Expr, Expr]:
        """(row, col) in the tile of chunk `c`'s first element: the layout's coordinates of
        `c`, those along each axis combined from the slowest down (c_hi * (d_hi / d_lo) + c_lo),
        then scaled to elements (rows by `rake`, columns by `vector`)."""
        modes = self._modes()
        xs = self.layout.coords_expr(c)
        out = []
        for axis, unit in (("row", self.rake), ("col", self.vector)):
            mine = sorted(((d, x) for (_, a, d), x in zip(modes, xs) if a == axis), key=lambda t: -t[0])
            acc, d_acc = mine[0][1], mine[0][0]
            for d, x in mine[1:]:
                acc, d_acc = acc * (d_acc // d) + x, d
            out.append(index_expr.scaled(acc, unit))
        return out[0], out[1]

    @functools.cached_property
    def _source(self) -> index_expr.Function:
        return index_expr.Function(("c",), self.source_expr(index_expr.var("c")))

    def source(self, c: int, lds=None) -> tuple[int, int]:
        """`source_expr` on ints."""
        return self._source(c)

    def chunk_expr(self, c: Expr, lds=None) -> tuple[tuple[Expr, Expr], None]:
        """(`source_expr`, None): a chunk's LDS place is the LDS map's, at its store."""
        return self.source_expr(c), None

    def write_slices(self) -> list[tuple[int, int, int]]:
        """(register, LDS row offset, elements) of each LDS write of a chunk from its first
        element's LDS (row, col): a transposed chunk writes column j of its register tile
        (`rake` elements) to LDS row + j; an untransposed one its vector."""
        if self.transposed:
            return [(j, j, self.rake) for j in range(self.vector)]
        return [(0, 0, self.vector)]

    def lds_coords(self, row, col):
        """The LDS (row, col) of the tile element at (row, col): swapped where transposed."""
        return (col, row) if self.transposed else (row, col)


@dataclasses.dataclass(frozen=True)
class StorageOrder:
    """Chunks of `vector` elements in LDS storage order (module doc): the thread map of a
    direct-to-LDS copy, which fixes each lane's LDS slot and fetches what the placement puts
    there (`dtl.Chunks`)."""

    tile: tuple[int, int]
    vector: int
    rake = 1
    lanes = Lanes.COLS
    lane_rows = 1
    transposed = False

    def __post_init__(self):
        if self.tile[1] % self.vector:
            raise ValueError(f"{self}: a chunk must not straddle rows")

    @property
    def chunks(self) -> int:
        return self.tile[0] * self.tile[1] // self.vector

    @property
    def layout(self) -> Layout:
        """Chunk index -> storage index of its first element (before the placement)."""
        return Layout((self.tile[1] // self.vector, self.tile[0]), (self.vector, self.tile[1]))

    @property
    def dtl(self) -> dtl.Chunks:
        return dtl.Chunks(self.tile[0], self.tile[1], self.vector)

    def chunk_expr(self, c: Expr, lds: "LdsDtl") -> tuple[tuple[Expr, Expr], Expr]:
        """((row, col) in the tile that chunk `c` fetches, its LDS offset in a buffer)
        (`dtl.Chunks.chunk_expr`, its divisions proven)."""
        return self.dtl.chunk_expr(c, lds.spec, index_expr.Proven(dtl.divisions(self.dtl, lds.spec)))

    def source(self, c: int, lds: "LdsDtl") -> tuple[int, int]:
        """The tile (row, col) that chunk `c` fetches (`chunk_expr` on ints)."""
        return dtl.chunk_function(self.dtl, lds.spec)(c)[:2]

    def write_slices(self) -> list[tuple[int, int, int]]:
        return [(0, 0, self.vector)]

    def lds_coords(self, row, col):
        return row, col


# --- the LDS maps ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class LdsRows:
    """LDS rows of `cols` elements, kept whole (module doc): padded by `pad`, or their columns
    permuted by a rotating swizzle `(vec, per_phase, max_phase)` (or, `rotating` false, the
    plain swizzle of `wgmma_maps.SwizzledRows`: wgmma's 128-byte one; with `column_block` B > 0 as
    well, `wgmma_maps.SwizzledColumnBlocks`: columns in blocks of B, each block's `rows` rows stored
    together, wgmma's MN-major layout); with `row_xor` the rows first move. Indexed [buffer,
    row, col]."""

    cols: int
    pad: int = 0
    swizzle: tuple[int, ...] = ()
    row_xor: int = 0
    rotating_swizzle: bool = True
    column_block: int = 0
    rows: int = 0  # of the tile, for `column_block`

    def __post_init__(self):
        if self.pad < 0 or (self.swizzle and (self.pad or len(self.swizzle) != 3)):
            raise ValueError(f"{self}: a pad >= 0, or a swizzle (vec, per_phase, max_phase) and no pad")
        if self.row_xor < 0 or self.row_xor & (self.row_xor - 1):
            raise ValueError(f"{self}: row_xor is 0 or a power of two")
        if self.column_block and (not self.swizzle or self.rotating_swizzle or self.row_xor or self.rows < 1):
            raise ValueError(f"{self}: column blocks are of the plain swizzle, with the tile's rows")

    @classmethod
    def padded(cls, cols: int, pad: int = 0) -> "LdsRows":
        return cls(cols, pad=pad)

    @classmethod
    def rotating(cls, cols: int, vec: int, per_phase: int, max_phase: int) -> "LdsRows":
        return cls(cols, swizzle=(vec, per_phase, max_phase))

    @classmethod
    def swizzled(cls, cols: int, vec: int, per_phase: int, max_phase: int, column_block: int = 0,
                 rows: int = 0) -> "LdsRows":
        return cls(cols, swizzle=(vec, per_phase, max_phase), rotating_swizzle=False, column_block=column_block,
                   rows=rows)

    def xor_rows(self, stride: int) -> "LdsRows":
        return dataclasses.replace(self, row_xor=stride)

    @property
    def computed(self) -> int:
        """How many of its maps make an access compute its address (a row XOR, a swizzle),
        where a padded row is read at immediate offsets from one base: 0, 1 or 2."""
        return bool(self.row_xor) + bool(self.swizzle)

    @functools.cached_property
    def address_map(self) -> LdsMap:
        """LDS row-major logical index (lds row * lds cols + lds col) -> LDS element offset in
        a buffer (made once: the bank model calls it per element)."""
        if self.column_block:
            return SwizzledColumnBlocks(*self.swizzle, block=self.column_block, rows=self.rows, row_elems=self.cols)
        swizzle = RotatingSwizzle if self.rotating_swizzle else SwizzledRows
        amap = swizzle(*self.swizzle, row_elems=self.cols) if self.swizzle else \
            Padded(row_elems=self.cols, pad_elems=self.pad)
        return Composed(RowXor(self.row_xor, self.cols), amap) if self.row_xor else amap

    def shape(self, lds_rows: int) -> tuple[int, ...]:
        """A buffer's memref shape."""
        return lds_rows, self.cols + self.pad

    def index_exprs(self, row: Expr, col: Expr) -> list[Expr]:
        """The memref indices (after the buffer's) of LDS (row, col)."""
        return list(self.address_map.place(row, col))

    def alignment(self, n: int, elem_bytes: int, shape: tuple[int, ...]) -> int:
        """Bytes of alignment of an access of n (> 1) elements: every map starts one at a
        multiple of n (pads and swizzle units are multiples of the widest access), so a row's
        and a buffer's stride bound it."""
        return math.gcd(n * elem_bytes, shape[-1] * elem_bytes, math.prod(shape[1:]) * elem_bytes)

    @property
    def text(self) -> str:
        return "rows"


@dataclasses.dataclass(frozen=True)
class LdsDtl:
    """A `rows x cols` tile in a flat LDS buffer placed by `spec` (module doc). Indexed
    [buffer, offset]; each division of its index math is a magic multiply-shift proven for its
    range (`dtl.divisions`)."""

    spec: dtl.DtlSpec
    rows: int
    cols: int
    pad = 0
    swizzle = ()
    row_xor = 0
    computed = 0

    @classmethod
    def parse(cls, text: str, rows: int, cols: int) -> "LdsDtl":
        return cls(dtl.DtlSpec.parse(text), rows, cols)

    @functools.cached_property
    def address_map(self) -> LdsMap:
        return self.spec.address_map(self.cols)

    def shape(self, lds_rows: int) -> tuple[int, ...]:
        return (self.address_map.alloc_size(self.rows * self.cols),)

    @functools.cached_property
    def divisions(self) -> index_expr.Proven:
        """The divisions of the placement, each proven for its range (ValueError if one is not)."""
        return index_expr.Proven(dtl.placement_divisions(self.rows, self.cols, self.spec))

    def index_exprs(self, row: Expr, col: Expr) -> list[Expr]:
        return [self.spec.offset_expr(self.cols, row, col, self.divisions)]

    def alignment(self, n: int, elem_bytes: int, shape: tuple[int, ...]) -> int:
        """Bytes of alignment of an access of n (> 1) elements: every placement keeps its
        start a multiple of n (rotation chunks and pads are multiples of the widest read), and
        the buffers' stride too, which the index math hides from LLVM."""
        stride = shape[1] * elem_bytes
        return math.gcd(n * elem_bytes, stride & -stride)

    @property
    def text(self) -> str:
        return self.spec.text


# --- the copies -------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Registers:
    """Global -> registers -> LDS; `prefetch` K steps ahead into L1 (CUDA), 0 none."""

    prefetch: int = 0
    text = "registers"

    def __post_init__(self):
        if self.prefetch < 0:
            raise ValueError(f"{self}: prefetch is a number of K steps >= 0")


@dataclasses.dataclass(frozen=True)
class Direct:
    """Global -> LDS by the target's copy engine, holding no registers."""

    prefetch = 0
    text = "direct"


COPIES = {c.text: c for c in (Registers, Direct)}


# --- the layout -------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class TileLayout:
    operand: str                 # "A" | "B"
    dims: tuple[str, str]        # the tile's dims in global memory order (last contiguous): ("m", "k"), ...
    threads: int
    fragment: str                # the register layout the LDS reads feed
    read_vector: int             # elements of the widest fragment read along an LDS row
    thread_map: RowChunks | StorageOrder
    lds: LdsRows | LdsDtl
    copy: Registers | Direct = Registers()
    buffers: int = 2
    # Set by the planner for a matrix-core fragment: K steps per read group, their K slots
    # fed in `k_order` (module doc).
    k_pack: int = 0

    def __post_init__(self):
        if self.chunks % self.threads:
            raise ValueError(f"{self}: chunks must split evenly over threads")
        storage = isinstance(self.thread_map, StorageOrder)
        if storage != isinstance(self.lds, LdsDtl):
            raise ValueError(f"{self}: a DTL placement is filled in storage order")
        if self.lds.cols != self.lds_tile[1] or (storage and (self.lds.rows, self.lds.cols) != self.tile):
            raise ValueError(f"{self}: the LDS map is of another tile")
        if self.lds.swizzle and self.lds.swizzle[0] % self.write_vector:
            raise ValueError(f"{self}: a swizzle keeps each LDS write in one unit")
        if self.k_pack and self.k_order is None:
            raise ValueError(f"{self}: K slots are packed only for a matrix-core fragment whose lane "
                             "offsets tile its K step, in groups that divide the tile's K")

    @classmethod
    def planned(cls, operand: str, dims: tuple[str, str], tile: tuple[int, int], vector: int, threads: int,
             fragment: str, read_vector: int, pad: int = 0, **rest) -> "TileLayout":
        """An untransposed tile in padded LDS rows, staged through registers."""
        return cls(operand, dims, threads, fragment, read_vector, RowChunks(tile, vector),
                   LdsRows.padded(tile[1], pad), **rest)

    def placed(self, spec: dtl.DtlSpec, vector: int, copy: Registers | Direct) -> "TileLayout":
        """This tile copied in storage order, `vector` elements a chunk, into `spec`'s placement."""
        return dataclasses.replace(self, thread_map=StorageOrder(self.tile, vector), lds=LdsDtl(spec, *self.tile),
                                   copy=copy)

    @property
    def tile(self) -> tuple[int, int]:
        return self.thread_map.tile

    @property
    def vector(self) -> int:
        """Elements per global read (and LDS write unless transposed)."""
        return self.thread_map.vector

    @property
    def rake(self) -> int:
        return self.thread_map.rake

    @property
    def lds_dims(self) -> tuple[str, str]:
        return self.thread_map.lds_coords(*self.dims)

    @property
    def lds_tile(self) -> tuple[int, int]:
        return self.thread_map.lds_coords(*self.tile)

    @property
    def k_contiguous(self) -> bool:
        """Whether the LDS rows run along K (fragment reads along K are then vectors)."""
        return self.lds_dims[1] == "k"

    @property
    def write_vector(self) -> int:
        """Elements of the widest LDS write of a chunk."""
        return max(n for _, _, n in self.thread_map.write_slices())

    @property
    def lds_order(self) -> tuple[int, int]:
        logical = _LOGICAL[self.operand]
        return logical.index(self.lds_dims[1]), logical.index(self.lds_dims[0])

    @property
    def k_order(self) -> Layout | None:
        """K slot -> K index within a read group of `k_pack` intrinsic K steps; None if not packed."""
        if not self.k_pack:
            return None
        intrinsic = mma.BY_NAME.get(self.fragment)
        if intrinsic is None or self.tile[self.dims.index("k")] % (intrinsic.k * self.k_pack):
            return None
        return mma.k_order(intrinsic.a if self.operand == "A" else intrinsic.b, intrinsic.k, self.k_pack)

    @property
    def raw_elems(self) -> int:
        """LDS elements of the staging buffer of a raked tile copied directly (0 else): a slot
        per tile in flight, `buffers - 1`."""
        if not (self.thread_map.transposed and isinstance(self.copy, Direct)):
            return 0
        return self.tile[0] * self.tile[1] * (self.buffers - 1)

    @property
    def chunks(self) -> int:
        return self.thread_map.chunks

    @property
    def chunks_per_thread(self) -> int:
        return self.chunks // self.threads

    @property
    def address_map(self) -> LdsMap:
        """LDS row-major logical index (lds row * lds cols + lds col) -> LDS element offset."""
        return self.lds.address_map

    @property
    def lds_shape(self) -> tuple[int, ...]:
        return (self.buffers, *self.lds.shape(self.lds_tile[0]))

    def chunk_expr(self, c: Expr) -> tuple[tuple[Expr, Expr], Expr | None]:
        """((row, col) in the tile of the first element chunk `c` fetches, its LDS offset in a
        buffer where the thread map fixes it (storage order), else None)."""
        return self.thread_map.chunk_expr(c, self.lds)

    def chunk_coords(self, c: int) -> tuple[int, int]:
        """(row, col) in the tile of the first element chunk `c` fetches (`chunk_expr`)."""
        return self.thread_map.source(c, self.lds)

    def lds_writes(self, c: int) -> list[tuple[int, int, int]]:
        """(LDS row, LDS col, elements) of each LDS write of chunk `c`, before the address map."""
        row, col = self.thread_map.lds_coords(*self.chunk_coords(c))
        return [(row + dr, col, n) for _, dr, n in self.thread_map.write_slices()]

    # --- the attribute: its printer and its one parser ---

    def attr(self) -> ir.Attribute:
        def ints(xs):
            return "[" + ", ".join(map(str, xs)) + "]"

        tm, lds, copy = self.thread_map, self.lds, self.copy
        kind = "rotating" if getattr(lds, "rotating_swizzle", True) else "swizzled"
        swizzle = f"{kind}<{lds.swizzle[0]},{lds.swizzle[1]},{lds.swizzle[2]}>" if lds.swizzle else "none"
        dtl_placed = isinstance(lds, LdsDtl)
        return ir.Attribute.parse(
            f'{{operand = "{self.operand}", dims = ["{self.dims[0]}", "{self.dims[1]}"], '
            f"lds_order = {ints(self.lds_order)}, tile = {ints(self.tile)}, lds_shape = {ints(self.lds_shape)}, "
            f'pad = {lds.pad}, swizzle = "{swizzle}", vector = {self.vector}, rake = {self.rake}, '
            f"register_transpose = {str(tm.transposed).lower()}, threads = {self.threads}, "
            f'thread_map = "{tm.layout}", fragment = "{self.fragment}", read_vector = {self.read_vector}'
            + (f', copy = "{copy.text}"' if isinstance(copy, Direct) or dtl_placed else "")
            + (f', lds_layout = "{lds.text}"' if dtl_placed else "")
            + (f', lanes = "{tm.lanes.value}"' if tm.lanes is not Lanes.COLS else "")
            + (f", row_xor = {lds.row_xor}" if lds.row_xor else "")
            + (f", column_block = {lds.column_block}" if getattr(lds, "column_block", 0) else "")
            + (f", lane_rows = {tm.lane_rows}" if tm.lane_rows > 1 else "")
            + (f', k_pack = {self.k_pack}, k_order = "{self.k_order}"' if self.k_pack else "")
            + (f", prefetch = {copy.prefetch}" if copy.prefetch else "")
            + "}")

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> "TileLayout":
        """The layout `attr()` wrote; derived entries (lds_order, lds_shape, thread_map, ...)
        must agree with the parts, so a hand-edited attribute cannot say two things; ValueError
        otherwise."""
        d = ir.DictAttr(attr)

        def text(key, default=None):
            return ir.StringAttr(d[key]).value if key in d else default

        def ints(key):
            return tuple(ir.IntegerAttr(x).value for x in ir.ArrayAttr(d[key]))

        def integer(key, default=None):
            return ir.IntegerAttr(d[key]).value if key in d else default

        swizzle = _SWIZZLE.fullmatch(text("swizzle"))
        if swizzle is None and text("swizzle") != "none":
            raise ValueError(f"unknown swizzle '{text('swizzle')}' in {attr}")
        copy_kind, placement = COPIES.get(text("copy", "registers")), text("lds_layout", "rows")
        if copy_kind is None:
            raise ValueError(f"unknown copy '{text('copy')}' in {attr}")
        try:
            lanes = Lanes(text("lanes", "cols"))
        except ValueError:
            raise ValueError(f"unknown lanes '{text('lanes')}' in {attr}") from None
        dims = tuple(ir.StringAttr(x).value for x in ir.ArrayAttr(d["dims"]))
        tile, vector, rake = ints("tile"), integer("vector"), integer("rake")
        if placement == "rows":
            thread_map = RowChunks(tile, vector, rake, lanes, integer("lane_rows", 1))
            cols = thread_map.lds_coords(*tile)[1]
            block = integer("column_block", 0)
            lds = LdsRows(cols, integer("pad"), tuple(map(int, swizzle.groups()[1:])) if swizzle else (),
                          integer("row_xor", 0), not swizzle or swizzle.group(1) == "rotating", block,
                          thread_map.lds_coords(*tile)[0] if block else 0)
        else:
            thread_map, lds = StorageOrder(tile, vector), LdsDtl.parse(placement, *tile)
        copy = Registers(integer("prefetch", 0)) if copy_kind is Registers else Direct()
        s = cls(text("operand"), dims, integer("threads"), text("fragment"), integer("read_vector"), thread_map,
                lds, copy, ints("lds_shape")[0], integer("k_pack", 0))
        if s.attr() != attr:
            raise ValueError(f"inconsistent staging layout {attr}: its fields say {s.attr()}")
        return s
