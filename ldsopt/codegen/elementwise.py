"""What the pointwise passes share: reading a linalg.generic's maps and body, collapsing
dims that stay contiguous in every operand, and cloning a scalar body onto vectors.

Operand dims are lists of iteration dims in the operand's own memory order (its
indexing map's results), so permuted (transposed) operands are described too.
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, vector

from ldsopt import target
from ldsopt.codegen import fast_math
from ldsopt.codegen.dispatch import Binding, slice_layout
from ldsopt.layout import index_expr

_ELEMENTWISE_DIALECTS = ("arith.", "math.")
# The terminators of the bodies `clone_body` clones: a generic's, and an attention score region's.
_YIELDS = ("linalg.yield", "iree_linalg_ext.yield")


def map_dims(m: ir.AffineMap) -> list[int] | None:
    """The dims a projected-permutation map reads, in order; None for any other map."""
    dims = []
    for e in m.results:
        if not isinstance(e, ir.AffineDimExpr):
            return None
        dims.append(ir.AffineDimExpr(e).position)
    return dims


# A tensor dim's index as a sum of loops: ((loop, stride), ...) plus a constant.
DimSum = tuple[tuple[tuple[int, int], ...], int]


def _dim_sum(e: ir.AffineExpr) -> DimSum | None:
    if isinstance(e, ir.AffineDimExpr):
        return ((e.position, 1),), 0
    if isinstance(e, ir.AffineConstantExpr):
        return ((), e.value) if e.value >= 0 else None
    if isinstance(e, ir.AffineMulExpr):
        lhs, rhs = e.lhs, e.rhs
        if isinstance(lhs, ir.AffineConstantExpr):
            lhs, rhs = rhs, lhs
        if isinstance(lhs, ir.AffineDimExpr) and isinstance(rhs, ir.AffineConstantExpr) and rhs.value > 0:
            return ((lhs.position, rhs.value),), 0
        return None
    if isinstance(e, ir.AffineAddExpr):
        a, b = _dim_sum(e.lhs), _dim_sum(e.rhs)
        return None if a is None or b is None else (a[0] + b[0], a[1] + b[1])
    return None


def dim_sums(m: ir.AffineMap) -> tuple[DimSum, ...] | None:
    """Each result of `m` as a sum of loops times positive constants plus a non-negative
    constant (a convolution's or a pooling window's `oh * 2 + kh`, a projection's `d3`); None
    where one is anything else (a division, a symbol)."""
    sums = tuple(_dim_sum(e) for e in m.results)
    return None if any(x is None for x in sums) else sums


def sum_exprs(sums: tuple[DimSum, ...], at: dict[int, index_expr.Expr]) -> list[index_expr.Expr]:
    """The index of each dim of `sums` (`dim_sums`) where each loop is at `at[loop]`."""
    out = []
    for terms, const in sums:
        e = None
        for loop, stride in terms:
            t = index_expr.scaled(at[loop], stride)
            e = t if e is None else e + t
        out.append(index_expr.const(const) if e is None else index_expr.offset(e, const))
    return out


def body_is_elementwise(root: ir.Operation) -> bool:
    """The generic's body is arith/math ops on its inputs only (the inits are not read)."""
    return body_refusal(root) is None


def body_refusal(root: ir.Operation, gathers: bool = False, positions: bool = False) -> str | None:
    """Why the generic's body is not elementwise (`body_is_elementwise`; `gathers`: or
    elementwise on positions and table reads, `linalg.index` and `tensor.extract`, which
    ldsopt/codegen/gather.py matches; `positions`: or on positions, `linalg.index`), naming what
    it reads or computes with; None where it is."""
    block = root.regions[0].blocks[0]
    args = list(block.arguments)
    reads = ("linalg.index", "tensor.extract") if gathers else ("linalg.index",) if positions else ()
    kind = "elementwise arith/math ops" + "".join(f", {r}" for r in reads)
    if any(len(list(a.uses)) for a in args[len(args) - len(root.results):]):
        return f"its body reads its outputs (not {kind})"
    allowed = ("linalg.yield",) + reads
    other = sorted({op.operation.name for op in block.operations if len(op.regions) or not (
        op.operation.name in allowed or op.operation.name.startswith(_ELEMENTWISE_DIALECTS))})
    return f"its body computes with {', '.join(other)} (not {kind})" if other else None


def collapse_groups(shape: list[int], operand_dims: list[list[int]],
                    breaks: frozenset[int] = frozenset()) -> list[list[int]]:
    """Groups of consecutive dims d, d+1 that every operand lacks both of, or has both of
    with d+1 right after d in its memory order (so the group is contiguous in memory), but
    for d + 1 in `breaks` (an operand that is a slice leaves a gap there)."""
    def joins(d: int, dims: list[int]) -> bool:
        if d not in dims and d + 1 not in dims:
            return True
        return d in dims and d + 1 in dims and dims.index(d + 1) == dims.index(d) + 1

    groups: list[list[int]] = []
    for d in range(len(shape)):
        if groups and d not in breaks and all(joins(d - 1, dims) for dims in operand_dims):
            groups[-1].append(d)
        else:
            groups.append([d])
    return groups


def group_extents(shape: list[int], groups: list[list[int]], extents: dict[int, ir.Value], const) -> list:
    """Each collapsed group's extent: an int where static, else an index value computed
    from `extents` (dim -> its dynamic extent) with constants made by `const`."""
    out = []
    for g in groups:
        static = math.prod(shape[i] for i in g if i not in extents)
        moving = [extents[i] for i in g if i in extents]
        if not moving:
            out.append(static)
            continue
        value = moving[0]
        for m in moving[1:]:
            value = arith.muli(value, m)
        out.append(value if static == 1 else arith.muli(value, const(static)))
    return out


def extent_product(extents: list, const) -> ir.Value:
    """The product of `extents` (ints and index values), its static part one constant."""
    value = None
    for e in [e for e in extents if not isinstance(e, int)]:
        value = e if value is None else arith.muli(value, e)
    static = math.prod(e for e in extents if isinstance(e, int))
    if value is None or static != 1:
        value = const(static) if value is None else arith.muli(value, const(static))
    return value


def slice_facts(bindings: list[Binding], dims: list[list[int]], shape: list[int]
                ) -> tuple[frozenset[int], list[tuple[int, list[int]] | None]]:
    """For the operands (`bindings`, each reading output `dims` in its memory order) that are
    slices of a binding: the output dims a collapsed group must not join to the dim before
    (the slice's rows are not contiguous there: `collapse_groups`' `breaks`), and per operand
    its slice's (offset, strides) in elements (`slice_layout`; None for a whole tensor)."""
    breaks, layouts = set(), []
    for b, od in zip(bindings, dims):
        layout = slice_layout(b)
        layouts.append(layout)
        if layout is None:
            continue
        strides = layout[1]
        for j in range(len(od) - 1):
            if strides[j] != strides[j + 1] * shape[od[j + 1]]:
                breaks.add(od[j + 1])
    return frozenset(breaks), layouts


def slice_alignment(layout: tuple[int, list[int]] | None) -> int:
    """Elements every row of a slice (`slice_facts`' layout) starts at a multiple of: the gcd
    of its offset and outer strides (0 for a whole tensor: no bound beyond its extents)."""
    return 0 if layout is None else math.gcd(layout[0], *layout[1][:-1])


def collapsed_view(buf: ir.Value, groups: list[list[int]], shape: list[int]) -> ir.Value:
    """`buf` collapsed along `groups`: the groups of dims it has, in its memory order;
    `shape` gives the extent of each dim (a group with a dynamic one is dynamic)."""
    mtype = ir.MemRefType(buf.type)
    if all(len(g) == 1 for g in groups):
        return buf
    # Positions of each group's dims within this operand's own (possibly broadcast) rank.
    pos, reassoc = 0, []
    for g in groups:
        reassoc.append(list(range(pos, pos + len(g))))
        pos += len(g)
    dynamic = ir.ShapedType.get_dynamic_size()
    new_shape = [dynamic if any(ir.ShapedType.is_dynamic_size(shape[i]) for i in g) else math.prod(shape[i] for i in g)
                 for g in groups]
    layout = None
    if isinstance(mtype.layout, ir.StridedLayoutAttr):
        # A binding at an offset (a weight inside a parameter archive's buffer) or a slice of
        # one: the collapsed view keeps the offset; each group is contiguous, so its stride
        # is its innermost dim's.
        strides, _ = mtype.get_strides_and_offset()
        layout = ir.StridedLayoutAttr.get(ir.StridedLayoutAttr(mtype.layout).offset, [strides[r[-1]] for r in reassoc])
    rtype = ir.MemRefType.get(new_shape, mtype.element_type, layout=layout, memory_space=mtype.memory_space)
    attr = ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IntegerType.get_signless(64), i) for i in r])
                             for r in reassoc])
    return memref.collapse_shape(rtype, buf, attr)


def vectorize_body(root: ir.Operation, inputs: list[ir.Value], v: int) -> ir.Value:
    """Clones the generic's scalar body onto vectors of `v` lanes; its (first) yielded value."""
    return clone_body(root, inputs, v)[0]


def clone_body(root: ir.Operation, args: list[ir.Value], v: int | None, mapping: dict | None = None,
               reciprocals: dict | None = None, loads: dict | None = None) -> list[ir.Value]:
    """Clones the generic's scalar body (or another op's one-block region ending in a yield, such
    as an attention's score region) at the insertion point, its block arguments taken
    from `args`, onto vectors of `v` lanes (None: as scalars); every yielded value.
    `mapping` (body value -> new value), if given, supplies values for ops not to clone (a
    linalg.index) and receives every cloned one. `reciprocals` (block argument -> the new
    value of its reciprocal), if given, turns `arith.divf x, arg` into `arith.mulf x, 1/arg`.
    `math.erf` and the sums around it become ldsopt/codegen/fast_math.py's expansions.
    `loads` (loaded tensor -> its binding's memref), scalars only: a `tensor.extract` of such a
    tensor becomes a `memref.load` at its indices as computed."""
    block = root.regions[0].blocks[0]
    on = target.of_op(root)
    expander = fast_math.Expander(block, on.backend if on else None)
    reciprocals = reciprocals or {}
    mapping = {} if mapping is None else mapping
    mapping.update({block.arguments[i]: args[i] for i in range(len(args))})

    def lifted(t: ir.Type) -> ir.Type:
        return t if v is None else ir.VectorType.get([v], t)

    def get(val: ir.Value) -> ir.Value:
        if val in mapping:
            return mapping[val]
        # A value from outside the body (a scalar constant of the function): broadcast it.
        return val if v is None else vector.broadcast(lifted(val.type), val)

    for op in block.operations:
        op = op.operation
        if op.name in _YIELDS:
            return [get(x) for x in op.operands]
        attrs = dict(op.attributes.items())
        if all(r in mapping for r in op.results):
            continue
        if op.name == "arith.constant":
            new = ir.Operation.create(op.name, results=[op.results[0].type], attributes=attrs)
            mapping[op.results[0]] = new.results[0] if v is None else vector.broadcast(lifted(op.results[0].type),
                                                                                       new.results[0])
            continue
        if op.name == "tensor.extract" and loads and op.operands[0] in loads:
            assert v is None, "a gather's computed indices are scalars"
            new = memref.LoadOp(loads[op.operands[0]], [get(x) for x in list(op.operands)[1:]]).operation
        elif op.name == "arith.divf" and op.operands[1] in reciprocals:
            new = ir.Operation.create("arith.mulf", results=[lifted(op.results[0].type)],
                                      operands=[get(op.operands[0]), reciprocals[op.operands[1]]], attributes=attrs)
        elif expander.expand(op, get, mapping):
            continue
        else:
            new = ir.Operation.create(op.name, results=[lifted(r.type) for r in op.results],
                                      operands=[get(x) for x in op.operands], attributes=attrs)
        for old, res in zip(op.results, new.results):
            mapping[old] = res
    raise AssertionError("a body without its yield")
