"""Which dispatches are attention, in the form IREE 3.13 gives them at
`executable-configurations`: `iree_linalg_ext.online_attention` (IREE turns every
`iree_linalg_ext.attention` into it when it configures the dispatch) whose accumulator, running
max and running sum start from `linalg.fill`s, followed by the elementwise `linalg.generic`
that divides the accumulator by the sum (and casts it, and writes it in the output's dim
order), whose one result is stored, or copied into another dim order and stored (PyTorch's
[B, S, H, D] output). Q, K, V (and the mask) are loads of bindings, whole or static slices
(`analyze_graph(slices=True)`); the mask may instead be computed in the dispatch by an
elementwise generic (`MaskGenerator`), as IREE fuses PyTorch's mask producers. The kernels
skip the key tiles past the diagonal (`Causal`) where the region is `select(k2 > m, -inf, S)`
or the mask is computed from its indices alone as `select(k2 > m, c, 0)` with c at most
NEGLIGIBLE (ldsopt-raise-attention's form of a causal mask constant).

What the op computes, as IREE 3.13 decomposes it (checked against its llvm-cpu backend):
    S = (Q K^T) * scale * log2(e)             per (row m, key k2), in f32
    S = region(S)                             the op's region, on those log2-unit scores,
                                              with `iree_linalg_ext.index` giving loop indices
    S += mask * log2(e)                       float mask; an integer (i1 stored as i8) mask
                                              adds 0 where its low bit is 1, -inf where 0
    online softmax in base 2 over k2, from max = the max fill (-3.4e38) and sum = 0
    out = normalize(sum, acc)                 the generic's body: (1 / sum) * acc, truncf
A row whose every score is -inf ends with acc = 0 and sum = 0: the body gives NaN, as IREE.
The partial form (ldsopt-split-attention's chunks): no normalizing generic, the accumulator,
running max and running sum themselves stored (`AttentionProblem.stats`), with a loop of
the chunks that K, V, the mask and the results read and Q does not (a grid dim).

The loops are classified by the operands that index them: k1 (Q and K, the contraction of
the first product), k2 (K and V: the keys), n (V and the output: the value dim), batch (Q, K,
V and the output), and the others of Q and the output (query rows; the longest of them, the
innermost in Q's memory order of equals, is the row dim a workgroup tiles, the others, such
as the query heads of a group in grouped-query attention, are grid dims like batch). Q and K must hold k1 innermost,
V n or k2 (`v_keys_inner`), the output n (vector reads along them).

Dynamic extents (whole bindings whose extents are workload ordinals, a PyTorch export's
sequence): the query-row dim and the keys may be, each then planned for NOMINAL_EXTENT (the
matmul's) and read at run time (`AttentionProblem.extents`); a dynamic head dim, value dim or
grid dim is refused with which it is.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ldsopt.codegen.dispatch import Binding, Graph, analyze_graph, dynamic_extent, load_binding, slice_layout
from ldsopt.codegen.elementwise import body_is_elementwise, map_dims
from ldsopt.ir_types import element_bits, fill_constant, producer
from ldsopt.matmul.match import DYNAMIC, NOMINAL_EXTENT
from ldsopt.remarks import Unmatched

ROOTS = ("iree_linalg_ext.online_attention", "linalg.generic", "tensor.extract")
ONLINE = "iree_linalg_ext.online_attention"
NO_ATTENTION = "no iree_linalg_ext.online_attention"
ELEMENT_TYPES = ("f16", "bf16", "f32")
_REGION_DIALECTS = ("arith.", "math.")


# A mask value at most this is -inf to the softmax: a masked term exp(s - max + c) is 0 in
# f32 wherever the row's scores spread less than -c - 104 (exp underflows past -104), so
# the key tiles it covers may be skipped (a causal mask generator's, `_causal_generator`).
NEGLIGIBLE = -1e4


@dataclasses.dataclass
class Causal:
    """Keys past the query row are masked, S = -inf where k2 > m + offset: by the region (the
    whole region is that selection), or `by_mask`, by a mask computed from its indices alone
    (`_causal_generator`: its values past the row NEGLIGIBLE, -inf to the softmax, and 0
    elsewhere). Either way the key tiles wholly at or below a query tile's first row need
    neither."""

    offset: int = 0
    by_mask: bool = False


@dataclasses.dataclass
class MaskGenerator:
    """The mask computed in the dispatch by an elementwise generic: its loops are the mask's
    dims (`out_loops[j]`: the loop of mask dim j), its inputs loads of bindings (`inputs[i]`,
    indexed by the loops `in_loops[i]`), its body arith, math and `linalg.index` (BERT's
    extended mask `(1 - m) * min` of a loaded m, or one of indices alone)."""

    op: ir.Operation
    inputs: list[Binding]
    in_loops: list[list[int]]
    out_loops: list[int]


def _mask_generic(gen: ir.Operation) -> MaskGenerator | Unmatched:
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in gen.attributes["indexing_maps"]]
    n_in = len(gen.operands) - 1
    block = gen.regions[0].blocks[0]
    names = [o.operation.name for o in block.operations]
    if any(m is None for m in maps) or sorted(maps[-1]) != list(range(len(maps[-1]))) or \
            any("reduction" in str(it) for it in gen.attributes["iterator_types"]) or \
            len(list(block.arguments[n_in].uses)) or any(len(o.regions) for o in block.operations) or \
            not all(x == "linalg.yield" or x == "linalg.index" or x.startswith(_REGION_DIALECTS) for x in names):
        return Unmatched("the mask is computed by a generic other than an elementwise one of arith, math and "
                         "linalg.index on loaded tensors")
    inputs = [load_binding(v, slices=True) for v in list(gen.operands)[:n_in]]
    if any(b is None for b in inputs):
        return Unmatched("the mask's generic reads a value other than a load of a binding")
    return MaskGenerator(gen, inputs, maps[:n_in], maps[-1])


def _misaligned(b: Binding) -> bool:
    """A slice whose rows do not start at multiples of the widest vector (16 bytes) dividing
    its row: the kernels read rows in such vectors, aligned as they are in a whole tensor."""
    layout = slice_layout(b)
    if layout is None:
        return False
    offset, strides = layout
    row, width = b.tensor_type.shape[-1], max(1, 16 // (element_bits(b.tensor_type.element_type) // 8))
    while row % width:
        width //= 2
    return any(x % width for x in [offset, *strides[:-1]])


def _permuted(copy: ir.Operation, dims: list[int]) -> list[int] | Unmatched:
    """The attention loops of the dims of `copy`'s result, a generic that copies its one input
    (of attention loops `dims`) in another dim order."""
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in copy.attributes["indexing_maps"]]
    block = copy.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    rank = len(dims)
    if len(copy.operands) != 2 or len(body) != 1 or body[0].operands[0] != block.arguments[0] or \
            any(m is None or sorted(m) != list(range(rank)) for m in maps):
        return Unmatched("the normalized attention is consumed by a generic other than a copy in another dim order")
    at = {loop: dims[j] for j, loop in enumerate(maps[0])}
    return [at[loop] for loop in maps[1]]


@dataclasses.dataclass
class AttentionProblem:
    graph: Graph                       # the dispatch
    op: ir.Operation                   # the online_attention
    norm: ir.Operation | None          # the normalizing generic; None in the partial form
    q: Binding
    k: Binding
    v: Binding
    out: Binding
    mask: Binding | None
    scale: float | Binding             # a constant, or a 0-d / one-element tensor loaded
    dims: dict[str, list[int]]         # per operand (q, k, v, mask, out), its loops in memory order
    sizes: list[int]                   # per loop (and 1 for a query row without a loop)
    k1: int
    k2: int
    n: int
    row: int
    grid_dims: list[int]               # batch and the other query-row loops, slowest first
    max_init: float
    region: list[ir.Operation]         # the region's ops but its yield; [] for the identity
    region_arg: ir.Value
    region_result: ir.Value
    causal: Causal | None
    norm_inputs: list[int | None]      # per input of the generic: the online_attention result it reads
    stats: dict[str, Binding] | None = None  # partial form: where the running max and sum go
    mask_generator: MaskGenerator | None = None  # a mask computed in the dispatch (then `mask` is None)
    # The run-time extents of the dynamic loops (the query rows, the keys), values of the
    # dispatch computed from its workload ordinals; `sizes` holds NOMINAL_EXTENT for them.
    extents: dict[int, ir.Value] = dataclasses.field(default_factory=dict)

    @property
    def elem_type(self) -> ir.Type:
        return self.q.tensor_type.element_type

    @property
    def mask_kind(self) -> str | None:
        if self.mask is None and self.mask_generator is None:
            return None
        t = self.mask.tensor_type if self.mask is not None else self.mask_generator.op.results[0].type
        return "bool" if isinstance(ir.RankedTensorType(t).element_type, ir.IntegerType) else "float"

    @property
    def causal_region(self) -> bool:
        """The region is the causal selection alone (`Causal`)."""
        return self.causal is not None and not self.causal.by_mask

    @property
    def causal_mask(self) -> bool:
        """The mask is a causal one computed from its indices (`Causal.by_mask`)."""
        return self.causal is not None and self.causal.by_mask

    @property
    def v_keys_inner(self) -> bool:
        """V is held with its keys innermost (V^T, [.., value dim, keys]), as IREE forms it
        where it propagates the head transposes of a PyTorch export into V's producer."""
        return self.dims["v"][-1] == self.k2

    def size(self, dim: int) -> int:
        return self.sizes[dim]

    def extent(self, dim: int) -> int | ir.Value:
        """Loop `dim`'s extent as the kernel bounds its indices by: its size, or a dynamic
        loop's run-time value."""
        return self.extents.get(dim, self.sizes[dim])

    @property
    def groups(self) -> int:
        """Workgroup rows along the grid dims: their extents' product."""
        return math.prod(self.sizes[d] for d in self.grid_dims)


def _scale(v: ir.Value, g) -> float | Binding | Unmatched:
    op = producer(v)
    if op is not None and op.name == "arith.constant":
        return ir.FloatAttr(op.attributes["value"]).value
    if op is not None and op.name == "tensor.extract":
        b = load_binding(op.operands[0])
        if b is not None and math.prod(b.tensor_type.shape) == 1:
            return b
    return Unmatched("the scale is neither a constant nor an element of a loaded one-element tensor")


def _classify(maps: dict[str, list[int]], rank: int) -> dict[str, list[int]] | Unmatched:
    """The loops of each kind (module docstring), by which of Q, K, V and the output index them."""
    kinds: dict[str, list[int]] = {"k1": [], "k2": [], "n": [], "batch": [], "rows": [], "split": []}
    for d in range(rank):
        key = tuple(d in maps[r] for r in ("q", "k", "v", "out"))
        kind = {(True, True, False, False): "k1", (False, True, True, False): "k2",
                (False, False, True, True): "n", (True, True, True, True): "batch",
                (True, False, False, True): "rows", (False, True, True, True): "split"}.get(key)
        if kind is None:
            return Unmatched(f"loop d{d} is indexed by {', '.join(r for r, on in zip(('Q', 'K', 'V', 'out'), key) if on)}"
                             "; takes batch, query-row, key-chunk, key, head and value loops only")
        kinds[kind].append(d)
    for kind, what in (("k1", "head dim of Q and K"), ("k2", "key loop"), ("n", "value dim")):
        if len(kinds[kind]) != 1:
            return Unmatched(f"{len(kinds[kind])} loops of the {what}; takes one")
    return kinds


def _causal(region: list[ir.Operation], arg: ir.Value, result: ir.Value, row: int, k2: int) -> Causal | None:
    """Causal where the region is `select(k2 > row, -inf, s)` (either spelling of the
    comparison) on the two loops' `iree_linalg_ext.index`es: the kernel then skips key tiles
    past the diagonal (the region still runs on every score it computes)."""
    sel = producer(result)
    if sel is None or sel.name != "arith.select" or len(region) not in (4, 5):
        return None
    cmp, neg, pos = (sel.operands[i] for i in range(3))
    cst, cmp = producer(neg), producer(cmp)
    if pos != arg or cst is None or cst.name != "arith.constant" or cmp is None or cmp.name != "arith.cmpi":
        return None
    value = ir.FloatAttr(cst.attributes["value"]).value if isinstance(cst.attributes["value"], ir.FloatAttr) else 0
    if value != -math.inf:
        return None
    return Causal() if _keys_past_row(cmp, "iree_linalg_ext.index", lambda d: d, row, k2) else None


def _causal_generator(gen: MaskGenerator, mask_dims: list[int], row: int, k2: int) -> Causal | None:
    """Causal where the mask is computed from its indices alone as `select(k2 > row, c, 0)`
    (either spelling of the comparison) with c at most NEGLIGIBLE: what ldsopt-raise-attention
    makes of a causal mask constant. The kernel skips the key tiles past the diagonal, reads
    the mask as the -inf selection it is to the softmax on the tiles across it, and not at
    all on those below it."""
    block = gen.op.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    sel = producer(body[-1].operands[0])
    if gen.inputs or sel is None or sel.name != "arith.select":
        return None
    cmp, past, kept = (producer(sel.operands[i]) for i in range(3))
    values = [ir.FloatAttr(c.attributes["value"]).value if c is not None and c.name == "arith.constant"
              and isinstance(c.attributes["value"], ir.FloatAttr) else None for c in (past, kept)]
    if cmp is None or cmp.name != "arith.cmpi" or None in values or not (values[0] <= NEGLIGIBLE and values[1] == 0):
        return None
    loop_of = {loop: mask_dims[j] for j, loop in enumerate(gen.out_loops)}
    return Causal(by_mask=True) if _keys_past_row(cmp, "linalg.index", loop_of.get, row, k2) else None


def _keys_past_row(cmp: ir.Operation, index_op: str, loop_of, row: int, k2: int) -> bool:
    """`cmp` (an arith.cmpi) is `k2 > row` or `row < k2` on two `index_op`s, whose dims
    `loop_of` maps to the attention's loops."""
    idx = [producer(x) for x in cmp.operands]
    if any(i is None or i.name != index_op for i in idx):
        return False
    a, b = (loop_of(ir.IntegerAttr(i.attributes["dim"]).value) for i in idx)
    # arith.cmpi predicates: 4 sgt, 8 ugt (a > b); 2 slt, 6 ult (a < b).
    greater = {4: True, 8: True, 2: False, 6: False}.get(ir.IntegerAttr(cmp.attributes["predicate"]).value)
    return (a, b, greater) in ((k2, row, True), (row, k2, False))


def match(func: ir.Operation) -> AttentionProblem | Unmatched:
    g = analyze_graph(func, ROOTS, slices=True, dynamic=True)
    if not g:
        return g
    online = [op for op in g.ops if op.name == ONLINE]
    if len(online) != 1:
        return Unmatched(NO_ATTENTION if not online else "several attention ops")
    op = online[0]
    generics = [o for o in g.ops if o.name == "linalg.generic"]
    extracts = [o for o in g.ops if o.name == "tensor.extract"]
    has_mask = len(op.attributes["indexing_maps"]) == 8
    mask_gen = next((o for o in generics if has_mask and o.results[0] == op.operands[4]), None)
    generics = [o for o in generics if o is not mask_gen]
    results = list(op.results)
    after = [o for o in generics if any(v in results for v in o.operands)]
    permute = next((o for o in generics if after and after[0].results[0] in list(o.operands)), None)
    stored = {v: b for v, b in g.stores}
    partial = not generics and len(g.stores) == 3 and all(r in stored for r in op.results)
    last = permute or (generics[0] if generics else None)
    if not partial and (len(after) != 1 or len(generics) != 1 + (permute is not None) or len(g.stores) != 1
                        or g.stores[0][0] != last.results[0]):
        return Unmatched("takes the attention followed by one normalizing linalg.generic (and a transposing copy "
                         "of it), its result stored, or its three results stored (split-KV partials); a mask "
                         "may be computed by a generic of its own")
    norm = None if partial else after[0]
    if any(o.results[0] not in list(op.operands) for o in extracts):
        return Unmatched("a tensor.extract other than the scale")
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in op.attributes["indexing_maps"]]
    if any(m is None for m in maps):
        return Unmatched("an indexing map is not a projection of the loops")
    roles = ["q", "k", "v", "scale"] + (["mask"] if has_mask else []) + ["acc", "max", "sum"]
    by_role = dict(zip(roles, maps))
    operands = dict(zip(roles, op.operands))
    rank = ir.AffineMapAttr(op.attributes["indexing_maps"][0]).value.n_dims
    binds = {r: load_binding(operands[r], slices=True)
             for r in ("q", "k", "v") + (("mask",) if has_mask and mask_gen is None else ())}
    if any(b is None for b in binds.values()):
        return Unmatched("an input of the attention is not a load of a binding (whole, or a static slice)")
    for r in ("q", "k", "v"):
        if _misaligned(binds[r]):
            return Unmatched(f"{r.upper()} is a slice whose offset or row strides are not multiples of the "
                             "vectors its rows are read in")
    types = {str(binds[r].tensor_type.element_type) for r in ("q", "k", "v")}
    if len(types) != 1 or next(iter(types)) not in ELEMENT_TYPES:
        return Unmatched(f"Q, K and V of types {sorted(types)}; takes one of {', '.join(ELEMENT_TYPES)}")
    generated = None
    if mask_gen is not None:
        generated = _mask_generic(mask_gen)
        if isinstance(generated, Unmatched):
            return generated
    if has_mask:
        mt = ir.RankedTensorType(operands["mask"].type).element_type
        if not (isinstance(mt, ir.IntegerType) and ir.IntegerType(mt).width in (1, 8)) and \
                str(mt) not in ELEMENT_TYPES:
            return Unmatched(f"a mask of {mt}; takes float masks (added) and i1 ones")
    scale = _scale(operands["scale"], g)
    if isinstance(scale, Unmatched):
        return scale
    inits = [fill_constant(operands[r]) for r in ("acc", "max", "sum")]
    if inits[0] != 0.0 or inits[2] != 0.0 or inits[1] is None:
        return Unmatched("the accumulator and sum do not start from 0, or the max from a constant")
    maps_by = {"q": by_role["q"], "k": by_role["k"], "v": by_role["v"], "out": by_role["acc"]}
    kinds = _classify(maps_by, rank)
    if isinstance(kinds, Unmatched):
        return kinds
    (k1,), (k2,), (n,) = kinds["k1"], kinds["k2"], kinds["n"]
    q_rows = [d for d in by_role["q"] if d in kinds["rows"]]
    for r, inner, what in (("q", k1, "head dim"), ("k", k1, "head dim")):
        if by_role[r][-1] != inner:
            return Unmatched(f"{r.upper()} does not have its {what} innermost (contiguous)")
    if by_role["v"][-1] not in (n, k2):
        return Unmatched("V has neither its value dim nor its keys innermost (contiguous)")
    if has_mask and not set(by_role["mask"]) <= set(kinds["batch"] + kinds["rows"] + kinds["split"] + [k2]):
        return Unmatched("the mask is indexed by a head or value loop")
    sizes, extents = [0] * rank + [1], {}
    for r in ("q", "k", "v"):
        for pos, (d, s) in enumerate(zip(by_role[r], binds[r].tensor_type.shape)):
            if ir.ShapedType.is_dynamic_size(s):
                extents.setdefault(d, dynamic_extent(binds[r], pos))
            else:
                sizes[d] = s
    # A loop static in one operand is so in all (the op's verifier); one dynamic in every
    # operand is planned for NOMINAL_EXTENT, its extent read at run time.
    extents = {d: v for d, v in extents.items() if not sizes[d]}
    for d in extents:
        sizes[d] = NOMINAL_EXTENT
    # The row dim: the longest query-row loop, the innermost in Q's memory order of equals (a
    # GQA Q as [S, kv heads, group, D] tiles S, not the group). One query row (decode) has no
    # loop of its own: a loop of extent 1 that no operand indexes.
    row = max(reversed(q_rows), key=lambda d: sizes[d]) if q_rows else rank
    fixed = sorted(set(extents) - {row, k2})
    if fixed:
        what = {k1: "head dim", n: "value dim"}
        return Unmatched(f"{DYNAMIC}: a dynamic {', '.join(what.get(d, f'batch or head loop d{d}') for d in fixed)}; "
                         "this pass takes dynamic query rows and keys, with the head dims, the value dim and "
                         "the batch and heads static")
    if partial:
        out_dims, norm_inputs = by_role["acc"], []
        if out_dims[-1] != n:
            return Unmatched("the partial accumulator does not have the value dim innermost")
    else:
        # The normalizing generic: elementwise over the accumulator, reading only the attention's results.
        norm_maps = [map_dims(ir.AffineMapAttr(a).value) for a in norm.attributes["indexing_maps"]]
        results = list(op.results)
        norm_inputs = [results.index(v) if v in results else None for v in list(norm.operands)[:-1]]
        if None in norm_inputs or 0 not in norm_inputs or not body_is_elementwise(norm) or \
                any("reduction" in str(it) for it in norm.attributes["iterator_types"]) or any(m is None for m in norm_maps):
            return Unmatched("the attention's result is not normalized by an elementwise generic of its results alone")
        # The generic's loops as the attention's: loop l is the accumulator dim its map puts l at.
        acc_map, acc_dims = norm_maps[norm_inputs.index(0)], by_role["acc"]
        if sorted(acc_map) != list(range(len(acc_dims))):
            return Unmatched("the normalizing generic does not read the whole accumulator")
        loop_dim = {loop: acc_dims[pos] for pos, loop in enumerate(acc_map)}
        out_dims = [loop_dim[loop] for loop in norm_maps[-1]]
        if permute is not None:
            out_dims = _permuted(permute, out_dims)
            if isinstance(out_dims, Unmatched):
                return out_dims
        if sorted(out_dims) != sorted(acc_dims) or out_dims[-1] != n:
            return Unmatched("the output is not a permutation of the accumulator with the value dim innermost")
        for pos, res in enumerate(norm_inputs):
            want = acc_dims if res == 0 else by_role["max" if res == 1 else "sum"]
            if sorted([loop_dim[loop] for loop in norm_maps[pos]]) != sorted(want):
                return Unmatched("the normalizing generic reads the running max or sum through another map")
    block = op.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    for o in body[:-1]:
        if not (o.name.startswith(_REGION_DIALECTS) or o.name == "iree_linalg_ext.index") or len(o.regions):
            return Unmatched(f"the score region computes with {o.name}; takes arith, math and iree_linalg_ext.index")
    region_arg, region_result = block.arguments[0], body[-1].operands[0]
    dims = {"q": by_role["q"], "k": by_role["k"], "v": by_role["v"], "out": out_dims}
    if has_mask:
        dims["mask"] = by_role["mask"]
    grid = [d for d in out_dims if d not in (row, n)]
    stray = sorted({ir.IntegerAttr(o.attributes["dim"]).value for o in body[:-1]
                    if o.name == "iree_linalg_ext.index"} - {row, k2, *grid})
    if stray:
        return Unmatched(f"the score region reads the loop of the head or value dim (iree_linalg_ext.index {stray}); "
                         "takes the query row, key and grid loops")
    if partial:
        dims["max"] = dims["sum"] = by_role["max"]
    out = stored[op.results[0]] if partial else g.stores[0][1]
    stats = {"max": stored[op.results[1]], "sum": stored[op.results[2]]} if partial else None
    causal = _causal(body[:-1], region_arg, region_result, row, k2) or \
        (generated and _causal_generator(generated, by_role["mask"], row, k2))
    return AttentionProblem(g, op, norm, binds["q"], binds["k"], binds["v"], out, binds.get("mask"), scale,
                            dims, sizes, k1, k2, n, row, grid, inits[1], body[:-1], region_arg, region_result,
                            causal, norm_inputs, stats, generated, extents)
