"""A row normalization (LayerNorm, RMSNorm) read from the program's linalg ops on tensors, as
the value of each element (row, k) of a matmul's A operand: `read_norm`.

The importers spell a normalization as a chain of generics (ONNX and PyTorch through
torch-mlir alike: a sum over the row, a division by its length, a broadcast, a subtraction,
a square, another sum, an epsilon, a reciprocal square root, the scale and the shift, with
casts between f16 and f32 anywhere), some of them fused into one body. Rather than match
each spelling, `_Reader` turns the generics into one expression tree per element: leaves are
the row's source tensor x (a value the generics do not compute: an argument, a matmul's
result, a residual sum), constants, and vectors over k of constants (the scale gamma and the
shift beta); inner nodes are arith / math ops and `sum` (a reduction over the row). Casts
are read through: the rewrite computes in f32.

`read_norm` then reads the tree as
    A = [gamma(k) *] core [+ beta(k)],  core = U * R or U / R',
with U = x - mean (LayerNorm) or x (RMSNorm), R (R') an expression of row values only, the
mean sum(x) / K, and each sum in R one of sum(x), sum(x * x) or sum((x - mean)^2); anything
else is None (the caller leaves the program alone).
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.ir_types import constant_float, fill_constant, producer
from ldsopt.matmul.projections import is_constant

_BINARY = {"arith.addf": "add", "arith.subf": "sub", "arith.mulf": "mul", "arith.divf": "div"}
_UNARY = {"math.sqrt": "sqrt", "math.rsqrt": "rsqrt"}
_CASTS = ("arith.extf", "arith.truncf")
_RESHAPES = ("tensor.collapse_shape", "tensor.expand_shape")
# math.powf by a constant exponent, as the op it is (torch's x ** 2, ** 0.5, ** -0.5); math.fpowi
# by 2 too.
_POWERS = {2.0: "square", 0.5: "sqrt", -0.5: "rsqrt"}


@dataclasses.dataclass(frozen=True)
class Node:
    kind: str                    # "x", "const", "kvec", "sum", or an op: add, sub, mul, div, sqrt, rsqrt
    args: tuple = ()
    value: ir.Value | None = None  # the tensor this node is the elements of, where it is one
    const: float | None = None   # "const": its value

    def key(self) -> tuple:
        """The node's value as a function of the leaves (x by its tensor), whatever tensors
        carry its parts: two reads of one element compare equal."""
        if self.kind in ("x", "kvec"):
            return (self.kind, self.value)
        return (self.kind, self.const, tuple(a.key() for a in self.args))

    def is_row(self) -> bool:
        """Whether the node is a value per row (no x outside a sum, no vector over k)."""
        if self.kind in ("x", "kvec"):
            return False
        return self.kind in ("const", "sum") or all(a.is_row() for a in self.args)


@dataclasses.dataclass
class Norm:
    """A normalization read from the program: A = gamma * core + beta (module doc)."""

    x: Node                      # x: its tensor (`value`) is what the row statistics read
    centered: bool               # LayerNorm (x - mean) rather than RMSNorm (x)
    scale: Node                  # R: the core is U * R
    gamma: ir.Value | float | None  # 1-D constants over k, a constant, or None
    beta: ir.Value | float | None


class _Reader:
    """Reads tensors of the shape of A (`full`: [..., M, K]), of a value per row ([..., M] or
    [..., M, 1]) and vectors over k as expression trees (module doc)."""

    def __init__(self, full: list[int]):
        self.full = list(full)
        self.rows = (self.full[:-1], self.full[:-1] + [1])

    def shape_class(self, value: ir.Value) -> str | None:
        t = ir.RankedTensorType(value.type) if isinstance(value.type, ir.RankedTensorType) else None
        if t is None:
            return None
        shape = list(t.shape)
        if shape == self.full:
            return "full"
        if shape in self.rows:
            return "row"
        if shape == [self.full[-1]] or (shape[-1:] == self.full[-1:] and all(n == 1 for n in shape[:-1])):
            return "kvec"
        if all(n == 1 for n in shape):
            return "scalar"
        return None

    def tensor(self, value: ir.Value) -> Node | None:
        """The tree of each element of `value` (full or row shaped, a k vector, a scalar)."""
        cls = self.shape_class(value)
        if cls is None:
            return None
        splat = constant_float(value)
        if splat is not None:
            return Node("const", const=splat)
        if cls == "kvec":
            return Node("kvec", value=value) if is_constant(value) else None
        op = producer(value)
        if op is not None and op.name in _RESHAPES:
            return self.tensor(op.operands[0]) if self.shape_class(op.operands[0]) == cls else None
        if op is not None and op.name == "linalg.generic":
            node = self.generic(op, value, cls)
            if node is not None or cls != "full":
                return node
        return Node("x", value=value) if cls == "full" else None

    def generic(self, op: ir.Operation, value: ir.Value, cls: str) -> Node | None:
        n_in = len(op.operands) - len(op.results)
        its = ["reduction" in str(it) for it in op.attributes["iterator_types"]]
        maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
        block = op.regions[0].blocks[0]
        args = list(block.arguments)
        result = value.result_number
        reduced = any(its)
        if reduced and (cls != "row" or its != [False] * (len(its) - 1) + [True] or len(op.results) != 1 or
                        not self._map_fits(maps[-1], "row", len(its), "full")):
            return None
        leaves = {}
        for v, m, arg in zip(list(op.operands)[:n_in], maps, args):
            node = self.tensor(v)
            if node is None or not self._map_fits(m, self.shape_class(v), len(its), cls):
                return None
            leaves[arg] = node
        yielded = list(block.operations)[-1].operands[result]
        if not reduced:
            return self.scalar(yielded, leaves, value)
        # A sum over the row from a fill of 0: yield out + f(inputs), either order.
        add = producer(yielded)
        out = args[n_in + result]
        if add is None or add.name != "arith.addf" or out not in list(add.operands) or \
                fill_constant(op.operands[n_in + result]) != 0.0:
            return None
        term = [x for x in add.operands if x != out]
        body = self.scalar(term[0], leaves, None) if len(term) == 1 else None
        return None if body is None else Node("sum", (body,), value)

    def _map_fits(self, m: ir.AffineMap, cls: str | None, loops: int, out: str) -> bool:
        """Whether a generic of `loops` loops over a tensor of class `out` (full: A's loops; a
        row) reads a tensor of class `cls` through `m` as the class says: full through the
        identity, a row through the leading loops (a kept dim at 0, or at its own unit loop in
        a generic over rows), a k vector through the last loop, a scalar through none."""
        dims = [ir.AffineDimExpr(e).position if isinstance(e, ir.AffineDimExpr) else
                ("0" if isinstance(e, ir.AffineConstantExpr) and ir.AffineConstantExpr(e).value == 0 else None)
                for e in m.results]
        lead = list(range(len(self.full) - 1))
        if cls == "full":
            return loops == len(self.full) and dims == list(range(loops))
        if cls == "row":
            return dims in (lead, lead + ["0"]) or (out == "row" and dims == list(range(loops)))
        if cls == "kvec":
            return out == "full" and dims[-1:] == [loops - 1] and all(d == "0" for d in dims[:-1])
        return cls == "scalar" and all(d == "0" for d in dims)

    def scalar(self, v: ir.Value, leaves: dict, value: ir.Value | None) -> Node | None:
        """The tree of a body value `v` (block arguments are `leaves`); `value`: the tensor it
        is the elements of, for the root."""
        if v in leaves:
            return leaves[v]
        op = producer(v)
        if op is None:
            return None
        if op.name == "arith.constant":
            c = constant_float(v)
            return None if c is None else Node("const", const=c)
        if op.name in _CASTS:
            inner = self.scalar(op.operands[0], leaves, None)
            # A cast of x alone is x again, as the tensor it makes (the f32 copy a norm reads).
            if inner is not None and inner.kind == "x" and value is not None:
                return Node("x", value=value)
            return inner
        if op.name in _UNARY:
            inner = self.scalar(op.operands[0], leaves, None)
            return None if inner is None else Node(_UNARY[op.name], (inner,), value)
        if op.name in _BINARY:
            a, b = (self.scalar(x, leaves, None) for x in op.operands)
            return None if a is None or b is None else Node(_BINARY[op.name], (a, b), value)
        if op.name == "math.fpowi":  # torch's x ** 2 in transformers' RMSNorm
            base = self.scalar(op.operands[0], leaves, None)
            exponent = producer(op.operands[1])
            two = exponent is not None and exponent.name == "arith.constant" and \
                isinstance(exponent.attributes["value"], ir.IntegerAttr) and \
                ir.IntegerAttr(exponent.attributes["value"]).value == 2
            return Node("mul", (base, base), value) if base is not None and two else None
        if op.name == "math.powf":
            base, exponent = self.scalar(op.operands[0], leaves, None), self.scalar(op.operands[1], leaves, None)
            kind = _POWERS.get(exponent.const) if exponent is not None and exponent.kind == "const" else None
            if base is None or kind is None:
                return None
            return Node("mul", (base, base), value) if kind == "square" else Node(kind, (base,), value)
        return None


def read_norm(a: ir.Value) -> Norm | None:
    """A (a matmul's left operand, [..., M, K]) read as a normalization of x's rows (module
    doc), or None."""
    t = ir.RankedTensorType(a.type)
    if not t.has_static_shape or t.rank < 2:
        return None
    tree = _Reader(list(t.shape)).tensor(a)
    if tree is None:
        return None
    gamma = beta = None
    if tree.kind == "add":
        (tree, beta) = _split_kvec(tree)
    if tree is not None and tree.kind == "mul":
        (tree, gamma) = _split_kvec(tree)
    if tree is None or tree.kind not in ("mul", "div"):
        return None
    u, r = tree.args
    if tree.kind == "mul" and r.kind != "sum" and not r.is_row():
        u, r = r, u
    if not r.is_row():
        return None
    scale = r if tree.kind == "mul" else Node("div", (Node("const", const=1.0), r))
    x = u.args[0] if u.kind == "sub" else u
    if x.value is None or _has_sum(x) or (u.kind == "sub" and not _is_mean(u.args[1], x)):
        return None
    if not _has_sum(scale) or not _sums_known(scale, x):
        return None
    return Norm(x, u.kind == "sub", scale, gamma, beta)


def _split_kvec(node: Node) -> tuple[Node | None, ir.Value | float | None]:
    """(the other operand, the k vector or the constant) of a binary node with one k-vector or
    constant operand (a freshly initialized norm's scale of 1 and shift of 0 are splats)."""
    a, b = node.args
    for other, vec in ((a, b), (b, a)) if node.kind == "mul" else ((a, b),):
        if vec.kind in ("kvec", "const") and not other.is_row():
            return other, vec.value if vec.kind == "kvec" else vec.const
    return node, None


def _is_sum_of(node: Node, x: Node) -> bool:
    return node.kind == "sum" and node.args[0].key() == x.key()


def _is_mean(node: Node, x: Node) -> bool:
    """sum(x) / K (or times 1 / K)."""
    k = ir.RankedTensorType(x.value.type).shape[-1]
    if node.kind == "div" and node.args[1].kind == "const":
        return _is_sum_of(node.args[0], x) and node.args[1].const == k
    return node.kind == "mul" and any(_is_sum_of(a, x) for a in node.args) and \
        any(a.kind == "const" and abs(a.const * k - 1) < 1e-6 for a in node.args)


def stat_of(node: Node, x: Node) -> str | None:
    """Which row statistic a sum node is: "sum" (of x), "squares" (of x * x), "centered"
    (of (x - mean)^2); None for anything else."""
    if node.kind != "sum":
        return None
    body = node.args[0]
    if _is_sum_of(node, x):
        return "sum"
    if body.kind == "mul":
        a, b = body.args
        if a.key() == b.key() == x.key():
            return "squares"
        if a.key() == b.key() and a.kind == "sub" and a.args[0].key() == x.key() and _is_mean(a.args[1], x):
            return "centered"
    return None


def _has_sum(node: Node) -> bool:
    return node.kind == "sum" or any(_has_sum(a) for a in node.args)


def _sums_known(node: Node, x: Node) -> bool:
    if node.kind == "sum":
        return stat_of(node, x) is not None
    return all(_sums_known(a, x) for a in node.args)
