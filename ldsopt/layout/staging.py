"""How one matrix operand tile travels global -> LDS -> registers: the staging layout.

A matmul kernel stages, per K step, a tile of each operand through LDS. Everything about
that trip is one `StagingLayout`, so that the kernel builder emits it from one place and a
pass (inthread_transpose, dtl_layout) rewrites it before the kernel builder runs:

- global read: the tile is read in the operand's *global* memory order, `rows x cols` (cols
  contiguous in memory), by `threads` threads. Chunk `c = tid + threads * j` (j <
  `chunks_per_thread`) is a register tile of `rake` consecutive rows by `vector` columns,
  read as `rake` vectors of `vector` elements; its first element is logical element
  `thread_map(c)` (a `layout.Layout`; logical index = row * cols + col): column chunks
  fastest, or with `lanes = "rows"` row chunks fastest (consecutive threads down the rows);
- registers -> LDS: with `rake == 1` the vector is stored as read, and the LDS holds the tile
  in the global order. With `rake > 1` (`register_transpose`, the in-thread transpose) the
  register tile is transposed first and stored as `vector` runs of `rake` elements: the LDS
  holds the tile transposed, `cols x rows`, i.e. in the order of `lds_dims`;
- LDS: `buffers` (the kernel's pipeline stages; 2: double buffering) copies of the tile in `lds_dims` order, each LDS row
  padded by `pad` elements (`layout.Padded`) or, with `swizzle = (vec, per_phase,
  max_phase)`, its columns permuted by Triton's rotating swizzle (`layout.RotatingSwizzle`;
  never both); with `row_xor = s`, LDS row r first moves to row r ^ (r / s % 2)
  (`layout.RowXor`); the memref is `buffers x lds rows x (lds cols + pad)`;
- registers: each thread reads its fragment (`fragment` names the register layout: `fma TxU`,
  T elements along M (A) or N (B) by U along K per thread, or a matrix-core intrinsic such as
  `MFMA_F32_16x16x16_F16`, whose operand layout is in ldsopt/layout/mma.py) with LDS reads of at
  most `read_vector` elements along the LDS rows. With `k_pack = G` (matrix cores) each read
  group covers G intrinsic K steps and feeds K slot j of the group (the intrinsic's K index,
  j < G * K) with K index `k_order(j)` (mma.k_order): a lane's slots of G steps are then
  consecutive K indices, one read along K-contiguous rows (mma.sync f16: 16 bytes for four
  4-byte reads) or rows of static offsets down K-strided ones. The product pairs slot j of A
  with slot j of B, so both operands of a kernel have the same order; the LDS holds K in
  its natural order.

`attr()` serializes it as the discardable `ldsopt.staging` dictionary that the kernel builder
puts on the operand's `memref.alloc` (and a rewriting pass on the root op), e.g. for a
K-contiguous A:
`{operand = "A", dims = ["m", "k"], lds_order = [1, 0], tile = [64, 16], lds_shape = [2, 64, 20],
pad = 4, swizzle = "none", vector = 4, rake = 1, register_transpose = false, threads = 256,
thread_map = "(4,64):(4,16)", fragment = "fma 4x4", read_vector = 4}`; `from_attr` reads it back.
`lds_order` follows Triton's `order` over the operand's logical dims (A: [m, k], B: [k, n]),
fastest first, of the LDS: [1, 0] is K-contiguous for A and N-contiguous for B.
"""

from __future__ import annotations

import dataclasses
import functools
import re

from iree.compiler import ir

from ldsopt.layout import index_expr
from ldsopt.layout import mma
from ldsopt.layout.dtl import DtlSpec
from ldsopt.layout.index_expr import Expr
from ldsopt.layout.maps import Composed, Layout, LdsMap, Padded, RotatingSwizzle, RowXor

ATTR = "ldsopt.staging"
_LOGICAL = {"A": ("m", "k"), "B": ("k", "n")}
_ROTATING = re.compile(r"rotating<(\d+),(\d+),(\d+)>")


@dataclasses.dataclass(frozen=True)
class StagingLayout:
    operand: str                 # "A" | "B"
    dims: tuple[str, str]        # the tile's dims in global memory order (last contiguous): ("m", "k"), ...
    tile: tuple[int, int]        # rows, cols in that order
    vector: int                  # elements per global read (and LDS write unless transposed)
    threads: int
    pad: int                     # elements after each LDS row
    fragment: str                # the register layout the LDS reads feed
    read_vector: int             # elements of the widest fragment read along an LDS row
    buffers: int = 2
    swizzle: tuple[int, ...] = ()  # (vec, per_phase, max_phase) of a rotating swizzle; () for none
    rake: int = 1                # rows per chunk; > 1: the register tile is transposed into LDS
    # Set by dtl_layout (ldsopt/layout/dtl.py): "direct" copies global -> LDS without registers
    # (gather_to_lds, cp.async); a `lds_layout` other than "rows" is a dtl.DtlSpec placing the
    # tile in a flat `buffers x elements` LDS (pad and swizzle unused). On a transposed staging
    # (inthread_transpose's `copy=direct`) "direct" is cp.async of each raked row into the
    # thread's own slots of a staging buffer (`raw_elems`), read back into registers there to
    # be transposed: the global reads hold no registers. Serialized only when set.
    copy: str = "registers"      # "registers" | "direct"
    lds_layout: str = "rows"     # "rows" (rows padded by `pad` or swizzled) | a dtl.DtlSpec text
    # Set by inthread_transpose. `lanes`: which chunks consecutive threads take, "cols" (along
    # the contiguous dim; with `lane_rows` = R > 1, R row chunks down the rows first, then
    # along) or "rows" (down all the raked rows first). `row_xor` = s > 0: LDS row r
    # is stored at row r ^ (r // s % 2) (layout.RowXor) before the pad or swizzle, so that
    # writes of rows s apart land in the two halves of a bank row. Serialized only when set.
    lanes: str = "cols"
    row_xor: int = 0
    lane_rows: int = 1
    # Set by the planner for a matrix-core fragment: K steps per read group, their K slots
    # fed in `k_order` (see above). Serialized only when set.
    k_pack: int = 0
    # Set by inthread_transpose on CUDA: each K step, every global read of the tile this many
    # K steps ahead is prefetched into L1 (`prefetch.global.L1`), so that the register loads,
    # which ptxas issues after the step's math, find their lines there. Registers only.
    # Serialized only when set.
    prefetch: int = 0

    def __post_init__(self):
        rows, cols = self.tile
        if cols % self.vector or rows % self.rake or self.chunks % self.threads:
            raise ValueError(f"{self}: chunks must tile the tile and split evenly over threads")
        if self.lanes not in ("cols", "rows") or self.row_xor < 0 or self.row_xor & (self.row_xor - 1):
            raise ValueError(f"{self}: lanes is cols or rows, row_xor 0 or a power of two")
        if self.lane_rows < 1 or (rows // self.rake) % self.lane_rows or (self.lane_rows > 1 and self.lanes != "cols"):
            raise ValueError(f"{self}: lane_rows (lanes cols only) divides the row chunks")
        if self.swizzle and (self.pad or len(self.swizzle) != 3 or self.swizzle[0] % self.write_vector):
            raise ValueError(f"{self}: a swizzle has no pad and keeps each LDS write in one unit")
        if self.prefetch < 0 or (self.prefetch and self.copy != "registers"):
            raise ValueError(f"{self}: prefetch is a number of K steps >= 0, of register-staged global reads")
        if self.k_pack and self.k_order is None:
            raise ValueError(f"{self}: K slots are packed only for a matrix-core fragment whose lane "
                             "offsets tile its K step, in groups that divide the tile's K")

    @property
    def register_transpose(self) -> bool:
        return self.rake > 1

    @property
    def lds_dims(self) -> tuple[str, str]:
        return self.dims[::-1] if self.register_transpose else self.dims

    @property
    def lds_tile(self) -> tuple[int, int]:
        return self.tile[::-1] if self.register_transpose else self.tile

    @property
    def k_contiguous(self) -> bool:
        """Whether the LDS rows run along K (fragment reads along K are then vectors)."""
        return self.lds_dims[1] == "k"

    @property
    def write_vector(self) -> int:
        """Elements of the widest LDS write of a chunk."""
        return max(n for _, _, n in self.write_slices())

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
        """LDS elements of the staging buffer of a transposed tile copied directly (0 else): a
        slot per tile in flight, `buffers - 1`."""
        if not (self.register_transpose and self.copy == "direct"):
            return 0
        return self.tile[0] * self.tile[1] * (self.buffers - 1)

    @property
    def chunks(self) -> int:
        rows, cols = self.tile
        return rows // self.rake * (cols // self.vector)

    def _chunk_modes(self) -> list[tuple[int, str, int]]:
        """The modes of the chunk index, fastest first: (size, "row" or "col", stride in row
        chunks or column chunks). Column chunks fastest, or row chunks with `lanes = "rows"`;
        `lane_rows` row chunks, then column chunks."""
        rows, cols = self.tile[0] // self.rake, self.tile[1] // self.vector
        if self.lanes == "rows":
            return [(rows, "row", 1), (cols, "col", 1)]
        if self.lane_rows > 1:
            r = self.lane_rows
            return [(r, "row", 1), (cols, "col", 1), (rows // r, "row", r)]
        return [(cols, "col", 1), (rows, "row", 1)]

    @property
    def thread_map(self) -> Layout:
        """Chunk index -> logical element index of its first element (`_chunk_modes`)."""
        unit = {"row": self.rake * self.tile[1], "col": self.vector}
        modes = self._chunk_modes()
        return Layout(tuple(n for n, _, _ in modes), tuple(d * unit[axis] for _, axis, d in modes))

    def chunk_coords_expr(self, c: Expr) -> tuple[Expr, Expr]:
        """(row, col) in the tile of chunk `c`'s first element: the thread map's coordinates of
        `c`, those along each axis combined from the slowest down (c_hi * (d_hi / d_lo) + c_lo),
        then scaled to elements (rows by `rake`, columns by `vector`)."""
        modes = self._chunk_modes()
        xs = self.thread_map.coords_expr(c)
        out = []
        for axis, unit in (("row", self.rake), ("col", self.vector)):
            mine = sorted(((d, x) for (_, a, d), x in zip(modes, xs) if a == axis), key=lambda t: -t[0])
            acc, d_acc = mine[0][1], mine[0][0]
            for d, x in mine[1:]:
                acc, d_acc = acc * (d_acc // d) + x, d
            out.append(index_expr.scaled(acc, unit))
        return out[0], out[1]

    @functools.cached_property
    def _chunk_coords(self) -> index_expr.Function:
        return index_expr.Function(("c",), self.chunk_coords_expr(index_expr.var("c")))

    @property
    def chunks_per_thread(self) -> int:
        return self.chunks // self.threads

    @functools.cached_property
    def address_map(self) -> LdsMap:
        """LDS row-major logical index (lds row * lds cols + lds col) -> LDS element offset
        (made once: the bank model calls it per element)."""
        cols = self.lds_tile[1]
        if self.lds_layout != "rows":
            return DtlSpec.parse(self.lds_layout).address_map(cols)
        amap = RotatingSwizzle(*self.swizzle, row_elems=cols) if self.swizzle else \
            Padded(row_elems=cols, pad_elems=self.pad)
        return Composed(RowXor(self.row_xor, cols), amap) if self.row_xor else amap

    @property
    def lds_shape(self) -> tuple[int, ...]:
        if self.lds_layout != "rows":
            return self.buffers, self.address_map.alloc_size(self.tile[0] * self.tile[1])
        return self.buffers, self.lds_tile[0], self.lds_tile[1] + self.pad

    def chunk_coords(self, c: int) -> tuple[int, int]:
        """(row, col) in the tile of chunk `c`'s first element (`chunk_coords_expr`)."""
        return self._chunk_coords(c)

    def write_slices(self) -> list[tuple[int, int, int]]:
        """(register, LDS row offset, elements) of each LDS write of a chunk from its first
        element's LDS (row, col): a transposed chunk writes column j of its register tile
        (`rake` elements) to LDS row + j; an untransposed one its vector."""
        if self.register_transpose:
            return [(j, j, self.rake) for j in range(self.vector)]
        return [(0, 0, self.vector)]

    def lds_writes(self, c: int) -> list[tuple[int, int, int]]:
        """(LDS row, LDS col, elements) of each LDS write of chunk `c`, before the address map."""
        row, col = self.chunk_coords(c)
        row, col = (col, row) if self.register_transpose else (row, col)
        return [(row + dr, col, n) for _, dr, n in self.write_slices()]

    def attr(self) -> ir.Attribute:
        def ints(xs):
            return "[" + ", ".join(map(str, xs)) + "]"

        swizzle = "rotating<{},{},{}>".format(*self.swizzle) if self.swizzle else "none"
        return ir.Attribute.parse(
            f'{{operand = "{self.operand}", dims = ["{self.dims[0]}", "{self.dims[1]}"], '
            f"lds_order = {ints(self.lds_order)}, tile = {ints(self.tile)}, lds_shape = {ints(self.lds_shape)}, "
            f'pad = {self.pad}, swizzle = "{swizzle}", vector = {self.vector}, rake = {self.rake}, '
            f"register_transpose = {str(self.register_transpose).lower()}, threads = {self.threads}, "
            f'thread_map = "{self.thread_map}", fragment = "{self.fragment}", read_vector = {self.read_vector}'
            + (f', copy = "{self.copy}"' if self.copy != "registers" or self.lds_layout != "rows" else "")
            + (f', lds_layout = "{self.lds_layout}"' if self.lds_layout != "rows" else "")
            + (f', lanes = "{self.lanes}"' if self.lanes != "cols" else "")
            + (f", row_xor = {self.row_xor}" if self.row_xor else "")
            + (f", lane_rows = {self.lane_rows}" if self.lane_rows > 1 else "")
            + (f', k_pack = {self.k_pack}, k_order = "{self.k_order}"' if self.k_pack else "")
            + (f", prefetch = {self.prefetch}" if self.prefetch else "")
            + "}")

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> "StagingLayout":
        """The layout `attr()` wrote; derived entries (lds_order, lds_shape, thread_map, ...)
        must agree with the fields, so a hand-edited attribute cannot say two things."""
        d = ir.DictAttr(attr)

        def text(key):
            return ir.StringAttr(d[key]).value

        def ints(key):
            return tuple(ir.IntegerAttr(x).value for x in ir.ArrayAttr(d[key]))

        def integer(key):
            return ir.IntegerAttr(d[key]).value

        swizzle = _ROTATING.fullmatch(text("swizzle"))
        if swizzle is None and text("swizzle") != "none":
            raise ValueError(f"unknown swizzle '{text('swizzle')}' in {attr}")
        dims = tuple(ir.StringAttr(x).value for x in ir.ArrayAttr(d["dims"]))
        s = cls(text("operand"), dims, ints("tile"), integer("vector"), integer("threads"), integer("pad"),
                text("fragment"), integer("read_vector"), ints("lds_shape")[0],
                tuple(map(int, swizzle.groups())) if swizzle else (), integer("rake"),
                text("copy") if "copy" in d else "registers", text("lds_layout") if "lds_layout" in d else "rows",
                **({"lanes": text("lanes")} if "lanes" in d else {}),
                **({"row_xor": integer("row_xor")} if "row_xor" in d else {}),
                **({"lane_rows": integer("lane_rows")} if "lane_rows" in d else {}),
                **({"k_pack": integer("k_pack")} if "k_pack" in d else {}),
                **({"prefetch": integer("prefetch")} if "prefetch" in d else {}))
        if s.attr() != attr:
            raise ValueError(f"inconsistent staging layout {attr}: its fields say {s.attr()}")
        return s
