"""How one matrix operand tile travels global -> LDS -> registers: the staging layout.

A matmul kernel stages, per K step, a tile of each operand through LDS. Everything about
that trip is one `StagingLayout`, so that the kernel builder emits it from one place and a
later pass (inthread_transpose, dtl_layout) finds it in the IR and rewrites it:

- global read: the tile is read in the operand's *global* memory order, `rows x cols` (cols
  contiguous in memory), by `threads` threads, each taking vectors of `vector` elements:
  chunk `c = tid + threads * j` (j < `chunks_per_thread`) starts at logical element
  `thread_map(c)` (a `layout.Layout`; logical index = row * cols + col);
- LDS: `buffers` (double buffering) copies of the tile, stored row by row in the same order
  (`swizzle = "none"`), each row padded by `pad` elements (`layout.Padded`); the
  memref is `buffers x rows x (cols + pad)`;
- registers: each thread reads its fragment (`fragment` names the register layout: `fma TxU`,
  T elements along M (A) or N (B) by U along K per thread, or a matrix-core intrinsic such as
  `MFMA_F32_16x16x16_F16`, whose operand layout is in ldsopt/mma.py) with LDS reads of at
  most `read_vector` elements along the LDS rows.

`attr()` serializes it as the discardable `ldsopt.staging` dictionary that the kernel builder
puts on the operand's `memref.alloc`, e.g. for a K-contiguous A:
`{operand = "A", dims = ["m", "k"], lds_order = [1, 0], tile = [64, 16], lds_shape = [2, 64, 20],
pad = 4, swizzle = "none", vector = 4, thread_map = "(4,64):(4,16)", fragment = "fma 4x4", read_vector = 4}`.
`lds_order` follows Triton's `order` over the operand's logical dims (A: [m, k], B: [k, n]),
fastest first: [1, 0] is K-contiguous for A and N-contiguous for B.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.layout import Layout, Padded

ATTR = "ldsopt.staging"
_LOGICAL = {"A": ("m", "k"), "B": ("k", "n")}


@dataclasses.dataclass(frozen=True)
class StagingLayout:
    operand: str                 # "A" | "B"
    dims: tuple[str, str]        # the tile's dims in global memory order (last contiguous): ("m", "k"), ...
    tile: tuple[int, int]        # rows, cols in that order
    vector: int                  # elements per global read and LDS write
    threads: int
    pad: int                     # elements after each LDS row
    fragment: str                # the register layout the LDS reads feed
    read_vector: int             # elements of the widest fragment read along an LDS row
    buffers: int = 2
    swizzle: str = "none"

    def __post_init__(self):
        rows, cols = self.tile
        if cols % self.vector or (rows * cols // self.vector) % self.threads:
            raise ValueError(f"{self}: vectors must tile the rows and chunks split evenly over threads")

    @property
    def k_contiguous(self) -> bool:
        return self.dims[1] == "k"

    @property
    def lds_order(self) -> tuple[int, int]:
        logical = _LOGICAL[self.operand]
        return logical.index(self.dims[1]), logical.index(self.dims[0])

    @property
    def thread_map(self) -> Layout:
        """Chunk index -> logical element index of its first element (column chunks fastest)."""
        rows, cols = self.tile
        return Layout((cols // self.vector, rows), (self.vector, cols))

    @property
    def chunks_per_thread(self) -> int:
        rows, cols = self.tile
        return rows * cols // self.vector // self.threads

    @property
    def address_map(self) -> Padded:
        return Padded(row_elems=self.tile[1], pad_elems=self.pad)

    @property
    def lds_shape(self) -> tuple[int, int, int]:
        return self.buffers, self.tile[0], self.tile[1] + self.pad

    def chunk_coords(self, c: int) -> tuple[int, int]:
        """(row, col) in the tile of chunk `c`'s first element."""
        return divmod(self.thread_map(c), self.tile[1])

    def attr(self) -> ir.Attribute:
        def ints(xs):
            return "[" + ", ".join(map(str, xs)) + "]"

        return ir.Attribute.parse(
            f'{{operand = "{self.operand}", dims = ["{self.dims[0]}", "{self.dims[1]}"], '
            f"lds_order = {ints(self.lds_order)}, tile = {ints(self.tile)}, lds_shape = {ints(self.lds_shape)}, "
            f'pad = {self.pad}, swizzle = "{self.swizzle}", vector = {self.vector}, '
            f'thread_map = "{self.thread_map}", fragment = "{self.fragment}", read_vector = {self.read_vector}}}')
