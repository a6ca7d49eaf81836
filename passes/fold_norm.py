"""ldsopt-fold-norm: a LayerNorm or RMSNorm whose only users are matmuls by constant weights is
folded into them, so that each product and its row statistics are one dispatch and the norm's
own dispatch, with its write and read of the normalized rows, is gone.

Runs on the program (the `func.func`s of the top module, on tensors), before IREE forms
dispatches; last in the program pipeline, so that the passes before it see the program as
imported (it wraps what it forms in `flow.dispatch.region`s, which they do not look into).

Matches a contraction that ldsopt-matmul-lds reads as a (batch) matmul (ldsopt/matmul/match.py's
`contraction_form`: static, A stored (b?, m, k), no batch dim elsewhere than first; A may be a
`tensor.collapse_shape` of the norm's rows into fewer leading dims, as torch views them for
addmm, which x then takes too), summing from a fill of 0, whose B is
computed from constants (projections.is_constant; a fence over constants too,
ldsopt-transpose-weights' copies) and whose A is a normalization of x's rows as
ldsopt/matmul/norms.py reads it: A = gamma * (x - mean) * R + beta (LayerNorm) or gamma * x * R
+ beta (RMSNorm), R any expression of the rows' sum, sum of squares and centered sum of squares,
gamma and beta optional constant vectors over k; x (or, where the norm extends it to f32, the
tensor it extends) of B's element type. Every user of A must be such a contraction.
Emits, per contraction (A [.., M, K], B = W with k, n in either order):
- W' = gamma * W (rounded to W's type), c = sum_k W'_kn and d = sum_k beta_k W_kn (f32), each behind a
  fence (`loop_split.fence`), so that IREE computes them once, at load, in an initializer
  (from the constants behind W's own fence where it has one: IREE hoists nothing computed
  from a fence's result);
- the rows' sums of x in one generic (ldsopt/matmul/row_stats.py's form): sum(x), and for a
  centered statistic sum(x - x0) and sum((x - x0)^2) with x0 the row's first element, so that
  the variance sum((x - mean)^2) = T2 - T1^2 / K does not cancel; sum(x * x) for RMS;
- x @ W' (the contraction, reading x and W');
- the rows' mean and scale R from those sums, in one generic over the rows (row_stats.py's
  finish: the kernel computes them once a row, not once an element);
- its consumer y = R * (acc - mean * c) + d (RMS: R * acc + d), in f32, in place of the
  contraction's result;
- one `flow.dispatch.region` of the sums, the row values, the product, y and the elementwise
  consumers IREE would fuse after it (all-parallel generics over its result's space reading
  it, and each other, through the identity), so that IREE keeps them one dispatch, which
  ldsopt-matmul-lds takes as a matmul with row sums (the region has one result used outside;
  otherwise nothing is rewritten).
Numerics: the same sums and products reassociated, in f32 where the program rounds to f16
between the norm's steps; the mean is subtracted after the product (acc - mean * c), c summing
the rounded gamma * W that the product reads, so that the difference is the sum of (x - mean)
W' but for f32 rounding even where the mean is far from 0 against the rows' spread. Remarks (lds-opt --remarks): each
product folded, and each norm left with why.

Option `stats=producer`: the rows' statistics come from where x is made instead of the folded
product's K loop. Taken where x [.., M, K] (K a multiple of CHUNK) is the one value read
elsewhere of a contraction and the all-parallel generics after it on its way to x (a
residual block's h = x_in + attn @ Wo + b: `_made_by_product`); else the norm is left alone.
That product, its generics and a generic summing x - h0 and its square over each chunk of
CHUNK columns (h0 the chunk's first element; x * x for RMS), read through `n floordiv CHUNK`
(ldsopt/matmul/chunk_stats.py's form), become one `flow.dispatch.region` of three results (two
for RMS); each folded product's row sums are then one generic over (.., m, chunk) combining
them with x's elements at each chunk's start and the row's (`_combined`: the same sums,
reassociated; ldsopt/matmul/row_stats.py's row values from loaded tensors).
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, math, tensor

from ldsopt import remarks
from ldsopt.codegen.dispatch import erase_unused
from ldsopt.codegen.loop_split import FENCE, fence, program_ops
from ldsopt.ir_types import fill_constant, producer
from ldsopt.matmul import norms
from ldsopt.matmul.match import ROOTS, contraction_form
from ldsopt.matmul.projections import is_constant
from ldsopt.registry import ModulePass, option

CHUNK = 64  # columns of a chunk of the producer form's statistics: the least BN of a wgmma plan


@dataclasses.dataclass(frozen=True)
class FoldNorm(ModulePass):
    NAME = "ldsopt-fold-norm"
    SUMMARY = "Fold a LayerNorm or RMSNorm into the matmuls by constant weights that read it (program level)"

    stats: str = option("rows", "where the rows' statistics come from: rows (each folded product sums x's rows in "
                               "its K loop) or producer (the product whose epilogue makes x sums each chunk of "
                               f"{CHUNK} columns of it, in its dispatch; a norm whose x no product makes is left "
                               "alone)", choices=("rows", "producer"))

    def run(self, module: ir.Operation) -> None:
        by_a: dict = {}
        touched = []
        for op in program_ops(module, ROOTS):
            form = contraction_form(op)
            if form and not form.dynamic and _plain(form):
                by_a.setdefault(op.operands[form.roles["A"][0]], []).append((op, form))
        for a, products in by_a.items():
            view = _leading_collapse(a)  # torch's 2-D view of [b, s, k] rows for a matmul
            norm = norms.read_norm(view.operands[0] if view is not None else a)
            if norm is None:
                continue
            why = _refusal(a, norm, products, view)
            folded = []
            for op, form in products if not why else []:
                if _consumers(op) is None:
                    remarks.program_remark(op, self.NAME, False, "the product's consumers are not one chain IREE "
                                           "would fuse into one dispatch with it")
                else:
                    folded.append((op, form))
            chunks = None
            if folded and self.stats == "producer":  # the producer's region only where a fold reads it
                x = _source(norm, products[0][0].operands[products[0][1].roles["B"][0]])
                producer = _made_by_product(x)
                why = _producer_refusal(x, producer)
                chunks, x = (None, None) if why else _chunk_stats(producer, _stat_names(norm))
            if why:
                remarks.program_remark(products[0][0], self.NAME, False, why)
                continue
            for op, form in folded:
                remarks.program_remark(op, self.NAME, True, f"{'LayerNorm' if norm.centered else 'RMSNorm'} over "
                                       f"{form.sizes['k']} folded into the product and its row sums" +
                                       (", combined from the statistics per chunk the product before makes"
                                        if chunks else ""))
                touched.append(op.block)
                _fold(op, form, norm, x if chunks else _source(norm, op.operands[form.roles["B"][0]]), view, chunks)
        for block in {id(b): b for b in touched}.values():
            _erase_unused(block)


def _plain(form) -> bool:
    """A stored (b?, m, k) and B with its batch dims (if any) first."""
    return form.roles["A"][1] == ("m", "k") and not form.batch_at


def _from_zeros(op: ir.Operation) -> bool:
    """Whether the contraction sums from a fill of 0 (into a loaded init, such as addmm's bias,
    the init would be scaled by the normalizing consumer)."""
    return fill_constant(op.operands[len(op.operands) - 1]) == 0.0


def _unfenced(w: ir.Value) -> ir.Value:
    """`w`, or what it is behind a fence (ldsopt-transpose-weights' copies): IREE hoists to load
    time what is computed from constants, but nothing from a fence's result."""
    op = producer(w)
    return op.operands[0] if op is not None and op.name == FENCE else w


def _source(norm: norms.Norm, weight: ir.Value) -> ir.Value | None:
    """The tensor the product reads for x: x itself, or what it is extended from, whichever is of
    the weight's element type."""
    want = ir.RankedTensorType(weight.type).element_type
    x = norm.x.value
    if ir.RankedTensorType(x.type).element_type == want:
        return x
    op = producer(x)
    if op is not None and op.name == "linalg.generic" and len(op.operands) == 2:
        body = list(op.regions[0].blocks[0].operations)
        if len(body) == 2 and body[0].operation.name == "arith.extf" and \
                ir.RankedTensorType(op.operands[0].type).element_type == want and \
                ir.RankedTensorType(op.operands[0].type).shape == ir.RankedTensorType(x.type).shape:
            return op.operands[0]
    return None


def _leading_collapse(a: ir.Value) -> ir.Operation | None:
    """The `tensor.collapse_shape` making `a` of leading dims of its source, k kept last (a
    [b, s, k] tensor viewed as [b * s, k]), or None."""
    op = producer(a)
    if op is None or op.name != "tensor.collapse_shape":
        return None
    source = ir.RankedTensorType(op.operands[0].type).shape
    return op if source[-1:] == ir.RankedTensorType(a.type).shape[-1:] and len(source) > 1 else None


def _refusal(a: ir.Value, norm: norms.Norm, products: list, view: ir.Operation | None) -> str | None:
    users = {_op(u.owner) for u in a.uses}
    viewed = {_op(u.owner) for u in view.operands[0].uses} if view is not None else {None}
    if len(users) != len(products) or viewed != ({view} if view is not None else {None}):
        return "the normalized rows have other users than matmuls by constant weights"
    for op, form in products:
        w = op.operands[form.roles["B"][0]]
        if not is_constant(_unfenced(w)):
            return "a product's weights are not constants"
        if not _from_zeros(op):
            return "a product adds into a loaded init (a bias), which the norm's scale would scale too"
        if _source(norm, w) is None:
            return "x is not of the weights' element type"
    return None


def _fold(op: ir.Operation, form, norm: norms.Norm, x: ir.Value, view: ir.Operation | None,
          chunks: dict | None) -> None:
    """Rewrites product `op` (module doc), whose consumers `_consumers` found; `view`: the
    collapse of the norm's rows that it reads, which x takes too; `chunks`: x's statistics per
    chunk (`_chunk_stats`), which its row sums then combine."""
    a_pos, b_pos = form.roles["A"][0], form.roles["B"][0]
    w = _unfenced(op.operands[b_pos])
    k_dim = len(ir.RankedTensorType(w.type).shape) - 2 + form.roles["B"][1].index("k")
    k = ir.RankedTensorType(w.type).shape[k_dim]
    with ir.InsertionPoint(op), op.location:
        if view is not None:
            x = tensor.CollapseShapeOp(op.operands[a_pos].type, x, view.attributes["reassociation"]).result
        gamma, beta = _vector(norm.gamma, k, 1.0), _vector(norm.beta, k, 0.0)
        weights = _scaled_weights(w, k_dim, gamma) if gamma is not None else op.operands[b_pos]
        c = _reduced(w, k_dim, gamma if gamma is not None else _vector(1.0, k), True) if norm.centered else None
        d = _reduced(w, k_dim, beta, False) if beta is not None else None
        stats = _stat_names(norm)
        sums = _row_sums(x, stats) if chunks is None else _combined(x, chunks, stats, view)
        rows = _per_row(dict(zip(stats, sums)), norm, ir.RankedTensorType(x.type).shape[-1])
        product = op.clone()
        product.operands[a_pos] = x
        product.operands[b_pos] = weights
        y = _normalized(product.results[0], rows, c, d)
    op.results[0].replace_all_uses_with(y)
    op.erase()
    first = [_op(sums[0].owner), _op(rows[0].owner), _op(product), _op(y.owner)]
    _wrap(first + _consumers(_op(y.owner)))


def _stat_names(norm: norms.Norm) -> list[str]:
    """The row sums the kernel computes: "sum" (x), "t1" and "t2" (x - x0 and its square),
    "squares" (x * x), as the norm's statistics need them."""
    found = set()

    def visit(node: norms.Node):
        s = norms.stat_of(node, norm.x)
        if s:
            found.add(s)
        for arg in node.args:
            visit(arg)
    visit(norm.scale)
    names = []
    if norm.centered or "sum" in found:
        names.append("sum")
    if "centered" in found:
        names += ["t1", "t2"]
    if "squares" in found:
        names.append("squares")
    return names


def _vector(v: ir.Value | float | None, k: int, neutral: float | None = None) -> ir.Value | None:
    """A scale or shift over k as a tensor: itself, or a splat of a constant; None for the
    `neutral` one (a freshly initialized norm's scale of 1 and shift of 0: W itself, nothing)."""
    if v is None or isinstance(v, ir.Value):
        return v
    if v == neutral:
        return None
    t = ir.RankedTensorType.get([k], _f32())
    return arith.constant(t, ir.DenseElementsAttr.get_splat(t, ir.FloatAttr.get(_f32(), v)))


def _f32() -> ir.Type:
    return ir.F32Type.get()


def _identity(rank: int) -> ir.AffineMap:
    return ir.AffineMap.get_identity(rank)


def _generic(inputs: list[ir.Value], maps: list[ir.AffineMap], inits: list[ir.Value], iterators: list[str],
             body) -> list[ir.Value]:
    """A linalg.generic of `inputs` (read through `maps`) into `inits` (written through the
    last maps), its body `body(block arguments)` -> the yielded values."""
    op = linalg.GenericOp([v.type for v in inits], inputs, inits,
                          ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
                          ir.ArrayAttr.get([ir.Attribute.parse(f"#linalg.iterator_type<{i}>") for i in iterators]))
    block = op.regions[0].blocks.append(*[ir.RankedTensorType(v.type).element_type for v in inputs + inits])
    with ir.InsertionPoint(block):
        linalg.YieldOp(body(list(block.arguments)))
    return list(op.results)


def _k_map(rank: int, k_dim: int) -> ir.AffineMap:
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(k_dim)])


def _scaled(w: ir.Value, g: ir.Value, elem: ir.Type) -> ir.Value:
    """gamma * W of an element, in f32, rounded once to W's type `elem`: as the product reads it."""
    product = arith.mulf(_ext(w), _ext(g))
    return product if elem == _f32() else arith.truncf(elem, product)


def _scaled_weights(w: ir.Value, k_dim: int, gamma: ir.Value) -> ir.Value:
    """gamma * W along k (`_scaled`), behind a fence."""
    t = ir.RankedTensorType(w.type)
    out = tensor.empty(list(t.shape), t.element_type)
    (scaled,) = _generic([w, gamma], [_identity(t.rank), _k_map(t.rank, k_dim), _identity(t.rank)], [out],
                         ["parallel"] * t.rank, lambda args: [_scaled(args[0], args[1], t.element_type)])
    return fence(scaled)


def _reduced(w: ir.Value, k_dim: int, vec: ir.Value, rounded: bool) -> ir.Value:
    """sum_k vec_k W_k. (f32, W's dims but k), behind a fence; `rounded`: of the products
    rounded to W's type, the scaled weights the product reads (so that acc - mean * c is the
    sum of (x - mean) times them: a mean large against the rows' spread then cancels exactly)."""
    t = ir.RankedTensorType(w.type)
    shape = [n for i, n in enumerate(t.shape) if i != k_dim]
    zero = arith.constant(_f32(), 0.0)
    init = linalg.fill(zero, outs=[tensor.empty(shape, _f32())])
    kept = [ir.AffineDimExpr.get(i) for i in range(t.rank) if i != k_dim]
    iterators = ["reduction" if i == k_dim else "parallel" for i in range(t.rank)]

    def body(args):
        wv, g, acc = args
        return [arith.addf(acc, _ext(_scaled(wv, g, t.element_type if rounded else _f32())))]
    (summed,) = _generic([w, vec], [_identity(t.rank), _k_map(t.rank, k_dim), ir.AffineMap.get(t.rank, 0, kept)],
                         [init], iterators, body)
    return fence(summed)


def _ext(v: ir.Value) -> ir.Value:
    return v if v.type == _f32() else arith.extf(_f32(), v)


def _row_sums(x: ir.Value, names: list[str]) -> list[ir.Value]:
    """The row sums `names` of x [.., M, K] (f32 [.., M]) in one generic (row_stats.py's form)."""
    t = ir.RankedTensorType(x.type)
    rank = t.rank
    rows = list(t.shape[:-1])
    zero = arith.constant(_f32(), 0.0)
    fill = linalg.fill(zero, outs=[tensor.empty(rows, _f32())])
    first = "t1" in names
    row_map = ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(i) for i in range(rank - 1)])
    x0_map = ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(i) for i in range(rank - 1)] +
                              [ir.AffineConstantExpr.get(0)])
    inputs, maps = ([x, x], [_identity(rank), x0_map]) if first else ([x], [_identity(rank)])

    contract = ir.Attribute.parse("#arith.fastmath<contract>")  # a square and its sum may be one fma

    def body(args):
        v = _ext(args[0])
        outs = args[len(inputs):]
        shifted = arith.subf(v, _ext(args[1])) if first else None
        terms = {"sum": v, "t1": shifted, "t2": shifted and arith.mulf(shifted, shifted, fastmath=contract),
                 "squares": arith.mulf(v, v, fastmath=contract) if "squares" in names else None}
        return [arith.addf(out, terms[n], fastmath=contract) for out, n in zip(outs, names)]
    return _generic(inputs, maps + [row_map] * len(names), [fill] * len(names),
                    ["parallel"] * (rank - 1) + ["reduction"], body)


def _made_by_product(x: ir.Value | None) -> list[ir.Operation] | None:
    """The contraction and the elementwise ops after it that make x (all-parallel generics over
    x's shape, each reading the values on its way from the contraction through the identity),
    in program order, where x is the only value of theirs read elsewhere; else None."""
    if x is None:
        return None
    shape = ir.RankedTensorType(x.type).shape
    members, roots, todo = [], [], [x]
    while todo:
        op = producer(todo.pop())
        if op is None or op in members:
            continue
        members.append(op)
        if contraction_form(op):
            roots.append(op)
        else:
            todo += _on_the_way(op, shape)
    inside = set(members)
    escaping = {r for o in members for r in o.results if any(_op(u.owner) not in inside for u in r.uses)}
    return _in_block_order(members) if len(roots) == 1 and len(members) > 1 and escaping == {x} else None


def _on_the_way(op: ir.Operation, shape: list[int]) -> list[ir.Value]:
    """The inputs of elementwise `op` (an all-parallel generic of one result of `shape`; none
    for any other op) that it reads through the identity and that a contraction makes, directly
    or through such ops."""
    if op.name != "linalg.generic" or len(op.results) != 1 or ir.RankedTensorType(op.results[0].type).shape != shape \
            or any("reduction" in str(it) for it in op.attributes["iterator_types"]):
        return []
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    found = []
    for v, m in zip(list(op.operands)[:len(op.operands) - 1], maps):
        made = producer(v)
        if m == _identity(len(shape)) and made is not None and (contraction_form(made) or _on_the_way(made, shape)):
            found.append(v)
    return found


def _producer_refusal(x: ir.Value | None, producer: list[ir.Operation] | None) -> str | None:
    """Why x's statistics cannot come from the product that makes it (the producer form)."""
    if producer is None:
        return "x is not made by a product's elementwise epilogue (stats=producer)"
    if ir.RankedTensorType(x.type).shape[-1] % CHUNK:
        return f"x's rows are not whole chunks of {CHUNK} (stats=producer)"
    return None


def _chunk_stats(producer: list[ir.Operation], names: list[str]) -> tuple[dict, ir.Value]:
    """Statistics per chunk of CHUNK columns of x, the result of `producer`'s last op
    (chunk_stats.py's form): "t1" and "t2" (sum(x - h0), sum((x - h0)^2), h0 the chunk's first
    element) for a centered norm's sums, "squares" (sum(x * x)) for RMS; `producer` and them
    moved into one dispatch region. Returns them and x, as the region's results."""
    last = producer[-1]
    x = last.results[0]
    t = ir.RankedTensorType(x.type)
    rank = t.rank
    wanted = ["t1", "t2"] if "t1" in names or "sum" in names else ["squares"]
    with ir.InsertionPoint.after(last), last.location:
        dims = [ir.AffineDimExpr.get(i) for i in range(rank)]
        w = ir.AffineConstantExpr.get(CHUNK)
        chunk = ir.AffineFloorDivExpr.get(dims[-1], w)
        out_map = ir.AffineMap.get(rank, 0, dims[:-1] + [chunk])
        head_map = ir.AffineMap.get(rank, 0, dims[:-1] + [ir.AffineMulExpr.get(chunk, w)])
        zero = arith.constant(_f32(), 0.0)
        fill = linalg.fill(zero, outs=[tensor.empty(list(t.shape[:-1]) + [t.shape[-1] // CHUNK], _f32())])
        shifted = wanted[0] == "t1"
        inputs, maps = ([x, x], [_identity(rank), head_map]) if shifted else ([x], [_identity(rank)])

        def body(args):
            v = _ext(args[0])
            d = arith.subf(v, _ext(args[1])) if shifted else None
            terms = [d, arith.mulf(d, d)] if shifted else [arith.mulf(v, v)]
            return [arith.addf(out, term) for out, term in zip(args[len(inputs):], terms)]
        results = _generic(inputs, maps + [out_map] * len(wanted), [fill] * len(wanted),
                           ["parallel"] * (rank - 1) + ["reduction"], body)
    exported = _wrap(producer + [_op(results[0].owner)], also=results)
    return dict(zip(wanted, exported[1:])), exported[0]


def _combined(x: ir.Value, chunks: dict, names: list[str], view: ir.Operation | None) -> list[ir.Value]:
    """The row sums `names` of x [.., M, K] (`_row_sums`') combined from its statistics per
    chunk (`_chunk_stats`; collapsed as `view` collapses x's rows), in one generic over
    (.., m, c) that ldsopt-matmul-lds reads as row values from loaded tensors: with
    d = h0 - x0 (h0 the chunk's first element, x0 the row's) a chunk adds t1 + W h0 to the sum,
    t1 + W d to sum(x - x0) and t2 + 2 d t1 + W d^2 to sum((x - x0)^2); squares add up."""
    if view is not None:
        chunks = {n: tensor.CollapseShapeOp(ir.RankedTensorType.get(
            list(ir.RankedTensorType(x.type).shape[:-1]) + [ir.RankedTensorType(v.type).shape[-1]], _f32()),
            v, view.attributes["reassociation"]).result for n, v in chunks.items()}
    t = ir.RankedTensorType(x.type)
    rank = t.rank
    dims = [ir.AffineDimExpr.get(i) for i in range(rank)]
    row_map = ir.AffineMap.get(rank, 0, dims[:-1])
    fill = linalg.fill(arith.constant(_f32(), 0.0), outs=[tensor.empty(list(t.shape[:-1]), _f32())])
    w = float(CHUNK)
    if "squares" in chunks:
        inputs, maps = [chunks["squares"]], [_identity(rank)]
    else:
        head = ir.AffineMap.get(rank, 0, dims[:-1] + [ir.AffineMulExpr.get(dims[-1], ir.AffineConstantExpr.get(CHUNK))])
        first = ir.AffineMap.get(rank, 0, dims[:-1] + [ir.AffineConstantExpr.get(0)])
        inputs, maps = [chunks["t1"], chunks["t2"], x, x], [_identity(rank)] * 2 + [head, first]

    def body(args):
        outs = args[len(inputs):]
        if "squares" in chunks:
            return [arith.addf(outs[0], args[0])]
        t1, t2, h0 = args[0], args[1], _ext(args[2])
        d = arith.subf(h0, _ext(args[3]))
        wd = arith.mulf(arith.constant(_f32(), w), d)
        terms = {"sum": arith.addf(t1, arith.mulf(arith.constant(_f32(), w), h0)), "t1": arith.addf(t1, wd),
                 "t2": arith.addf(arith.addf(t2, arith.mulf(arith.constant(_f32(), 2.0), arith.mulf(d, t1))),
                                  arith.mulf(wd, d))}
        return [arith.addf(out, terms[n]) for out, n in zip(outs, names)]
    return _generic(inputs, maps + [row_map] * len(names), [fill] * len(names),
                    ["parallel"] * (rank - 1) + ["reduction"], body)


def _per_row(sums: dict, norm: norms.Norm, k: int) -> list[ir.Value]:
    """The row values the consumer reads, from the rows' sums, in one generic over the rows (f32
    [.., M]; row_stats.py's finish): the scale R, and for a centered norm first the mean."""
    t = ir.RankedTensorType(next(iter(sums.values())).type)
    names = list(sums)
    outs = 2 if norm.centered else 1

    def body(args):
        stat = dict(zip(names, args))
        kf = arith.constant(_f32(), float(k))
        leaves = {"sum": stat.get("sum"), "squares": stat.get("squares")}
        if "t1" in stat:  # sum((x - mean)^2) = T2 - T1^2 / K
            leaves["centered"] = arith.subf(stat["t2"], arith.divf(arith.mulf(stat["t1"], stat["t1"]), kf))
        r = _emit(norm.scale, norm.x, leaves)
        return [arith.divf(stat["sum"], kf), r] if norm.centered else [r]
    empty = tensor.empty(list(t.shape), _f32())
    return _generic([sums[n] for n in names], [_identity(t.rank)] * (len(names) + outs),
                    [empty] * outs, ["parallel"] * t.rank, body)


def _normalized(acc: ir.Value, rows: list[ir.Value], c: ir.Value | None, d: ir.Value | None) -> ir.Value:
    """y = R * (acc - mean * c) + d (RMS: R * acc + d) over acc's space (b?, m, n), f32, from the
    row values `rows` ([mean,] R: `_per_row`)."""
    t = ir.RankedTensorType(acc.type)
    rank = t.rank
    dims = [ir.AffineDimExpr.get(i) for i in range(rank)]
    row_map = ir.AffineMap.get(rank, 0, dims[:-1])
    col_map = ir.AffineMap.get(rank, 0, dims[:-2] + dims[-1:])
    cols = [v for v in (c, d) if v is not None]
    inputs = [acc] + rows + cols
    maps = [_identity(rank)] + [row_map] * len(rows) + [col_map] * len(cols) + [_identity(rank)]

    def body(args):
        value, row = args[0], args[1:1 + len(rows)]
        col = dict(zip([n for n, v in (("c", c), ("d", d)) if v is not None], args[1 + len(rows):]))
        if c is not None:
            value = arith.subf(value, arith.mulf(row[0], col["c"]))
        value = arith.mulf(row[-1], value)
        return [arith.addf(value, col["d"]) if "d" in col else value]
    (y,) = _generic(inputs, maps, [tensor.empty(list(t.shape), _f32())], ["parallel"] * rank, body)
    return y


def _emit(node: norms.Node, x: norms.Node, leaves: dict) -> ir.Value:
    """The row expression `node` in f32 scalar arith, its sums from `leaves`."""
    if node.kind == "sum":
        return leaves[norms.stat_of(node, x)]
    if node.kind == "const":
        return arith.constant(_f32(), node.const)
    args = [_emit(a, x, leaves) for a in node.args]
    ops = {"add": arith.addf, "sub": arith.subf, "mul": arith.mulf, "div": arith.divf,
           "sqrt": math.sqrt, "rsqrt": math.rsqrt}
    return ops[node.kind](*args)


def _consumers(op: ir.Operation) -> list[ir.Operation] | None:
    """The elementwise consumers IREE would fuse after `op` (all-parallel generics over its
    result's space reading it, and each other, through the identity), in program order; None
    where with them more than one value would be used outside."""
    members = [op]
    shape = ir.RankedTensorType(op.results[0].type).shape
    grown = True
    while grown:
        grown = False
        inside = {r for o in members for r in o.results}
        for r in list(inside):
            for user in (_op(u.owner) for u in r.uses):
                if user not in members and _fusable(user, inside, shape):
                    members.append(user)
                    grown = True
    escaping = [r for o in members for r in o.results if any(_op(u.owner) not in members for u in r.uses)]
    return _in_block_order(members[1:]) if len(escaping) == 1 else None


def _wrap(ops: list[ir.Operation], also: list[ir.Value] = ()) -> list[ir.Value]:
    """Moves `ops` into one `flow.dispatch.region` after the last of them, whose results are
    their values used outside (one where `also` is empty) and then `also`; returns those."""
    order = _in_block_order(ops)
    last = order[-1]
    inside = set(ops)
    results = [r for o in order for r in o.results if any(_op(u.owner) not in inside for u in r.uses)]
    results += [v for v in also if v not in results]
    with ir.InsertionPoint.after(last), last.location:
        region = ir.Operation.create("flow.dispatch.region", results=[r.type for r in results], operands=[],
                                     attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0])},
                                     regions=2)
    body = region.regions[0].blocks.append()
    uses = [[(_op(u.owner), u.operand_number) for u in r.uses if _op(u.owner) not in inside] for r in results]
    with ir.InsertionPoint(body), last.location:
        ret = ir.Operation.create("flow.return", operands=results)
    for o in order:
        o.move_before(ret)
    for outside, value in zip(uses, region.results):
        for user, at in outside:
            user.operands[at] = value
    return list(region.results)


def _fusable(op, inside: set, shape: list[int]) -> bool:
    """An all-parallel linalg.generic with one result over `shape`, reading the region's values
    through the identity."""
    if op.name != "linalg.generic" or len(op.results) != 1 or \
            ir.RankedTensorType(op.results[0].type).shape != shape or \
            any("reduction" in str(it) for it in op.attributes["iterator_types"]):
        return False
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    n_in = len(op.operands) - 1
    return all(m == _identity(len(shape)) for v, m in zip(list(op.operands)[:n_in], maps) if v in inside)


_PURE = ("linalg.generic", "linalg.fill", "tensor.empty", "tensor.collapse_shape", "tensor.expand_shape")


def _erase_unused(block: ir.Block) -> None:
    """Erases the ops of `block` (the norms' chains the folds left) that nothing reads."""
    erase_unused([o.operation for o in block.operations if o.operation.name in _PURE])


def _op(x) -> ir.Operation:
    return x.operation if hasattr(x, "operation") else x


def _in_block_order(ops: list[ir.Operation]) -> list[ir.Operation]:
    return sorted(ops, key=lambda o: sum(1 for p in ops if p.is_before_in_block(o)))
