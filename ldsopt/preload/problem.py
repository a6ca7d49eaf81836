"""What ldsopt-preload-transposed plans over (its module docstring states the contract): a
pointwise dispatch collapsed to the fewest dims that stay contiguous and in order in every
operand, in the output's dim order (`PreloadProblem`, `analyze_problem`), and the plan of its
tile, LDS buffers and walks (`PreloadPlan`)."""

from __future__ import annotations

import dataclasses
import enum
import math

from iree.compiler import ir

from ldsopt.codegen.dispatch import Binding, Dispatch
from ldsopt.codegen.elementwise import body_refusal, collapse_groups, map_dims, slice_alignment, slice_facts
from ldsopt.ir_types import element_bits
from ldsopt.remarks import Unmatched


# The extent a dynamic dim is planned for: longer than any tile grows, so the tile spans
# `row-bytes` along it as along any long dim; its vectors take only the static part's factors.
DYNAMIC_EXTENT = 1 << 16


class Marker(enum.Enum):
    """Keys that are neither an input's position nor a dim."""

    OUTPUT = "output"  # the stage key of the output, beside the inputs' positions
    FLAT = "flat"  # a walk's dim, beside the dims: the output's (col_b, a) tile as one range


OUTPUT, FLAT = Marker.OUTPUT, Marker.FLAT
# An LDS buffer's key: the position of the input it stages, or OUTPUT.
StageKey = int | Marker


@dataclasses.dataclass
class Operand:
    binding: Binding
    dims: list[int]  # collapsed iteration dims in the operand's memory order (last: contiguous)
    # A slice of its binding (`slice_facts`): the elements each row starts at a multiple of
    # (0: a whole tensor), and the collapsed dims' strides (None: a whole tensor).
    align: int = 0
    strides: list[int] | None = None

    @property
    def fastest(self) -> int | None:
        return self.dims[-1] if self.dims else None

    @property
    def elem_bytes(self) -> int:
        return max(1, element_bits(self.binding.tensor_type.element_type) // 8)


@dataclasses.dataclass
class PreloadProblem:
    """The dispatch after collapsing, in the output's dim order (the output is the identity)."""

    shape: list[int]         # the extents planned for (a dynamic one's: `DYNAMIC_EXTENT` times its static part)
    groups: list[list[int]]  # original (output-order) dims of each collapsed dim
    inputs: list[Operand]
    output: Operand
    # Dynamic extents (`analyze(..., dynamic=True)`): the original dims read at run time, each
    # the extent of the output's dynamic dim of the same position (`Binding.dims`, in order).
    dynamic: list[int] = dataclasses.field(default_factory=list)
    static: list[int] = dataclasses.field(default_factory=list)  # per collapsed dim, its static part

    @property
    def a(self) -> int:
        return len(self.shape) - 1

    def is_dynamic(self, x: int) -> bool:
        """Whether collapsed dim `x` has an extent read at run time."""
        return any(i in self.dynamic for i in self.groups[x])

    def divisor(self, x: int) -> int:
        """What collapsed dim `x`'s extent is known to be a multiple of: itself, or its static
        part where dynamic."""
        return self.static[x] if self.is_dynamic(x) else self.shape[x]

    def row_alignment(self, x: int) -> int:
        """Elements the rows along dim `x` start at a multiple of in every operand contiguous
        along it (0: no slice is: only the extents bound a vector)."""
        return math.gcd(*(o.align for o in self.inputs + [self.output] if o.fastest == x))

    def transposed(self) -> list[int]:
        """Inputs that vary along `a` but are contiguous along another dim."""
        return [i for i, x in enumerate(self.inputs) if self.a in x.dims and x.fastest != self.a]


Walk = list[tuple[int | Marker, int, int]]
"""How threads step through a tile: the levels (dim, count, step) of a `layout.Walk`, the
fastest first."""


@dataclasses.dataclass
class PreloadPlan:
    """The tile, the LDS buffers and the walks of one dispatch. The tile spans the core dims
    (`a` and every `b`, vectors along them) and, when those are whole and the tile still
    small, dims next to them; its extent is 1 along the others."""

    a: int
    core: list[int]              # `a` and every `b`
    vec: dict[int, int]          # vector width along each core dim
    tile: list[int]              # tile extent per dim
    sources: dict[StageKey, list[int]]  # the memory order each LDS buffer follows
    store_side: bool             # the output goes through LDS (else the transposed inputs do)
    col_b: int | None            # the `b` all LDS buffers share, if they do
    col_g: int = 1               # column walk: lanes along `a` before stepping along col_b
    pads: dict[StageKey, int] = dataclasses.field(default_factory=dict)  # LDS row padding, in elements
    # The bank model's extra cycles of the first wave's (row writes, column reads) of each buffer.
    conflicts: dict[StageKey, tuple[int, int]] = dataclasses.field(default_factory=dict)
    workgroup_size: int = 0
    flat: int = 0                # column walk over the output's (col_b, a) tile as one range: its vector width

    @property
    def tiled(self) -> list[int]:
        """The dims the tile spans, in output order."""
        return sorted(set(self.core) | {x for x, t in enumerate(self.tile) if t > 1})

    def stage(self, key: StageKey) -> list[int]:
        """The dims of an LDS buffer, in its memory order (rows along the last, a `b`)."""
        return [x for x in self.sources[key] if x in self.tiled]

    def row_walk(self, key: StageKey) -> Walk:
        """Row accesses of an LDS buffer (and the global ones of its source): vectors along
        its `b`, then its other dims, innermost first."""
        dims = self.stage(key)
        b = dims[-1]
        return [(b, self.tile[b] // self.vec[b], self.vec[b])] + [(x, self.tile[x], 1) for x in reversed(dims[:-1])]

    @property
    def column_walk(self) -> Walk:
        """Column accesses (the output's order), vectors along `a`: `col_g` lanes side by side
        along `a`, then along col_b, then the rest of `a`, then the other dims."""
        a, va = self.a, self.vec[self.a]
        if self.flat:
            return [(FLAT, self.tile[self.col_b] * self.tile[a] // self.flat, self.flat)] + \
                [(x, self.tile[x], 1) for x in reversed(self.tiled) if x not in (a, self.col_b)]
        walk = [(a, self.col_g, va)]
        if self.col_b is not None:
            walk.append((self.col_b, self.tile[self.col_b], 1))
        walk.append((a, self.tile[a] // va // self.col_g, va * self.col_g))
        return walk + [(x, self.tile[x], 1) for x in reversed(self.tiled) if x not in (a, self.col_b)]

    def pad_choices(self, key: StageKey) -> range:
        """Row paddings tried: up to two row vectors."""
        return range(2 * self.vec[self.sources[key][-1]] + 1)

    def lds_shape(self, key: StageKey, pad: int | None = None) -> list[int]:
        dims = self.stage(key)
        return [self.tile[d] for d in dims[:-1]] + [self.tile[dims[-1]] + (self.pads[key] if pad is None else pad)]


def analyze_problem(d: Dispatch) -> PreloadProblem | Unmatched:
    """The collapsed problem if `d` is a pointwise generic with a transposed input."""
    root = d.root
    if any("parallel" not in str(it) for it in root.attributes["iterator_types"]):
        return Unmatched("not pointwise: it has reduced loops")
    refused = body_refusal(root)
    if refused is not None:
        return Unmatched(refused)
    dims = [map_dims(ir.AffineMapAttr(m).value) for m in root.attributes["indexing_maps"]]
    if any(x is None or len(set(x)) != len(x) for x in dims):
        return Unmatched("an indexing map is not a permutation or projection of the loops")
    out = dims[-1]
    rank = len(root.attributes["iterator_types"])
    if sorted(out) != list(range(rank)):
        return Unmatched("the output does not cover every loop")
    # Renumber loops in the output's order: the output becomes the identity.
    renamed = [[out.index(x) for x in od] for od in dims]
    shape = list(d.output.tensor_type.shape)
    dynamic = [i for i, n in enumerate(shape) if ir.ShapedType.is_dynamic_size(n)]
    breaks, layouts = slice_facts(d.inputs + [d.output], renamed, shape)
    if dynamic and any(x is not None for x in layouts):
        return Unmatched("a slice of a binding under dynamic extents")
    groups = collapse_groups(shape, renamed, breaks)
    group_of = {x: g for g, grp in enumerate(groups) for x in grp}

    def operand(b: Binding, od: list[int], layout: tuple[int, list[int]] | None) -> Operand:
        collapsed = list(dict.fromkeys(group_of[x] for x in od))
        # a group's stride is its innermost dim's (the last of the group, as it is contiguous)
        strides = None if layout is None else [layout[1][od.index(groups[g][-1])] for g in collapsed]
        return Operand(b, collapsed, slice_alignment(layout), strides)

    operands = [operand(*x) for x in zip(d.inputs + [d.output], renamed, layouts)]
    static = [math.prod(shape[x] for x in g if x not in dynamic) for g in groups]
    planned = [n * (DYNAMIC_EXTENT if any(x in dynamic for x in g) else 1) for n, g in zip(static, groups)]
    p = PreloadProblem(planned, groups, operands[:-1], operands[-1], dynamic, static)
    return p if p.transposed() else Unmatched("no input is transposed: none varies along the output's "
                                                      "fastest dim while contiguous along another")


def stores_through_lds(p: PreloadProblem) -> bool:
    """The output is the odd one out: two or more inputs share one contiguous dim `b`, and
    every input that varies along `a` is among them (one LDS buffer instead of several)."""
    t = p.transposed()
    return len(t) >= 2 and len({p.inputs[i].fastest for i in t}) == 1 and \
        all(i in t for i, x in enumerate(p.inputs) if p.a in x.dims)


def widest_pow2_dividing(n: int, limit: int) -> int:
    return math.gcd(n, 1 << (limit.bit_length() - 1))


def row_major(coords: list[int], shape: list[int]) -> int:
    off = 0
    for c, s in zip(coords, shape):
        off = off * s + c
    return off
