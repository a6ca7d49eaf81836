"""The decomposed attention chain of an imported graph (ONNX through torch-mlir), found and
rebuilt as one `iree_linalg_ext.attention` (ldsopt-raise-attention, passes/raise_attention.py).

The chain, from its end:
    O = batch_matmul(P, V)                     P, V: [g, m, k2], [g, k2, n]
    P = softmax(L) over its last dim           `linalg.softmax`, or the generics of the
                                               decomposition: max (an argmax result beside it
                                               unused), x - max, exp, sum, e / sum
    L = S * c (or S / c), then + mask          elementwise generics, each optional; c a
                                               scalar constant (an operand, or in the body),
                                               the mask any tensor the add reads through a
                                               projection (broadcast)
(an f16 graph's float casts between these steps, and after P V, are read through: the op
computes the scores and the softmax in f32, as IREE's attention and PyTorch do)
    S = batch_matmul(Q, K^T)                   Q: [g, m, k1], K^T: [g, k1, k2]
each of P, Q, K^T, V possibly a `tensor.collapse_shape` [[0, 1], [2], [3]] of a [b, h, ...]
tensor (then S, L, P are [b, h, m, k2] tensors expanded from [g, m, k2]), itself possibly a
`linalg.transpose` of the heads out of a [b, s, h, d] projection; O possibly expanded back to
[b, h, m, n] and transposed. The attention reads Q, K and V where the transposes read them
(its indexing maps say the order) and writes O in the transposed order: the head transposes
are gone, the collapses and expands around them too. Raised only where Q and K end up read
along the head dim and V and O along the value dim, as ldsopt-attention's kernels read them,
and where every operand's shape is static (a dynamic batch is left as it is).

`Chain.raise_()` builds the op (scale c, or 1; the mask as the op's additive mask, read
through a collapse of its broadcast dims of extent 1, as the op's maps are projections; the
identity region) and replaces the transposed (or plain) output; the chain's ops, now unused,
are left to canonicalization (an intermediate the program reads elsewhere stays computed
there). P must be read by the product alone.

A causal mask held as a constant (GPT-2's and Llama's ONNX graphs add one: 0 where the key is
at or before the query's row, one value c past it, the same for every head) is computed from
the indices instead, `select(k2 > m, c, 0)` in an elementwise generic of its own
(CAUSAL_MASK_ATTR): the same values, which IREE fuses into the attention's dispatch, where
ldsopt-attention reads it as causal and skips the key tiles past the diagonal
(match.NEGLIGIBLE bounds c). The weights-sized constant is no longer read.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import arith, tensor

from ldsopt.attention.match import NEGLIGIBLE
from ldsopt.codegen.elementwise import map_dims
from ldsopt.ir_types import constant_float, fill_constant

ATTENTION = "iree_linalg_ext.attention"
# Marks each attention's causal mask generator with its own value: IREE merges equal
# generators, and hoists one of several uses into a global that the dispatches load, where
# ldsopt-attention no longer sees that it is causal.
CAUSAL_MASK_ATTR = "ldsopt.causal_mask"


def _op(v: ir.Value) -> ir.Operation | None:
    return v.owner.operation if isinstance(v, ir.OpResult) else None


def _only_use(v: ir.Value) -> bool:
    return len(list(v.uses)) == 1


def _body(op: ir.Operation) -> list[ir.Operation]:
    return [o.operation for o in op.regions[0].blocks[0].operations]


def _elementwise(v: ir.Value, name: str) -> ir.Operation | None:
    """The all-parallel generic producing `v` whose body is one `name` op and its yield."""
    op = _op(v)
    if op is None or op.name != "linalg.generic" or len(op.results) != 1:
        return None
    if any("reduction" in str(it) for it in op.attributes["iterator_types"]):
        return None
    body = _body(op)
    return op if len(body) == 2 and body[0].name == name and body[1].operands[0] == body[0].results[0] else None


def _reduction(v: ir.Value, name: str) -> ir.Operation | None:
    """The generic producing `v` (its result 0) that reduces its last loop with `name`."""
    op = _op(v)
    if op is None or op.name != "linalg.generic" or list(op.results).index(v) != 0:
        return None
    its = ["reduction" in str(it) for it in op.attributes["iterator_types"]]
    if its != [False] * (len(its) - 1) + [True]:
        return None
    return op if any(o.name == name for o in _body(op)) else None


def _through_expand(v: ir.Value) -> ir.Value:
    op = _op(v)
    return op.operands[0] if op is not None and op.name == "tensor.expand_shape" else v


def _through_casts(v: ir.Value) -> ir.Value:
    """`v` before the float casts (`truncf`, `extf` generics) that produce it: an f16 graph
    rounds its scores and probabilities to f16 between the steps that IREE's attention takes
    in f32."""
    while True:
        op = _elementwise(v, "arith.truncf") or _elementwise(v, "arith.extf")
        if op is None or len(op.operands) != 2:
            return v
        v = op.operands[0]


def _cast_user(v: ir.Value) -> ir.Value:
    """The result of the one float-cast generic reading `v` where it is that (an f16 graph's
    product rounded to f16), else `v`."""
    users = [u.owner for u in v.uses]
    if len(users) == 1 and users[0].name == "linalg.generic" and \
            (_elementwise(users[0].results[0], "arith.truncf") or _elementwise(users[0].results[0], "arith.extf")):
        return users[0].results[0]
    return v


def _softmax_input(p: ir.Value) -> ir.Value | None:
    """L where p = softmax(L) over the last dim, in either spelling."""
    op = _op(p)
    if op is not None and op.name == "linalg.softmax":
        rank = ir.RankedTensorType(p.type).rank
        return op.operands[0] if ir.IntegerAttr(op.attributes["dimension"]).value == rank - 1 else None
    div = _elementwise(p, "arith.divf")
    if div is None:
        return None
    e, total = div.operands[0], _through_expand(div.operands[1])
    sum_op, exp = _reduction(total, "arith.addf"), _elementwise(e, "math.exp")
    if sum_op is None or exp is None or sum_op.operands[0] != e:
        return None
    sub = _elementwise(exp.operands[0], "arith.subf")
    if sub is None:
        return None
    logits, top = sub.operands[0], _through_expand(sub.operands[1])
    max_op = _reduction(top, "arith.maximumf")
    if max_op is None or max_op.operands[0] != logits or any(len(list(r.uses)) for r in list(max_op.results)[1:]):
        return None
    return logits


def _scaled(v: ir.Value) -> tuple[ir.Value, float] | None:
    """(S, c) where `v` is S * c, or S / c (c its inverse), c a nonzero scalar constant: a
    0-d or splat operand of the generic (ONNX's Mul and Div), or a constant its body reads,
    through a float cast (PyTorch's `scores / math.sqrt(d)`: an f64 constant truncated in the
    body). S before its float casts."""
    for name in ("arith.mulf", "arith.divf"):
        op = _elementwise(v, name)
        c = constant_float(op.operands[1]) if op is not None and len(op.operands) == 3 else None
        if c is None:
            op, c = _body_constant(v, name)
        if c is not None and c != 0.0:
            return _through_casts(op.operands[0]), c if name == "arith.mulf" else 1.0 / c
    return None


def _body_constant(v: ir.Value, name: str) -> tuple[ir.Operation | None, float | None]:
    """(the one-input generic producing `v`, c) where its body is `name` of its input and a
    scalar constant c, read through float casts; (None, None) otherwise."""
    op = _op(v)
    if op is None or op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results) != 1 or \
            not _elementwise_maps(op) or len(_body(op)) < 2:
        return None, None
    *casts, binary, end = _body(op)
    if binary.name != name or end.operands[0] != binary.results[0] or \
            binary.operands[0] != op.regions[0].blocks[0].arguments[0] or \
            any(c.name not in ("arith.truncf", "arith.extf") for c in casts):
        return None, None
    return op, constant_float(_through_scalar_casts(binary.operands[1], casts))


def _elementwise_maps(op: ir.Operation) -> bool:
    """Whether the all-parallel generic `op` reads every operand by its loops, as it writes."""
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in op.attributes["indexing_maps"]]
    return not any("reduction" in str(it) for it in op.attributes["iterator_types"]) and \
        all(m == list(range(len(maps[-1]))) for m in maps)


def _through_scalar_casts(v: ir.Value, casts: list[ir.Operation]) -> ir.Value:
    """`v` before the scalar float casts among `casts` that produce it."""
    while (op := _op(v)) is not None and any(op == c for c in casts):
        v = op.operands[0]
    return v


@dataclasses.dataclass
class View:
    """A tensor and, per dim, the attention loop it runs along: a loop's name, a tuple of
    loops the dim merges (grouped-query attention's query heads: (h, r)), or None for a
    broadcast dim of extent 1 (read at index 0)."""
    value: ir.Value
    loops: list


def _reassociation(op: ir.Operation) -> list[list[int]]:
    return [[ir.IntegerAttr(x).value for x in ir.ArrayAttr(g)] for g in ir.ArrayAttr(op.attributes["reassociation"])]


def _split(label, n: int) -> list | None:
    """The labels of `n` dims that a collapse merges into one dim of `label`: the first n - 1
    loops alone, the rest merged ([b, (h, r)] for the [batch, heads] of a grouped-query
    attention's query); None where `label` merges fewer loops."""
    if n == 1:
        return [label]
    if not isinstance(label, tuple) or len(label) < n:
        return None
    rest = label[n - 1:]
    return list(label[:n - 1]) + [rest[0] if len(rest) == 1 else rest]


def _repeated(op: ir.Operation) -> list[int] | None:
    """The output dims that the generic `op` reads its one input along, where it is a
    broadcast (all parallel, its body only yields the input): Llama's repeat_kv expand."""
    if op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results) != 1 or \
            any("reduction" in str(it) for it in op.attributes["iterator_types"]):
        return None
    body = _body(op)
    if len(body) != 1 or body[0].operands[0] != op.regions[0].blocks[0].arguments[0]:
        return None
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in op.attributes["indexing_maps"]]
    rank = ir.RankedTensorType(op.results[0].type).rank
    return maps[0] if None not in maps[0] and maps[1] == list(range(rank)) else None


def _view(v: ir.Value, loops: list, sizes: dict[str, int]) -> View:
    """The operand `v` (dims `loops`) read where its collapses (of merged loops), transposes
    and the broadcast of a repeat (of the GQA repeat loop "r" alone) read it; `sizes` gets the
    extent of each loop found alone on a dim."""
    while True:
        op = _op(v)
        if op is not None and op.name == "tensor.collapse_shape":
            split = [_split(x, len(g)) for x, g in zip(loops, _reassociation(op))]
            if None in split:
                break
            v, loops = op.operands[0], [x for part in split for x in part]
        elif op is not None and op.name == "linalg.transpose":
            perm = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
            src = [None] * len(perm)
            for i, p in enumerate(perm):
                src[p] = loops[i]
            v, loops = op.operands[0], src
        elif op is not None and (read := _repeated(op)) is not None and \
                all(loops[d] == "r" for d in range(len(loops)) if d not in read):
            v, loops = op.operands[0], [loops[d] for d in read]
        else:
            break
        for x, n in zip(loops, ir.RankedTensorType(v.type).shape):
            if isinstance(x, str):
                sizes[x] = n
    return View(v, loops)


def _batch(*operands: ir.Value) -> list[str]:
    """The batch loops: ["b", "h"] where every operand is a [[0, 1], ...] collapse of a rank-4
    [batch, heads, ...] tensor, or of a rank-5 one; ["b", "h", "r"] (grouped-query attention:
    K/V heads h, each repeated for r query heads) where, besides, some are [[0, 1, 2], ...]
    collapses of rank-5 [batch, K/V heads, repeats, ...] tensors, each of whose batch and K/V
    heads times repeats are the rank-4 ones' batch and heads; else ["g"]. A rank-5 tensor whose
    leading dims are not those (a packed QKV's slice, [1, batch, heads, ...]) is read through
    its collapse, as [batch, heads]."""
    lead: dict[int, set[tuple[int, ...]]] = {2: set(), 3: set()}  # per merged rank, the merged dims' extents
    for v in operands:
        op = _op(v)
        if op is None or op.name != "tensor.collapse_shape":
            return ["g"]
        groups, shape = _reassociation(op), ir.RankedTensorType(op.operands[0].type).shape
        if (len(shape), groups) == (4, [[0, 1], [2], [3]]):
            lead[2].add(tuple(shape[:2]))
        elif (len(shape), groups) == (5, [[0, 1, 2], [3], [4]]):
            lead[3].add(tuple(shape[:3]))
        else:
            return ["g"]
    if lead[3] and all((b, h * r) in lead[2] for b, h, r in lead[3]) and len(lead[2]) == 1:
        return ["b", "h", "r"]
    return ["b", "h"]


@dataclasses.dataclass
class Chain:
    pv: ir.Operation                 # batch_matmul(P, V)
    views: dict[str, View]           # q, k, v, out; mask where there is one
    scale: float
    replaced: ir.Value               # the value the attention's result replaces
    batch: list[str]
    sizes: dict[str, int]            # the extents of the loops that merged dims hold
    causal_past: float | None = None  # the mask is a causal constant of this value past the diagonal

    def _unmerged(self, view: View) -> tuple[list, list[int], list[list[int]]]:
        """The loops and shape of `view` with each dim that merges loops split into a dim a
        loop, and the reassociation from those dims to the view's."""
        loops, shape, groups = [], [], []
        for x, n in zip(view.loops, ir.RankedTensorType(view.value.type).shape):
            parts = list(x) if isinstance(x, tuple) else [x]
            groups.append(list(range(len(loops), len(loops) + len(parts))))
            loops += parts
            shape += [self.sizes[y] for y in parts] if len(parts) > 1 else [n]
        return loops, shape, groups

    def raise_(self, ordinal: int = 0) -> ir.Value:
        """The attention op in place of the chain; `ordinal` tells its causal mask generator
        from other attentions' (CAUSAL_MASK_ATTR)."""
        order = self.batch + ["m", "n", "k1", "k2"]
        n_loops = len(order)

        def amap(view: View) -> ir.AffineMapAttr:
            exprs = [ir.AffineDimExpr.get(order.index(x)) if x is not None else ir.AffineConstantExpr.get(0)
                     for x in view.loops]
            return ir.AffineMapAttr.get(ir.AffineMap.get(n_loops, 0, exprs))

        if self.causal_past is not None:
            self.views["mask"] = _causal_mask(self.views["mask"], self.causal_past, ordinal)
        with ir.InsertionPoint(self.replaced.owner), self.pv.location:
            views = {}
            for r, view in self.views.items():
                loops, shape, groups = self._unmerged(view)
                t = ir.RankedTensorType.get(shape, ir.RankedTensorType(view.value.type).element_type)
                if r == "out":  # the result's type, its merged dims split; merged back below
                    out, out_t, out_groups = View(None, loops), t, groups
                elif len(groups) == len(shape):
                    views[r] = view
                else:  # a view of the operand with its merged dims split (no copy)
                    views[r] = View(tensor.ExpandShapeOp(t, view.value, _reassociation_attr(groups), [],
                                                         shape).result, loops)
                if r != "out":
                    views[r] = _without_broadcast_dims(views[r])
            elem = ir.RankedTensorType(views["q"].value.type).element_type
            scale = arith.constant(elem, self.scale)
            init = ir.Operation.create("tensor.empty", results=[out_t]).result
            roles = ["q", "k", "v"] + (["mask"] if "mask" in views else [])
            maps = [amap(views[r]) for r in roles[:3]] + \
                [ir.AffineMapAttr.get(ir.AffineMap.get(n_loops, 0, []))] + \
                [amap(views[r]) for r in roles[3:]] + [amap(out)]
            operands = [views[r].value for r in roles[:3]] + [scale] + [views[r].value for r in roles[3:]] + [init]
            op = ir.Operation.create(ATTENTION, results=[out_t], operands=operands,
                                     attributes={"indexing_maps": ir.ArrayAttr.get(maps)}, regions=1)
            block = op.regions[0].blocks.append(ir.F32Type.get())
            with ir.InsertionPoint(block):
                ir.Operation.create("iree_linalg_ext.yield", operands=[block.arguments[0]])
            result = op.result
            if len(out_groups) != out_t.rank:
                result = tensor.CollapseShapeOp(self.replaced.type, result, _reassociation_attr(out_groups)).result
        self.replaced.replace_all_uses_with(result)
        return result


def _causal_past_value(view: View) -> float | None:
    """c where `view` (a mask) is a float constant that is 0 where k2 <= m and c <= NEGLIGIBLE
    where k2 > m, over as many keys as rows, the same along its other dims; else None."""
    op = _op(view.value)
    if op is None or op.name != "arith.constant" or "m" not in view.loops or "k2" not in view.loops:
        return None
    attr = op.attributes["value"]
    t = ir.RankedTensorType(view.value.type)
    if not isinstance(attr, ir.DenseFPElementsAttr) or ir.DenseFPElementsAttr(attr).is_splat or \
            not isinstance(t.element_type, (ir.F16Type, ir.F32Type)):
        return None
    rows, keys = (t.shape[view.loops.index(x)] for x in ("m", "k2"))
    if rows != keys or rows < 2:
        return None
    values = np.array(ir.DenseFPElementsAttr(attr), dtype=np.float32).reshape(t.shape)
    values = np.moveaxis(values, (view.loops.index("m"), view.loops.index("k2")), (-2, -1)).reshape(-1, rows, keys)
    kept = np.tril(np.ones((rows, keys), dtype=bool))
    past = values[0][~kept]
    if not ((values == values[0]).all() and (values[0][kept] == 0).all() and (past == past[0]).all()
            and past[0] <= NEGLIGIBLE):
        return None
    return float(past[0])


def _causal_mask(view: View, past: float, ordinal: int) -> View:
    """A [m, k2] generic of `select(k2 > m, past, 0)` of `view`'s element type, at `view`'s
    constant, marked CAUSAL_MASK_ATTR = `ordinal`."""
    t = ir.RankedTensorType(view.value.type)
    shape = [t.shape[view.loops.index(x)] for x in ("m", "k2")]
    result = ir.RankedTensorType.get(shape, t.element_type)
    with ir.InsertionPoint(_op(view.value)), _op(view.value).location:
        init = ir.Operation.create("tensor.empty", results=[result]).result
        identity = ir.AffineMapAttr.get(ir.AffineMap.get_identity(2))
        parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
        gen = ir.Operation.create(
            "linalg.generic", results=[result], operands=[init],
            attributes={"indexing_maps": ir.ArrayAttr.get([identity]),
                        "iterator_types": ir.ArrayAttr.get([parallel, parallel]),
                        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 1]),
                        CAUSAL_MASK_ATTR: ir.IntegerAttr.get(ir.IntegerType.get_signless(64), ordinal)}, regions=1)
        block = gen.regions[0].blocks.append(t.element_type)
        with ir.InsertionPoint(block):
            index = ir.IndexType.get()
            row, key = (ir.Operation.create("linalg.index", results=[index],
                                            attributes={"dim": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), d)}).result
                        for d in (0, 1))
            value = arith.select(arith.cmpi(arith.CmpIPredicate.ugt, key, row), arith.constant(t.element_type, past),
                                 arith.constant(t.element_type, 0.0))
            ir.Operation.create("linalg.yield", operands=[value])
    return View(gen.result, ["m", "k2"])


def _without_broadcast_dims(view: View) -> View:
    """`view` with its broadcast dims (None: extent 1, read at index 0) collapsed away (no
    copy): IREE's attention op takes projections for maps, reading each of their results as a
    loop (a constant 0 it reads as loop 0, so a mask [1, h, m, k2] over a batch of 3 fails its
    verifier)."""
    if None not in view.loops:
        return view
    groups, pending = [], []
    for i, x in enumerate(view.loops):
        pending.append(i)
        if x is not None:
            groups.append(pending)
            pending = []
    if groups:
        groups[-1] += pending
    src = ir.RankedTensorType(view.value.type)
    t = ir.RankedTensorType.get([n for n, x in zip(src.shape, view.loops) if x is not None], src.element_type)
    return View(tensor.CollapseShapeOp(t, view.value, _reassociation_attr(groups)).result,
                [x for x in view.loops if x is not None])


def _reassociation_attr(groups: list[list[int]]) -> ir.ArrayAttr:
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, i) for i in g]) for g in groups])


def _batch_matmul(v: ir.Value) -> ir.Operation | None:
    op = _op(v)
    return op if op is not None and op.name == "linalg.batch_matmul" and _is_plain_batch_matmul(op) else None


def _is_plain_batch_matmul(op: ir.Operation) -> bool:
    """[g, m, k] x [g, k, n] from a zero fill (its default maps)."""
    if "indexing_maps" in op.attributes:
        maps = [map_dims(ir.AffineMapAttr(a).value) for a in op.attributes["indexing_maps"]]
        if maps != [[0, 1, 3], [0, 3, 2], [0, 1, 2]]:
            return False
    return fill_constant(op.operands[2]) == 0.0


def match(pv: ir.Operation) -> Chain | None:
    """The chain ending in batch_matmul `pv`, or None (module docstring)."""
    if not _is_plain_batch_matmul(pv):
        return None
    p_c, v_c = pv.operands[0], pv.operands[1]
    p4 = _op(p_c).operands[0] if _op(p_c) is not None and _op(p_c).name == "tensor.collapse_shape" else p_c
    probs = _through_casts(p4)
    logits = _softmax_input(probs)
    if logits is None or not _only_use(p4) or not _only_use(probs):
        return None
    scale, mask, s = 1.0, None, _through_casts(logits)
    add = _elementwise(s, "arith.addf")
    if add is not None:
        maps = [map_dims(ir.AffineMapAttr(a).value) for a in add.attributes["indexing_maps"]]
        full = list(range(ir.RankedTensorType(s.type).rank))
        if maps[0] != full:
            return None
        mask = (add.operands[1], ir.AffineMapAttr(add.attributes["indexing_maps"][1]).value)
        s = add.operands[0]
    scaled = _scaled(s)
    if scaled is not None:
        s, scale = scaled
    qk = _batch_matmul(_through_casts(_through_expand(s)))
    if qk is None:
        return None
    batch = _batch(qk.operands[0], qk.operands[1], p_c, v_c)
    if (batch != ["g"]) != (s != _through_expand(s)):
        return None  # the scores are [g, m, k2] where the operands are [b, h, ...], or the reverse
    g, sizes = "g" if batch == ["g"] else tuple(batch), {}
    views = {"q": _view(qk.operands[0], [g, "m", "k1"], sizes), "k": _view(qk.operands[1], [g, "k1", "k2"], sizes),
             "v": _view(v_c, [g, "k2", "n"], sizes)}
    heads = batch if batch == ["g"] else _split(g, 2)   # [b, h] or [b, (h, r)]: the scores' dims
    if mask is not None:
        value, amap = mask
        logit_loops = heads + ["m", "k2"]
        loops = []
        for e in amap.results:
            if isinstance(e, ir.AffineDimExpr):
                loops.append(logit_loops[ir.AffineDimExpr(e).position])
            elif isinstance(e, ir.AffineConstantExpr) and ir.AffineConstantExpr(e).value == 0 and \
                    ir.RankedTensorType(value.type).shape[len(loops)] == 1:
                loops.append(None)  # a broadcast dim (a constant index into a longer one is not)
            else:
                return None
        views["mask"] = View(value, loops)
    out, loops = _cast_user(pv.results[0]), ["g", "m", "n"]
    if batch != ["g"]:
        exp = [u.owner for u in out.uses]
        if len(exp) != 1 or exp[0].name != "tensor.expand_shape" or _reassociation(exp[0]) != [[0, 1], [2], [3]]:
            return None
        out, loops = exp[0].results[0], heads + ["m", "n"]
        users = [u.owner for u in out.uses]
        if len(users) == 1 and users[0].name == "linalg.transpose":
            perm = list(ir.DenseI64ArrayAttr(users[0].attributes["permutation"]))
            out, loops = users[0].results[0], [loops[p] for p in perm]
    views["out"] = View(out, loops)
    # What ldsopt-attention's kernels read in vectors: a chain raised into an op that no
    # kernel takes would leave IREE one dispatch it cannot compile for Vulkan, not three it can.
    if [views[r].loops[-1] for r in ("q", "k", "v", "out")] != ["k1", "k1", "n", "n"]:
        return None
    if not all(ir.RankedTensorType(view.value.type).has_static_shape for view in views.values()):
        return None  # ldsopt-attention takes static shapes (and the views' expands would need extents)
    for r in ("q", "k", "v"):
        if ir.RankedTensorType(views[r].value.type).element_type != ir.RankedTensorType(out.type).element_type:
            return None
    if any(isinstance(x, tuple) and not all(y in sizes for y in x) for view in views.values() for x in view.loops):
        return None  # a merged dim whose loops' extents no operand shows
    if 1 in (sizes.get("k1"), sizes.get("k2"), sizes.get("n")):
        return None  # IREE drops a unit head, key or value loop, leaving an op that no kernel takes
    return Chain(pv, views, scale, out, batch, sizes, _causal_past_value(views["mask"]) if "mask" in views else None)
