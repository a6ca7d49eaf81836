"""Direct-to-LDS (DTL) staging layouts: the thread -> element map, the LDS placement, and the
bank-model choice between them (seed 003; hipBLASLt PR #2487).

The copy. A matmul operand's tile (`rows x cols`, cols contiguous in global memory *and* in
LDS: DTL cannot transpose) is moved in lanes of `vec = lane_bytes / elem_bytes` elements (4
bytes: gfx942's only DMA size and the default; cp.async also copies 8 or 16).
Chunk `c = tid + threads * j` owns LDS storage index `u = c * vec` (the tile's elements in LDS
storage order, before padding): one wave's load j writes `wave_size` chunks, i.e. one
contiguous run of `wave_size * 4` bytes (256 B on gfx942), from one base, which is all that
`amdgpu.gather_to_lds` (`buffer_load_dword ... lds`, only lane 0's LDS indices count) can do.
Generalized NLC=1: a chunk is split into (row, col) by `cols / vec`, the number of threads along
the coalesced dim, which need not be a power of two (tiles of 96, 160, 192, 320 elements):
the emitter divides by it with a magic multiply-shift whose exact range is proven
(`divider`, ldsopt.magic_div).

The placement (`DtlSpec`, the LDS map `tile_layout.LdsDtl`, printed as `lds_layout`):
- `none`: storage order, no holes;
- `block_pad<E,P>`: P elements of padding after every E (layout.BlockPadded): padding can only
  sit between the runs of whole wave loads (a wave's M0 base advances), so E * elem_bytes is a
  multiple of `wave_size * 4` (the M0 rule; 256 B on gfx942);
- `perm<B,S>` (+ optional block_pad): hipBLASLt's perpDim permutation (layout.PerpPermutation)
  of rows in blocks of B: consecutive logical rows go to different loads, so with block
  padding they start on different banks;
- `rotation<P,Q,C>`: hipBLASLt's blocked rotation (layout.BlockedRotation, PR #4314): chunks of
  C elements of a row rotate within groups of Q, by one every P rows.
Each lane's LDS slot is fixed, so the layout is applied on the *global* side: the lane that
fills storage index u fetches logical element `inner^-1(u)` (the forward permutation /
inverse rotation), and a fragment read of logical (row, col) goes to `address_map(row * cols +
col)` (the inverse permutation / rotation, then the padding). The register path (targets
without DTL) uses the very same maps, so the layout is checked by values where DTL cannot run.

The choice: the shared bank model (ldsopt.banks) prices each candidate's wave writes and
fragment reads (extra cycles per access); the cheapest wins, ties going to less LDS and then
to the simpler kind (none, pad, rotation, perm).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Callable, Optional, Sequence

import numpy as np

from ldsopt.layout import index_expr
from ldsopt.layout.banks import BankModel
from ldsopt.layout.index_expr import Expr
from ldsopt.layout.maps import BlockedRotation, BlockPadded, Composed, LdsMap, Padded, PerpPermutation
from ldsopt.layout.magic_div import MagicDivider

LANE_BYTES = 4           # the DTL transfer of gfx942 (dma_sizes = [32]) and the register path's lane
LANE_CHOICES = (4, 8, 16)  # cp.async copies 4, 8 or 16 bytes (16: `cp.async.cg`, the fewest copies)
INDEX_LIMIT = 1 << 31    # index math must fit a signed 32-bit index (SPIR-V's index width)
KINDS = ("none", "pad", "rotation", "perm")   # simplest first: ties go to the earlier kind

_PART = re.compile(r"(perm|rotation|block_pad)<(\d+(?:,\d+)*)>")

Read = Callable[[int], tuple[int, int, int]]   # one wave-wide read: lane -> (row, col, elements)


@dataclasses.dataclass(frozen=True)
class DtlSpec:
    """An LDS placement of a DTL-staged tile; sizes in elements."""

    perm: Optional[tuple[int, int]] = None            # (B, S)
    rotation: Optional[tuple[int, int, int]] = None   # (P, Q, C)
    block_pad: Optional[tuple[int, int]] = None       # (E, P)

    def __post_init__(self):
        if self.perm and self.rotation:
            raise ValueError("a DTL layout permutes rows or rotates chunks, not both")
        for name, n in (("perm", 2), ("rotation", 3), ("block_pad", 2)):
            if getattr(self, name) is not None and len(getattr(self, name)) != n:
                raise ValueError(f"{name} takes {n} numbers, not {len(getattr(self, name))}")
        # The maps check their own numbers; a row of one rotation group is the narrowest
        # a rotation takes (the tile's own width is checked per dispatch: `check`).
        self.address_map(self.rotation[1] * self.rotation[2] if self.rotation else 1)

    @property
    def kind(self) -> str:
        return "perm" if self.perm else "rotation" if self.rotation else "pad" if self.block_pad else "none"

    @property
    def text(self) -> str:
        parts = [f"{name}<{','.join(map(str, v))}>" for name, v in
                 (("perm", self.perm), ("rotation", self.rotation), ("block_pad", self.block_pad)) if v]
        return "+".join(parts) or "none"

    @classmethod
    def parse(cls, text: str) -> "DtlSpec":
        if text == "none":
            return cls()
        fields = {}
        for part in text.split("+"):
            m = _PART.fullmatch(part)
            if m is None or m.group(1) in fields:
                raise ValueError(f"unknown DTL layout '{text}'")
            fields[m.group(1)] = tuple(int(x) for x in m.group(2).split(","))
        try:
            return cls(**fields)
        except ValueError as e:
            raise ValueError(f"DTL layout '{text}': {e}") from None

    def inner(self, cols: int) -> Optional[LdsMap]:
        """The bijective part (row permutation or chunk rotation), None for the identity."""
        if self.perm:
            return PerpPermutation(*self.perm, row_elems=cols)
        if self.rotation:
            p, q, c = self.rotation
            return BlockedRotation(perp_block=p, stride_tile=1, para_block=q, chunk_elems=c, row_elems=cols)
        return None

    def outer(self, cols: int) -> LdsMap:
        """The padding: storage index -> LDS element offset."""
        # Elements as the unit: 1-byte "elements" in 1-element lanes of 1-lane "waves" make
        # BlockPadded keep E as given (the M0 rule is checked where E is chosen: `candidates`, `check`).
        return BlockPadded(*self.block_pad, elem_bytes=1, wave_size=1, lane_bytes=1) if self.block_pad \
            else Padded(row_elems=cols, pad_elems=0)

    def address_map(self, cols: int) -> LdsMap:
        """Logical index (row * cols + col) -> LDS element offset."""
        inner = self.inner(cols)
        return Composed(inner, self.outer(cols)) if inner else self.outer(cols)

    def offset_expr(self, cols: int, row: Expr, col: Expr, div: index_expr.Exact = index_expr.EXACT) -> Expr:
        """`address_map` of logical tile element (row, col): the inner placement, then the padding
        of the flat index."""
        inner = self.inner(cols)
        if inner:
            row, col = inner.place(row, col, div)
        return self.outer(cols).offset_expr(row * cols + col, 1, div)


@dataclasses.dataclass(frozen=True)
class Chunks:
    """A `rows x cols` tile cut into chunks of `vec` elements in LDS storage order: chunk c
    fills storage index c * vec. The index math of a DTL copy, whatever the element size."""

    rows: int
    cols: int
    vec: int

    @property
    def lanes_per_row(self) -> int:
        """Threads along the coalesced dim (GNLC's divisor; any positive number)."""
        return self.cols // self.vec

    @property
    def chunks(self) -> int:
        return self.rows * self.cols // self.vec

    def chunk_expr(self, c: Expr, spec: DtlSpec, div: index_expr.Exact = index_expr.EXACT
                   ) -> tuple[tuple[Expr, Expr], Expr]:
        """((source row, source col), LDS destination) of chunk c: its storage (row, col) by
        the threads along the coalesced dim (the division `lanes_per_row`), the tile element
        it fetches the inverse of the inner placement there, its destination the padded
        storage index (only padding moves it)."""
        row, lane = div.divmod(c, self.lanes_per_row, "lanes_per_row")
        col = index_expr.scaled(lane, self.vec)
        inner = spec.inner(self.cols)
        if inner:
            row, col = inner.unplace(row, col, div)
        return (row, col), spec.outer(self.cols).offset_expr(c, self.vec, div)


@dataclasses.dataclass(frozen=True)
class Geometry:
    """One operand tile under a DTL copy."""

    rows: int
    cols: int
    elem_bytes: int
    threads: int
    wave_size: int
    lane_bytes: int = LANE_BYTES  # bytes one lane copies

    def __post_init__(self):
        if self.lane_bytes not in LANE_CHOICES or self.lane_bytes % self.elem_bytes or self.cols % self.vec \
                or self.chunks % self.threads or self.threads % self.wave_size:
            raise ValueError(f"{self}: {self.lane_bytes}-byte lanes must tile the rows and whole waves the tile")

    @property
    def vec(self) -> int:
        return self.lane_bytes // self.elem_bytes

    @property
    def tile(self) -> Chunks:
        return Chunks(self.rows, self.cols, self.vec)

    @property
    def lanes_per_row(self) -> int:
        return self.tile.lanes_per_row

    @property
    def chunks(self) -> int:
        return self.tile.chunks

    @property
    def run_elems(self) -> int:
        """Elements one wave load writes contiguously (the M0 granule)."""
        return self.wave_size * self.vec

    def chunk_expr(self, c: Expr, spec: DtlSpec, div: index_expr.Exact = index_expr.EXACT
                   ) -> tuple[tuple[Expr, Expr], Expr]:
        """`Chunks.chunk_expr` of this tile."""
        return self.tile.chunk_expr(c, spec, div)

    def source(self, c: int, spec: DtlSpec) -> tuple[int, int]:
        """Tile (row, col) that chunk c fetches (`chunk_expr`)."""
        return chunk_function(self.tile, spec)(c)[:2]

    def dest(self, c: int, spec: DtlSpec) -> int:
        """LDS element offset chunk c writes (`chunk_expr`)."""
        return chunk_function(self.tile, spec)(c)[2]

    def alloc(self, spec: DtlSpec) -> int:
        return spec.address_map(self.cols).alloc_size(self.rows * self.cols)


@functools.lru_cache(maxsize=256)
def chunk_function(g: Chunks, spec: DtlSpec) -> index_expr.Function:
    (row, col), dest = g.chunk_expr(index_expr.var("c"), spec)
    return index_expr.Function(("c",), (row, col, dest))


def divider(d: int, bound: int) -> MagicDivider:
    """The divider for `x // d` with `0 <= x <= bound`, its exactness on that range proven and
    its product inside a signed 32-bit index; ValueError otherwise (the pass reports it)."""
    div = MagicDivider.for_divisor(d, bound)
    if bound > div.proven_range() or (not div.is_pow2 and bound * div.magic >= INDEX_LIMIT):
        raise ValueError(f"x // {d} for x <= {bound}: magic {div.magic} >> {div.shift} is exact only "
                         f"up to {div.proven_range()} within 32-bit index math")
    return div


# --- the bank model ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Cost:
    write: float   # extra cycles per wave write (load into LDS)
    read: float    # extra cycles per wave fragment read

    @property
    def total(self) -> float:
        return self.write + self.read


@dataclasses.dataclass(frozen=True)
class ReadTable:
    """Fragment reads evaluated once for every layout priced: read a's lane l starts at tile
    (rows[a, l], cols[a, l]) and reads widths[a] elements."""

    rows: np.ndarray
    cols: np.ndarray
    widths: np.ndarray

    @classmethod
    def of(cls, reads: Sequence[Read], wave_size: int) -> "ReadTable":
        table = np.array([[access(lane) for lane in range(wave_size)] for access in reads],
                         dtype=np.int64).reshape(len(reads), wave_size, 3)
        if (table[:, :, 2] != table[:, :1, 2]).any():
            raise ValueError("a fragment read's lanes read different widths")
        return cls(table[:, :, 0], table[:, :, 1], table[:, 0, 2])


def cost(g: Geometry, spec: DtlSpec, reads: ReadTable | Sequence[Read], model: BankModel) -> Optional[Cost]:
    """The model's extra cycles of the first wave's loads and of its fragment reads (`reads`,
    or their table); None when a read would straddle a padding hole or a rotation chunk (such a
    layout cannot serve that read as one access) or start off a multiple of its width (the
    emitter states that alignment)."""
    if not isinstance(reads, ReadTable):
        reads = ReadTable.of(reads, model.wave_size)
    amap = spec.address_map(g.cols)
    # Every wave load j of the first wave: chunks lane + threads * j.
    chunks = np.arange(g.wave_size) + g.threads * np.arange(g.chunks // g.threads)[:, None]
    write = model.conflicts_many(chunk_function(g.tile, spec)(chunks)[2] * g.elem_bytes, g.lane_bytes)
    read = np.zeros(len(reads.widths), dtype=np.int64)
    for width in np.unique(reads.widths):
        which = reads.widths == width
        logical = reads.rows[which] * g.cols + reads.cols[which]
        start = amap(logical)
        run = np.arange(1, width)
        if (start % width).any() or (amap(logical[..., None] + run) != start[..., None] + run).any():
            return None  # the emitter states each read's alignment: n elements
        read[which] = model.conflicts_many(start * g.elem_bytes, int(width) * g.elem_bytes)
    return Cost(float(write.sum()) / len(write), float(read.sum()) / max(1, len(read)))


def check(g: Geometry, spec: DtlSpec, reads: Sequence[Read], model: BankModel, max_alloc: Optional[int] = None) -> Cost:
    """The cost of a layout given by hand, after the checks `candidates` meets by construction:
    ValueError if padding splits a wave load (the M0 rule), a permutation block does not divide
    the rows, a rotation chunk splits a lane, a read straddles a hole or a chunk, or it needs
    more than `max_alloc` elements."""
    if spec.block_pad and spec.block_pad[0] % g.run_elems:
        raise ValueError(f"{spec.text}: padding blocks must be whole wave loads of {g.run_elems} elements")
    if spec.perm and g.rows % spec.perm[0]:
        raise ValueError(f"{spec.text}: the permutation block must divide the {g.rows} rows")
    if spec.rotation and spec.rotation[2] % g.vec:
        raise ValueError(f"{spec.text}: rotation chunks must be whole {g.vec}-element lanes")
    c = cost(g, spec, reads, model)
    if c is None:
        raise ValueError(f"{spec.text}: a fragment read would straddle a padding hole or a rotation chunk")
    if max_alloc is not None and g.alloc(spec) > max_alloc:
        raise ValueError(f"{spec.text}: needs {g.alloc(spec)} LDS elements a buffer, more than the {max_alloc} left")
    return c


def candidates(g: Geometry, read_elems: int) -> list[DtlSpec]:
    """The layouts considered: none; block padding (blocks of 1, 2, 4 wave runs, pads of 1..16
    lanes); the perpDim permutation (blocks of up to 16 rows) with or without block padding; the
    blocked rotation of chunks of max(read, lane) elements. Pads and chunks are multiples of the
    fragment reads so that reads stay aligned."""
    unit = max(read_elems, g.vec)
    pads = [None] + [(g.run_elems * m, unit * p) for m in (1, 2, 4) for p in (1, 2, 4, 8, 16)
                     if (g.run_elems * m) <= g.rows * g.cols]
    out = [DtlSpec(block_pad=b) for b in pads]
    for b in (2, 4, 8, 16):
        if g.rows % b == 0:
            out += [DtlSpec(perm=(b, s), block_pad=p) for s in (2, 4, 8) if s < b and b % s == 0 for p in pads]
    chunks = g.cols // unit
    for q in (2, 4, 8, 16):
        if chunks % q == 0:
            out += [DtlSpec(rotation=(p, q, unit)) for p in (1, 2, 4, 8)]
    return out


def choose(g: Geometry, reads: Sequence[Read], model: BankModel, kinds: Sequence[str] = KINDS, read_elems: int = 1,
           max_alloc: Optional[int] = None) -> tuple[DtlSpec, dict[str, tuple[DtlSpec, Cost]]]:
    """The cheapest layout among `kinds` (ties: less LDS, then the simpler kind), and the best
    of each kind (the report's columns). `max_alloc` bounds the LDS elements of one buffer."""
    best: dict[str, tuple[DtlSpec, Cost]] = {}
    reads = ReadTable.of(reads, model.wave_size)
    for spec in candidates(g, read_elems):
        if spec.kind not in kinds or (max_alloc is not None and g.alloc(spec) > max_alloc):
            continue
        c = cost(g, spec, reads, model)
        if c is None:
            continue
        key = (c.total, g.alloc(spec))
        if spec.kind not in best or key < (best[spec.kind][1].total, g.alloc(best[spec.kind][0])):
            best[spec.kind] = (spec, c)
    if not best:
        raise ValueError(f"no DTL layout of kinds {list(kinds)} fits {g}")
    pick = min(best, key=lambda k: (best[k][1].total, g.alloc(best[k][0]), KINDS.index(k)))
    return best[pick][0], best


def thread_elements(g: Geometry, spec: DtlSpec) -> list[tuple[int, int]]:
    """Tile (row, col) each chunk fetches, in chunk order: the whole thread -> element map."""
    return [g.source(c, spec) for c in range(g.chunks)]



def divisions(g: Geometry | Chunks, spec: DtlSpec) -> dict[str, MagicDivider]:
    """Every static division the emitted index math of (g, spec) does, by name, each proven
    exact over its dividends' range (`divider`; ValueError if one is not)."""
    return {name: divider(d, bound) for name, (d, bound) in division_ranges(g, spec).items()}


def division_ranges(g: Geometry | Chunks, spec: DtlSpec) -> dict[str, tuple[int, int]]:
    """(divisor, largest dividend) of each division of the index math, by name:
    lanes_per_row (chunk -> storage row, lane), block_chunks (storage index -> padding block,
    in chunks), and those of the placement (`placement_division_ranges`)."""
    need = {"lanes_per_row": (g.lanes_per_row, g.chunks - 1)}
    if spec.block_pad:
        need["block_chunks"] = (spec.block_pad[0] // g.vec, g.chunks - 1)
    return {**need, **placement_division_ranges(g.rows, g.cols, spec)}


def placement_division_ranges(rows: int, cols: int, spec: DtlSpec) -> dict[str, tuple[int, int]]:
    """(divisor, largest dividend) of each division of `spec`'s placement of a rows x cols
    tile, by name: block_elems (element index -> padding block), perm_block / perm_sp / perm_s
    (row -> block, within; within by S' or S), rot_perp (row -> rotation), chunk (col ->
    rotated chunk)."""
    need = {}
    if spec.block_pad:
        need["block_elems"] = (spec.block_pad[0], rows * cols - 1)
    if spec.perm:
        b, s = spec.perm
        need.update(perm_block=(b, rows - 1), perm_sp=(b // s, b - 1), perm_s=(s, b - 1))
    if spec.rotation:
        p, _, c = spec.rotation
        need.update(rot_perp=(p, rows - 1), chunk=(c, cols - 1))
    return need


def placement_divisions(rows: int, cols: int, spec: DtlSpec) -> dict[str, MagicDivider]:
    """`divisions` of the placement alone (`placement_division_ranges`)."""
    return {name: divider(d, bound) for name, (d, bound) in placement_division_ranges(rows, cols, spec).items()}
