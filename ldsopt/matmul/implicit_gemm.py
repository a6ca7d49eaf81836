"""Convolutions as implicit GEMM: a contraction whose input is read through sums of loops
(`d1 * 2 + d4`, an image's row at an output row and a filter row) is a matmul over groups of
its loops, its operands gathered by index arithmetic instead of a plain 2-D read.

`gemm_view(root)` reads a `linalg.generic` contraction (IREE generalizes
`linalg.conv_2d_nhwc_hwcf`, `_nhwc_fhwc` and the 1x1 forms to one) as a `GemmView`:
- the output's loops, in its memory order, are M (the loops of one input, A: the image's
  batch, output rows and columns) then N (the loops of the other, B: the filters); the
  reduced loops are K (filter rows, columns, input channels), ordered as they appear in the
  operand that is K-contiguous;
- each input's dims are sums of loops times positive strides plus a constant (an image's
  `oh * stride + kh`), each loop in one dim of it;
- each operand's innermost dim is one loop alone (stride 1): its last matrix dim runs along
  it, so a vector of the operand is contiguous in memory where it does not cross that loop's
  extent (`runs`, which the plan's vector widths divide). An image whose innermost dim is a
  sum (NCHW: `ow * stride + kw`) is refused, as is a loop both inputs read (depthwise and
  grouped convolutions), with the reason as a remark.

The matrix index of an operand (row, col) maps to its tensor's indices by `GemmView.indices`:
each matrix index split into its group's loops (row-major), then each tensor dim's sum. The
same `index_expr` tree is evaluated on ints by the tests (against an im2col built by numpy)
and emitted as IR by the kernel's copies; the output's (m, n) maps to its dims the same way
(`output_loops`), so that the fused consumer and the store see the convolution's own loops.
Padding is not this module's: IREE 3.13 materializes a convolution's padding in the buffer
that the dispatch reads (a copy into a zero-filled, larger buffer), so the gathered reads
are all inside the image.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ldsopt.layout import index_expr
from ldsopt.layout.index_expr import Expr
from ldsopt.remarks import Unmatched

# A tensor dim's index: ((loop, stride), ...) plus a constant.
DimSum = tuple[tuple[tuple[int, int], ...], int]


def _dim_sum(e: ir.AffineExpr) -> DimSum | None:
    """`e` as a sum of loops times positive constants plus a non-negative constant; None for
    anything else (a product of loops, a division, a symbol)."""
    if isinstance(e, ir.AffineDimExpr):
        return ((e.position, 1),), 0
    if isinstance(e, ir.AffineConstantExpr):
        return (), e.value if e.value >= 0 else None
    if isinstance(e, ir.AffineMulExpr):
        lhs, rhs = e.lhs, e.rhs
        if isinstance(lhs, ir.AffineConstantExpr):
            lhs, rhs = rhs, lhs
        if isinstance(lhs, ir.AffineDimExpr) and isinstance(rhs, ir.AffineConstantExpr) and rhs.value > 0:
            return ((lhs.position, rhs.value),), 0
        return None
    if isinstance(e, ir.AffineAddExpr):
        a, b = _dim_sum(e.lhs), _dim_sum(e.rhs)
        if a is None or b is None:
            return None
        return a[0] + b[0], a[1] + b[1]
    return None


@dataclasses.dataclass(frozen=True)
class GemmView:
    """A convolution's loops as a matmul (module doc)."""

    extents: tuple[int, ...]                    # per loop
    inputs: dict[str, int]                      # "A", "B": the position of its input
    groups: dict[str, tuple[int, ...]]          # "m", "n", "k": their loops, outer to inner
    dims: dict[str, tuple[str, ...]]            # "A", "B": the matrix dims in memory order, ("m", "k") ...
    sums: dict[str, tuple[DimSum, ...]]         # "A", "B": per tensor dim its sum of loops
    out_loops: tuple[int, ...]                  # the output's dims' loops, in its memory order

    def size(self, dim: str) -> int:
        return math.prod(self.extents[x] for x in self.groups[dim])

    def runs(self, role: str) -> int:
        """Elements of the operand contiguous in memory along its last matrix dim from any
        multiple of a divisor of this: the extent of its innermost loop."""
        return self.extents[self.groups[self.dims[role][1]][-1]]

    def loop_exprs(self, dim: str, x: Expr) -> dict[int, Expr]:
        """The loops of group `dim` at matrix index `x`, row-major (the last loop fastest)."""
        loops = self.groups[dim]
        coords = index_expr.split(x, [self.extents[x] for x in reversed(loops)])
        return dict(zip(reversed(loops), coords))

    def indices(self, role: str, matrix: list[Expr]) -> list[Expr]:
        """The tensor indices of operand `role` at its matrix index `matrix` (in its memory
        order, `dims[role]`)."""
        at = {}
        for dim, x in zip(self.dims[role], matrix):
            at.update(self.loop_exprs(dim, x))
        out = []
        for terms, const in self.sums[role]:
            e: Expr | None = None
            for loop, stride in terms:
                t = index_expr.scaled(at[loop], stride)
                e = t if e is None else e + t
            out.append(index_expr.offset(e, const) if e is not None else index_expr.const(const))
        return out

    def output_loops(self, m: Expr, n: Expr) -> list[Expr]:
        """The output's indices (its loops, in its memory order) at matrix (m, n)."""
        at = {**self.loop_exprs("m", m), **self.loop_exprs("n", n)}
        return [at[x] for x in self.out_loops]

    def output_groups(self) -> list[str]:
        """Per output dim, its matrix dim ("m" or "n")."""
        return ["m" if x in self.groups["m"] else "n" for x in self.out_loops]


def gemm_view(root: ir.Operation) -> GemmView | Unmatched:
    """`root` (two inputs, one output, a multiply-add body checked by the caller) read as an
    implicit GEMM (module doc), or the reason it is not one."""
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
        s = [_dim_sum(e) for e in m.results]
        if any(x is None for x in s):
            return Unmatched(f"an input is read through {m}; implicit GEMM takes sums of loops times strides")
        sums.append(tuple(s))
    used = [{loop for terms, _ in s for loop, _ in terms} for s in sums]
    if any(sorted(loop for terms, _ in s for loop, _ in terms) != sorted(u) for s, u in zip(sums, used)):
        return Unmatched("an input reads a loop in two of its dims")
    if used[0] & used[1] & set(out):
        return Unmatched("both inputs read an output loop (a depthwise, grouped or batched convolution); "
                         "implicit GEMM takes one input's loops then the other's as the output's")
    if set(reduced) - (used[0] | used[1]) or set(out) - (used[0] | used[1]):
        return Unmatched("a loop that no input reads")
    first = 0 if out[0] in used[0] else 1
    a, b = first, 1 - first
    m_loops = tuple(x for x in out if x in used[a])
    if out[:len(m_loops)] != list(m_loops):
        return Unmatched("the output's dims are not one input's loops then the other's (NCHW: the batch, the "
                         "filters, then the image's rows and columns); implicit GEMM takes channels-last convolutions")
    groups = {"m": m_loops, "n": tuple(out[len(m_loops):])}
    dims, inner = {}, {}
    for role, pos in (("A", a), ("B", b)):
        terms, _ = sums[pos][-1]
        if len(terms) != 1 or terms[0][1] != 1:
            return Unmatched("an input's innermost dim is not one loop of stride 1 (an NCHW image's "
                             "`ow * stride + kw`); implicit GEMM takes channels-last images")
        inner[role] = terms[0][0]
        own = "m" if role == "A" else "n"
        if inner[role] in reduced:
            dims[role] = (own, "k")
        elif inner[role] == groups[own][-1]:
            dims[role] = ("k", own)
        else:
            return Unmatched("an input's innermost loop is not the last of its output dims")
    k_contiguous = [r for r in ("A", "B") if dims[r][1] == "k"]
    if len(k_contiguous) == 2 and inner["A"] != inner["B"]:
        return Unmatched("the inputs' innermost loops are different reduced loops")
    order_from = sums[a if not k_contiguous or k_contiguous[0] == "A" else b]
    k_order = [loop for terms, _ in order_from for loop, _ in terms if loop in reduced]
    k_order += [x for x in reduced if x not in k_order]
    if k_contiguous and k_order[-1] != inner[k_contiguous[0]]:
        return Unmatched("an input's innermost reduced loop is not its last")
    groups["k"] = tuple(k_order)
    extents = _extents(root, maps, n_loops)
    if extents is None:
        return Unmatched("the loops' extents cannot be read from the operands' shapes")
    return GemmView(extents, {"A": a, "B": b}, groups, dims, {"A": sums[a], "B": sums[b]}, tuple(out))


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
