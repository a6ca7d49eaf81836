"""Convolutions as implicit GEMM: a contraction whose input is read through sums of loops
(`d1 * 2 + d4`, an image's row at an output row and a filter row) is a matmul over groups of
its loops, its operands gathered by index arithmetic instead of a plain 2-D read.

`gemm_view(root)` reads a `linalg.generic` contraction (IREE generalizes
`linalg.conv_2d_nhwc_hwcf`, `_nhwc_fhwc`, `_nchw_fchw` and the 1x1 forms to one) as a `GemmView`:
- the output's loops, in its memory order, end with N (the last run of loops that one input
  reads) after M (the run before it, read by the other input: A); the loops before those are
  the batch (NCHW's image batch, which only the image reads). NHWC: M = (n, oh, ow) of the
  image, N = the filters; NCHW: batch n, M = the filters, N = (oh, ow) of the image. The
  reduced loops are K (window rows, columns, channels), in the order they appear in A or
  in B, whichever lets the longer vectors be read;
- each input's dims are sums of loops times positive strides plus a constant (an image's
  `oh * stride + kh * dilation`), each loop in one dim of it;
- each operand is read along the matrix dim (its own, or K) whose consecutive values are
  consecutive in memory the longest (`_run`: an NHWC image's window columns and channels, a
  stride-1 NCHW image's output columns); the plan's vectors divide that run, so a vector is
  one contiguous read. Where nothing is contiguous but the operand's own dim's last loop alone
  indexes its innermost dim at a stride s (a power of 2: an NCHW image's output columns of a
  1x1 stride-2 convolution, `ow * 2`), that dim's values are every s-th element of a row
  (`_strided_run`, `GemmView.strides`): a vector of n of them is one contiguous, aligned read
  of n * s elements that keeps every s-th (the register staging's; a copy engine moves whole
  lanes, so ldsopt-dtl-layout and wgmma leave such an operand alone). A run's starts step by
  the loops outside it (`start_steps`): an NCHW image's run of output columns starts at
  `ow + kw`, anywhere in a row, so a copy of aligned lanes cannot take it (the register
  staging reads it, its vectors unaligned where the target allows). Where its last read
  would pass the row's end (an odd row), it is still read along that dim, one element at a
  time: a warp's reads s elements apart, not a channel's rows apart. Where none of these
  holds (an NCHW image at stride 2 under a wider window), one element.
An input that the dispatch loads as a strided slice (IREE writes a 1x1 stride-2 convolution as
a contraction of `image[:, :, ::2, ::2]`; `dispatch.Strided`) is read in its bound tensor, the
slice's offsets and strides folded into its sums. A loop read by both inputs (depthwise and
grouped convolutions) is refused, with the reason as a remark.

The matrix index of an operand (row, col) maps to its tensor's indices by `GemmView.indices`:
each matrix index split into its group's loops (row-major), then each tensor dim's sum. The
same `index_expr` tree is evaluated on ints by the tests (against an im2col built by numpy)
and emitted as IR by the kernel's copies; the output's (b, m, n) maps to its dims the same way
(`output_loops`), so that the fused consumer and the store see the convolution's own loops.
An image padded with zeros in the dispatch (`Padded`, ldsopt/codegen/padding.py: a
`tensor.pad` that IREE's `--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops`
puts beside its convolution) is read in its bound tensor, the low padding subtracted from its sums: an index
outside a padded dim (`GemmView.padded`) is a border element, which the kernel's reads make zero
instead of reading. A padded dim ends a contiguous run (`_run`), so that a vector lies at one
image position and is all inside or all outside; but for a padded innermost dim, along which a
vector may straddle the border (`GemmView.straddles`: an NCHW image's row), which the register
staging reads whole inside the image and element by element at its ends.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ldsopt.codegen.dispatch import Strided
from ldsopt.codegen.padding import Padded, padded_dims, through_pad
from ldsopt.codegen.elementwise import DimSum, dim_sums, sum_exprs
from ldsopt.layout import index_expr
from ldsopt.layout.index_expr import Expr
from ldsopt.remarks import Unmatched


@dataclasses.dataclass(frozen=True)
class GemmView:
    """A convolution's loops as a (batched) matmul (module doc)."""

    extents: tuple[int, ...]                    # per loop
    inputs: dict[str, int]                      # "A", "B": the position of its input
    groups: dict[str, tuple[int, ...]]          # "b", "m", "n", "k": their loops, outer to inner
    dims: dict[str, tuple[str, ...]]            # "A", "B": the matrix dims in memory order, ("m", "k") ...
    sums: dict[str, tuple[DimSum, ...]]         # "A", "B": per tensor dim its sum of loops
    out_loops: tuple[int, ...]                  # the output's dims' loops, in its memory order
    run_lengths: dict[str, int]                 # "A", "B": `runs`
    # "A", "B": (dim, bound extent) of each padded dim of its tensor (`Padded`), where it has any:
    # an element is in the image where each such index is below its extent as an unsigned
    # number (a negative one, in the low border, is too large), else a border zero.
    padded: dict[str, tuple[tuple[int, int], ...]] = dataclasses.field(default_factory=dict)
    # "A", "B": the stride s > 1 in memory between consecutive values of its run, where its run
    # is strided (`_strided_run`); absent for a contiguous run.
    strides: dict[str, int] = dataclasses.field(default_factory=dict)

    def size(self, dim: str) -> int:
        return math.prod(self.extents[x] for x in self.groups[dim])

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return tuple(self.extents[x] for x in self.groups["b"])

    def runs(self, role: str) -> int:
        """Elements of the operand contiguous in memory along its last matrix dim from any
        multiple of a divisor of this (`_run`), or every s-th of a row (`strides`)."""
        return self.run_lengths[role]

    def start_steps(self, role: str, dim_strides: list[int]) -> list[int]:
        """Elements of memory between the starts of operand `role`'s runs (`runs`), given the
        strides of its tensor's dims: each loop outside the run by its stride (its coefficients
        times its dims' strides; a loop the run takes part of, by the run's span of it) and each
        dim's constant by its stride (a low padding, a slice's offset). An NCHW image's `kw`
        steps by one element beside the run of `ow`: its vectors start anywhere in a row. Strides
        of another rank than the tensor's (a view this cannot map) step by one element."""
        if len(dim_strides) != len(self.sums[role]):
            return [1]
        stride: dict[int, int] = {}
        for (terms, _), st in zip(self.sums[role], dim_strides):
            for loop, coeff in terms:
                stride[loop] = stride.get(loop, 0) + coeff * st
        span, left = {}, self.runs(role)
        for loop in reversed(self.groups[self.dims[role][1]]):
            if left <= 1:
                break
            whole = left % self.extents[loop] == 0
            span[loop] = self.extents[loop] if whole else left
            left = left // self.extents[loop] if whole else 1
        return [st * span.get(loop, 1) for loop, st in stride.items() if span.get(loop, 1) != self.extents[loop]] + \
            [const * st for (_, const), st in zip(self.sums[role], dim_strides)]

    def loop_exprs(self, dim: str, x: Expr) -> dict[int, Expr]:
        """The loops of group `dim` at matrix index `x`, row-major (the last loop fastest)."""
        loops = self.groups[dim]
        coords = index_expr.split(x, [self.extents[x] for x in reversed(loops)])
        return dict(zip(reversed(loops), coords))

    def indices(self, role: str, matrix: list[Expr], batch: list[Expr] = ()) -> list[Expr]:
        """The tensor indices of operand `role` at its matrix index `matrix` (in its memory
        order, `dims[role]`) of batch `batch` (each batch loop's index)."""
        at = dict(zip(self.groups["b"], batch))
        for dim, x in zip(self.dims[role], matrix):
            at.update(self.loop_exprs(dim, x))
        return sum_exprs(self.sums[role], at)

    def straddles(self, role: str) -> tuple[int, int] | None:
        """(dim, extent) of operand `role`'s innermost dim where it is padded and its vectors
        run along it (`runs` > 1): a vector may then be partly in the border, partly in the
        image (an NCHW image's row at its ends); None where none can."""
        edge = next((x for x in self.padded.get(role, ()) if x[0] == len(self.sums[role]) - 1), None)
        return edge if edge is not None and self.runs(role) > 1 else None

    def aligned_vectors(self, role: str, n: int) -> bool:
        """Whether a vector of n elements of operand `role` that starts at a multiple of n along
        its contiguous matrix dim starts at a multiple of n of its tensor's last dim: that dim
        is the dim's innermost loop alone, at stride 1, from a multiple of n, and n divides the
        loop's extent (an NHWC image's channels; not an NCHW image's `ow + kw`): on SPIR-V the
        register staging's vectors must be (ldsopt/matmul/planner.py, `_staging`). For a strided
        run (`strides`), n is the elements read (`read_width`): a multiple of the stride, and the
        run's vectors start at multiples of it by construction (`_strided_run`)."""
        loop = self.groups[self.dims[role][1]][-1]
        terms, const = self.sums[role][-1]
        if role in self.strides:
            return n % self.strides[role] == 0 and const % n == 0
        return terms == ((loop, 1),) and const % n == 0 and self.extents[loop] % n == 0

    def read_width(self, role: str, n: int) -> int:
        """Elements of the one contiguous read of a vector of n of operand `role` along its
        contiguous matrix dim: n, or n * s for a strided run (every s-th kept) where n > 1."""
        return n * self.strides.get(role, 1) if n > 1 else 1

    def output_loops(self, m: Expr, n: Expr, batch: list[Expr] = ()) -> list[Expr]:
        """The output's indices (its loops, in its memory order) at matrix (m, n) of `batch`."""
        at = {**dict(zip(self.groups["b"], batch)), **self.loop_exprs("m", m), **self.loop_exprs("n", n)}
        return [at[x] for x in self.out_loops]

    def output_groups(self) -> list[str]:
        """Per output dim, its matrix dim ("b", "m" or "n")."""
        return [next(g for g in ("b", "m", "n") if x in self.groups[g]) for x in self.out_loops]


def _run(sums: tuple[DimSum, ...], shape: list[int], loops: tuple[int, ...], extents: tuple[int, ...],
         padded: frozenset[int] = frozenset()) -> int:
    """How many consecutive values of the matrix dim over `loops` (row-major) are consecutive
    in memory from any multiple of a divisor of the result: the trailing loops that are the
    tensor's trailing dims alone, stride 1, each spanning its dim, in the same order, times the
    extent of the next loop where it is in the next dim at stride 1 beside other loops (an
    NHWC image's `ow * s + kw` after its channels; an NCHW image's `ow + kw`); 1 where the
    last loop is not in the innermost dim at stride 1. A dim of `padded` but the innermost ends
    the run before it (a vector lies at one position of the outer dims); a padded innermost dim
    does not (an NCHW image's rows: a vector along them may straddle the border, `straddles`)."""
    run = 1
    for dim, loop, (terms, _), size in zip(reversed(range(len(shape))), reversed(loops), reversed(sums),
                                           reversed(shape)):
        if (loop, 1) not in terms or (dim in padded and dim != len(shape) - 1):
            break
        run *= extents[loop]
        if len(terms) != 1 or extents[loop] != size:
            break
    return run


def _strided_run(sums: tuple[DimSum, ...], shape: list[int], loops: tuple[int, ...], extents: tuple[int, ...],
                 padded: frozenset[int] = frozenset()) -> tuple[int, int] | None:
    """(run, s) where the last of `loops` alone indexes the tensor's innermost dim, unpadded, at
    a stride s > 1 (`ow * 2` of a 1x1 stride-2 convolution): its values lie s elements apart
    along a row, nearer than any other dim's (a channel's rows), so the operand is read along
    it. Where s is a power of 2, a vector of n values from a multiple of n is read as the n * s
    elements from its first, of which every s-th is kept: `run` is the largest power of 2
    dividing the loop's extent whose read is aligned to its own size within the row (the dim's
    constant a multiple of run * s) and whose last read stays in the row (constant + s *
    extent <= the row's size); 1 where there is none longer (an odd row: one element at a
    time). None where the loop is not alone in the innermost dim at a stride."""
    terms, const = sums[-1]
    if len(terms) != 1 or terms[0][0] != loops[-1] or len(shape) - 1 in padded or terms[0][1] < 2:
        return None
    s, extent = terms[0][1], extents[loops[-1]]
    if s & (s - 1) or const + s * extent > shape[-1]:
        return 1, s
    run = extent & -extent
    while run > 1 and const % (run * s):
        run //= 2
    return run, s


def _groups(out: list[int], used: list[set[int]]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """(batch, first, last) runs of the output's loops: the last run of loops of one input,
    the run of the other input's before it, and the loops before those."""
    owner = [0 if x in used[0] else 1 for x in out]
    i = len(out)
    while i > 0 and owner[i - 1] == owner[-1]:
        i -= 1
    j = i
    while j > 0 and owner[j - 1] == 1 - owner[-1]:
        j -= 1
    if j == i:
        return None
    return tuple(out[:j]), tuple(out[j:i]), tuple(out[i:])


def _through_slice(sums: tuple[DimSum, ...], sl: Strided) -> tuple[DimSum, ...]:
    """`sums` of a strided slice's dims as sums of its bound tensor's: element i of dim d is
    the bound one's offsets[d] + i * strides[d]."""
    return tuple((tuple((loop, stride * st) for loop, stride in terms), const * st + off)
                 for (terms, const), off, st in zip(sums, sl.offsets, sl.strides))


def gemm_view(root: ir.Operation, strided: dict[int, Strided | Padded] | None = None) -> GemmView | Unmatched:
    """`root` (two inputs, one output, a multiply-add body checked by the caller) read as an
    implicit GEMM (module doc), or the reason it is not one. An input of `strided` (by
    position) is read through its strided slice (a 1x1 stride-2 convolution's image) or its
    padding of zeros (`Padded`), folded into its sums: the view indexes its bound tensor."""
    strided = strided or {}
    maps = [ir.AffineMapAttr(a).value for a in root.attributes["indexing_maps"]]
    n_loops = maps[2].n_dims
    out = []
    for e in maps[2].results:
        if not isinstance(e, ir.AffineDimExpr):
            return Unmatched("a convolution whose output is not indexed by its loops")
        out.append(e.position)
    reduced = [x for x in range(n_loops) if x not in out]
    iterators = ["reduction" in str(it) for it in root.attributes["iterator_types"]]
    if len(set(out)) != len(out) or iterators != [x in reduced for x in range(n_loops)] or not reduced:
        return Unmatched("a convolution whose output is not over its parallel loops")
    sums = []
    for m in maps[:2]:
        s = dim_sums(m)
        if s is None:
            return Unmatched(f"an input is read through {m}; implicit GEMM takes sums of loops times strides")
        sums.append(s)
    bound = [sums[pos] for pos in range(2)]  # the sums of what memory holds (a strided slice's bound tensor)
    shapes = [ir.RankedTensorType(root.operands[pos].type).shape for pos in range(2)]
    padded: list[tuple[tuple[int, int], ...]] = [(), ()]  # per input: (dim, bound extent) of its padded dims
    for pos, sl in strided.items():
        if isinstance(sl, Padded):
            bound[pos], padded[pos] = through_pad(sums[pos], sl), padded_dims(sl)
        else:
            bound[pos] = _through_slice(sums[pos], sl)
        shapes[pos] = sl.tensor_type.shape
    used = [{loop for terms, _ in s for loop, _ in terms} for s in sums]
    if any(sorted(loop for terms, _ in s for loop, _ in terms) != sorted(u) for s, u in zip(sums, used)):
        return Unmatched("an input reads a loop in two of its dims")
    if used[0] & used[1] & set(out):
        return Unmatched("both inputs read an output loop (a depthwise, grouped or batched convolution); "
                         "implicit GEMM takes each output loop read by one input")
    if set(reduced) - (used[0] | used[1]) or set(out) - (used[0] | used[1]):
        return Unmatched("a loop that no input reads")
    split = _groups(out, used)
    if split is None:
        return Unmatched("the output's loops are all one input's: not a product of two operands")
    batch, first, last = split
    a = 0 if first[0] in used[0] else 1
    roles = {"A": a, "B": 1 - a}
    extents = _extents(root, maps, n_loops)
    if extents is None:
        return Unmatched("the loops' extents cannot be read from the operands' shapes")
    best = None
    for pos in (a, 1 - a):  # K in the order the reduced loops appear in A, else in B
        k_order = tuple(loop for terms, _ in sums[pos] for loop, _ in terms if loop in reduced)
        groups = {"b": batch, "m": first, "n": last, "k": k_order}
        dims, runs = {}, {}
        for role, own in (("A", "m"), ("B", "n")):
            s, shape = bound[roles[role]], shapes[roles[role]]
            edges = frozenset(d for d, _ in padded[roles[role]])
            along_k, along_own = (_run(s, shape, groups[x], extents, edges) for x in ("k", own))
            dims[role] = (own, "k") if along_k >= along_own else ("k", own)
            runs[role] = max(along_k, along_own)
        score = sum(min(r, 8) for r in runs.values())
        if best is None or score > best[0]:
            best = (score, groups, dims, runs)
    _, groups, dims, runs = best
    strides = {}
    for role, own in (("A", "m"), ("B", "n")):
        pos = roles[role]
        strided = None if runs[role] > 1 else _strided_run(
            bound[pos], shapes[pos], groups[own], extents, frozenset(d for d, _ in padded[pos]))
        if strided is not None:
            dims[role] = ("k", own)
            if strided[0] > 1:
                runs[role], strides[role] = strided
    return GemmView(extents, roles, groups, dims, {r: bound[p] for r, p in roles.items()}, tuple(out), runs,
                    {r: padded[p] for r, p in roles.items() if padded[p]}, strides)


def _extents(root: ir.Operation, maps: list[ir.AffineMap], n_loops: int) -> tuple[int, ...] | None:
    """Each loop's extent: from a dim indexed by that loop alone (the output's, a filter's)."""
    extents: dict[int, int] = {}
    for v, m in zip(root.operands, maps):
        shape = ir.RankedTensorType(v.type).shape
        for e, size in zip(m.results, shape):
            if isinstance(e, ir.AffineDimExpr):
                extents.setdefault(e.position, size)
    if sorted(extents) != list(range(n_loops)) or any(x <= 0 for x in extents.values()):
        return None
    return tuple(extents[x] for x in range(n_loops))
