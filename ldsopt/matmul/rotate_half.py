"""RoPE's rotate_half of a projection, found and computed as a projection by rotated weights:
the library of ldsopt-fold-rotate-half (passes/fold_rotate_half.py states the contract).

rotate_half(x) = concat(-x[..., d/2:], x[..., :d/2]) over the head dim d of x = A W (W's N
split into heads of d) is x R for the signed permutation R of each head's d columns, so it
is A (W R): the same products, the columns of W moved and negated (exact), computed by a
projection that ldsopt-fuse-projections then fuses with the others of A.

- `match` reads a `tensor.concat` as rotate_half of a head view of a projection: `RotateHalf`;
- `RotateHalf.rewrite` builds W R from W (a view of its heads' halves, one negated, swapped:
  constants IREE evaluates when it compiles), the projection by it and the same view of its
  result, which replaces the concat.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ldsopt.codegen.elementwise import map_dims
from ldsopt.ir_types import producer
from ldsopt.matmul.match import contraction_form
from ldsopt.matmul.projections import dynamic_extents, is_constant


def _static(op: ir.Operation, name: str) -> list[int]:
    return list(ir.DenseI64ArrayAttr(op.attributes[name]))


def _half(v: ir.Value, second: bool) -> ir.Value | None:
    """x where `v` is the first (or `second`) half of x's last dim, all of its other dims
    (a dynamic one by the very value of its extent)."""
    op = producer(v)
    if op is None or op.name != "tensor.extract_slice":
        return None
    x = op.operands[0]
    if len(op.operands) > 1 and list(op.operands)[1:] != dynamic_extents(x):
        return None
    shape = list(ir.RankedTensorType(x.type).shape)
    half = shape[-1] // 2
    if shape[-1] % 2 or _static(op, "static_strides") != [1] * len(shape) or \
            _static(op, "static_sizes") != shape[:-1] + [half] or \
            _static(op, "static_offsets") != [0] * (len(shape) - 1) + [half if second else 0]:
        return None
    return x


def _elementwise_unary(op: ir.Operation, name: str | None = None) -> bool:
    """An all-parallel generic of one input and one result, both read in the loops' order,
    whose body is `name` of the input (any body without `name`)."""
    if op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results) != 1 or \
            any("reduction" in str(it) for it in op.attributes["iterator_types"]):
        return False
    rank = ir.RankedTensorType(op.results[0].type).rank
    if any(map_dims(ir.AffineMapAttr(a).value) != list(range(rank)) for a in op.attributes["indexing_maps"]):
        return False
    if name is None:
        return True
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    return len(body) == 2 and body[0].name == name and body[0].operands[0] == op.regions[0].blocks[0].arguments[0] \
        and body[1].operands[0] == body[0].results[0]


@dataclasses.dataclass
class RotateHalf:
    concat: ir.Operation          # the rotate_half
    projection: ir.Operation      # the contraction A W
    b_at: int                     # W's operand position
    b_n_dim: int                  # W's dim along N
    view: list[ir.Operation]      # the ops from the projection's result to x, in order
    head: int                     # d

    def rewrite(self) -> ir.Value:
        here = ir.InsertionPoint(self.concat)  # a clone goes after its original unless told
        with here, self.concat.location:
            weights = _rotated(self.projection.operands[self.b_at], self.b_n_dim, self.head)
            op = self.projection.clone(ip=here)
            op.operands[self.b_at] = weights
            for view in self.view:  # the same view of the rotated result
                value, op = op.results[0], view.clone(ip=here)
                op.operands[0] = value
            value = op.results[0]
        self.concat.results[0].replace_all_uses_with(value)
        self.concat.erase()
        return value


def match(concat: ir.Operation) -> RotateHalf | None:
    """`concat` as rotate_half(x) (module docstring), x a head view of a projection by constant
    weights: the projection's result through elementwise generics of one input (a cast), an
    expand_shape splitting N alone into [heads, d], and transposes keeping d last."""
    if concat.name != "tensor.concat" or len(concat.operands) != 2:
        return None
    rank = ir.RankedTensorType(concat.results[0].type).rank
    if ir.IntegerAttr(concat.attributes["dim"]).value != rank - 1:
        return None
    neg, lo = (producer(v) for v in concat.operands)
    if neg is None or not _elementwise_unary(neg, "arith.negf"):
        return None
    x = _half(neg.operands[0], second=True)
    if x is None or _half(concat.operands[1], second=False) != x:
        return None
    head = ir.RankedTensorType(x.type).shape[-1]
    view, v = [], x
    while True:
        op = producer(v)
        if op is None:
            return None
        if op.name == "linalg.transpose":
            perm = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
            if perm[-1] != len(perm) - 1:
                return None
        elif op.name == "tensor.expand_shape":
            groups = [[ir.IntegerAttr(i).value for i in ir.ArrayAttr(g)] for g in op.attributes["reassociation"]]
            src = ir.RankedTensorType(op.operands[0].type)
            if groups != [[i] for i in range(src.rank - 1)] + [[src.rank - 1, src.rank]] or \
                    ir.RankedTensorType(op.results[0].type).shape[-1] != head or \
                    any(o.name == "tensor.expand_shape" for o in view):
                return None
        elif not _elementwise_unary(op):
            break
        view.insert(0, op)
        v = op.operands[0]
    form = contraction_form(op)
    if not form or len(op.results) != 1 or not any(o.name == "tensor.expand_shape" for o in view):
        return None
    b_at, _ = form.roles["B"]
    if not is_constant(op.operands[b_at]):
        return None
    # The result's last dim is N (the output's dims are (b?, m, n)): the expand splits it into heads.
    return RotateHalf(concat, op, b_at, form.dims[b_at].index(form.dims[2][-1]), view, head)


def _rotated(w: ir.Value, n_dim: int, head: int) -> ir.Value:
    """W R: W with each head's d columns along `n_dim` rotated, [-W[.., d/2:], W[.., :d/2]]."""
    t = ir.RankedTensorType(w.type)
    shape, half = list(t.shape), head // 2
    split = shape[:n_dim] + [shape[n_dim] // head, 2, half] + shape[n_dim + 1:]
    groups = [[i] for i in range(n_dim)] + [[n_dim, n_dim + 1, n_dim + 2]] + \
        [[i + 2] for i in range(n_dim + 1, t.rank)]
    i64 = ir.IntegerType.get_signless(64)
    reassociation = ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, i) for i in g]) for g in groups])
    heads = tensor.ExpandShapeOp(ir.RankedTensorType.get(split, t.element_type), w, reassociation, [], split).result
    piece_shape = split[:n_dim + 1] + [1] + split[n_dim + 2:]
    piece_t = ir.RankedTensorType.get(piece_shape, t.element_type)
    ones = [1] * len(split)

    def piece(at: int) -> ir.Value:
        offsets = [0] * len(split)
        offsets[n_dim + 1] = at
        return tensor.ExtractSliceOp(piece_t, heads, [], [], [], offsets, piece_shape, ones).result

    first, second = piece(0), piece(1)
    empty = tensor.EmptyOp(piece_shape, t.element_type).result
    identity = ir.AffineMapAttr.get(ir.AffineMap.get_identity(len(split)))
    negated = linalg.GenericOp([piece_t], [second], [empty], ir.ArrayAttr.get([identity, identity]),
                               ir.ArrayAttr.get([ir.Attribute.parse("#linalg.iterator_type<parallel>")] * len(split)))
    block = negated.regions[0].blocks.append(t.element_type, t.element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([arith.negf(block.arguments[0])])
    swapped = tensor.ConcatOp(ir.RankedTensorType.get(split, t.element_type), n_dim + 1,
                              [negated.result, first]).result
    return tensor.CollapseShapeOp(t, swapped, reassociation).result
