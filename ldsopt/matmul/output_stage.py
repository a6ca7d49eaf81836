"""The output tile through LDS on its way out (ldsopt-matmul-lds's `output-lds`).

Why. A matrix-core accumulator leaves each lane a few elements along N: mma.sync's C fragment
2 per row (a warp's store: 8 rows of 16 bytes), gfx942's MFMA 16x16 one per row (four rows down
a column: scalar stores). Stored directly, the output is written in 4- or 2-byte pieces, many
rows per instruction. Staged, each thread writes its pieces, after the consumer and in the
output's type, to a BM x (BN + pad) tile in LDS; the workgroup meets at a barrier; then thread
t copies chunks t, t + threads, ... of `vec` elements (16 bytes where N allows), row-major, so
consecutive threads write consecutive 16-byte pieces of a row and a warp whole lines.

The layout is `layout.Padded` rows, its pad the bank model's choice (ldsopt/layout/banks.py) over the
first wave's piece writes and its copy reads; pads are multiples of the widest access, so every
access stays aligned to its size. A stage that the copy engine drains (tma_store.py) is laid out
as its boxes are instead (`swizzle`).

Refused (the output stays direct): an LDS tile past what the plan leaves of the budget, and
outputs whose copy vectors would be no wider than the pieces already are (nothing to gain).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable, Optional

import numpy as np

from ldsopt.layout import index_expr
from ldsopt.layout.banks import BankModel
from ldsopt.layout.maps import Padded

ATTR = "ldsopt.output_stage"  # on the LDS tile's memref.alloc: {pad, vec}
COPY_BYTES = 16  # the widest global store of a thread (b128 on CUDA and gfx942)

# (row, col, elements) of each output piece a lane writes, from the tile's corner
Writes = Callable[[int], list[tuple[int, int, int]]]


@dataclasses.dataclass(frozen=True)
class OutputStage:
    rows: int      # BM
    cols: int      # BN
    pad: int       # elements after each row
    vec: int       # elements of one copy
    threads: int
    swizzle: object = None  # an address map of the tile in place of the padded rows (tma_store.py)
    alignment: int = 0  # bytes the tile starts at a multiple of, where more than kernel.LDS_ALIGNMENT

    @property
    def address_map(self):
        return self.swizzle or Padded(row_elems=self.cols, pad_elems=self.pad)

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols + self.pad

    @property
    def copies(self) -> int:
        """Copies per thread (the last round guarded where the threads do not divide the chunks)."""
        return math.ceil(self.chunks / self.threads)

    @property
    def chunks(self) -> int:
        return self.rows * self.cols // self.vec

    def copy_origin(self, chunk: index_expr.Expr) -> tuple[index_expr.Expr, index_expr.Expr]:
        """Tile (row, col) of copy chunk `chunk`: rows of cols / vec chunks."""
        row, q = index_expr.EXACT.divmod(chunk, self.cols // self.vec, "copy_row")
        return row, index_expr.scaled(q, self.vec)

    def lds_bytes(self, elem_bytes: int) -> int:
        return self.rows * (self.cols + self.pad) * elem_bytes


def copy_vector(cols: int, n: int, elem_bytes: int, max_elems: int | None) -> int:
    """Elements of one copy: the widest power of two of at most COPY_BYTES (and the target's
    `max_elems`) that divides the tile's and the output's N (a copy is then all inside N or all
    past it)."""
    vec = max(1, min(COPY_BYTES // elem_bytes, max_elems or COPY_BYTES))
    while cols % vec or n % vec:
        vec //= 2
    return vec


def plan(rows: int, cols: int, n: int, threads: int, elem_bytes: int, writes: Writes, model: BankModel,
         lds_left: int, max_elems: int | None = None, needed: bool = False) -> Optional[OutputStage]:
    """The output stage of a BM x BN tile of an output whose N is `n`, written by `threads`
    threads as `writes(lane)` says: the pad with the fewest extra LDS cycles (ties: the
    smallest); None where the copies (of at most `max_elems` elements) would be no wider than
    the widest piece (unless the kernel `needed` the tile in LDS: chunk_stats.py) or the tile
    does not fit the `lds_left` bytes."""
    vec = copy_vector(cols, n, elem_bytes, max_elems)
    pieces = np.array([writes(lane) for lane in range(model.wave_size)], dtype=np.int64)  # (lane, piece, 3)
    widest = int(pieces[:, :, 2].max())
    if vec <= widest and not needed:
        return None
    unit = max(vec, widest)
    best = None
    for pad in range(0, model.num_banks * model.bank_bytes // elem_bytes + 1, unit):
        stage = OutputStage(rows, cols, pad, vec, threads)
        if stage.lds_bytes(elem_bytes) > lds_left:
            break
        cycles = _cycles(stage, pieces, elem_bytes, model)
        if best is None or cycles < best[0]:
            best = (cycles, stage)
    return best[1] if best else None


def _cycles(stage: OutputStage, pieces: np.ndarray, elem_bytes: int, model: BankModel) -> int:
    """Extra LDS cycles of the first wave: its piece writes (`pieces[lane, a]` = (row, col,
    elements)) and its copy reads."""
    pitch = stage.cols + stage.pad
    writes = (pieces[:, :, 0] * pitch + pieces[:, :, 1]) * elem_bytes
    origin = index_expr.Function(("c",), stage.copy_origin(index_expr.var("c")))
    chunks = np.arange(model.wave_size)[:, None] + stage.threads * np.arange(stage.copies)  # (lane, copy)
    row, col = origin(chunks)
    reads = np.where(chunks < stage.chunks, (row * pitch + col) * elem_bytes, -1)
    return model.wave_cycles(writes, pieces[0, :, 2] * elem_bytes) + \
        model.wave_cycles(reads, np.full(stage.copies, stage.vec * elem_bytes))
