"""Which dispatches are matmuls: a contraction (`MatmulProblem`), optionally followed by one fused
elementwise consumer (`Epilogue`); the contract is ldsopt-matmul-lds's (passes/matmul_lds.py).
`matches` yields (dispatch, problem, target) for each dispatch not lowered yet; `match`
returns an `Unmatched` reason (a remark) for the others."""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.dispatch import Binding, Dispatch, Graph, analyze, analyze_graph, load_binding
from ldsopt.elementwise import body_is_elementwise, map_dims
from ldsopt.kernel import matched_dispatches
from ldsopt.registry import ModulePass
from ldsopt.remarks import Unmatched

# Named matmuls carry `indexing_maps` (defaults included; transposed operands are maps, as
# IREE 3.13's MLIR spells `matmul_transpose_b`) and a generic-like body too; so does
# `linalg.contract`.
ROOTS = ("linalg.generic", "linalg.matmul", "linalg.batch_matmul", "linalg.contract")
# Input type -> the accumulator's (and the contraction's result) type. i8 products are
# exact in i32 (as `linalg.matmul`'s default signed cast says: both operands sign-extended).
ACCUMULATORS = {"f32": "f32", "f16": "f32", "bf16": "f32", "i8": "i32"}
# The multiply-add body's ops, per accumulator type: (add, multiply, extension of an input).
_BODY_OPS = {"f32": ("arith.addf", "arith.mulf", "arith.extf"), "i32": ("arith.addi", "arith.muli", "arith.extsi")}


@dataclasses.dataclass
class Epilogue:
    """The elementwise linalg.generic fused after the contraction, over its output space
    (b?, m, n): applied to each output piece before the store."""

    op: ir.Operation
    # Per input of `op`: None for the contraction's result (read through the identity map),
    # else a loaded binding and the loops (positions in (b?, m, n), ascending) it reads.
    inputs: list[tuple[Binding, tuple[int, ...]] | None]
    # The loops of the stored result's dims, in its memory order: a permutation of (b?, m, n)
    # with n last (attention's head merge writes (b, m, n) as (m, b, n)).
    out_dims: tuple[int, ...]


@dataclasses.dataclass
class MatmulDispatch(Dispatch):
    """A dispatch whose root is the contraction; `output` is where the epilogue's result is
    stored when it has one."""

    epilogue: Epilogue | None = None


@dataclasses.dataclass
class MatmulProblem:
    """A matched contraction: sizes, each operand's dims in memory order, its init."""

    sizes: dict[str, int]               # "b" (1 without batch), "m", "n", "k"
    operands: dict[str, Binding]        # "A" (over m, k), "B" (over n, k)
    dims: dict[str, tuple[str, ...]]    # memory order per operand, batch dropped: ("m", "k") ...
    batched: bool
    init: float | int | Binding         # a fill constant or the loaded initial output
    output: Binding                     # the contraction's result, or the epilogue's
    epilogue: Epilogue | None = None

    @property
    def elem_type(self) -> ir.Type:
        return self.operands["A"].tensor_type.element_type

    @property
    def acc_type(self) -> ir.Type:
        """The accumulator's type: f32 for float inputs, i32 for i8 (ACCUMULATORS)."""
        return ir.Type.parse(ACCUMULATORS[str(self.elem_type)])


def _producer(value: ir.Value) -> ir.Operation | None:
    return value.owner.operation if isinstance(value, ir.OpResult) else None


def _is_mul_add_body(root: ir.Operation, acc_type: str) -> bool:
    """The body is `yield out + ext?(in0) * ext?(in1)` (either order of add and mul operands),
    in the accumulator's arithmetic: addf, mulf, extf for f32; addi, muli, extsi for i32 (an
    i8 operand's extension must be there, a signed one: `arith.extui`, unsigned i8, is not
    taken)."""
    add_name, mul_name, ext_name = _BODY_OPS[acc_type]
    block = root.regions[0].blocks[0]
    in0, in1, out = list(block.arguments)
    ops = [op.operation for op in block.operations]
    add = _producer(ops[-1].operands[0])
    if add is None or add.name != add_name:
        return False
    add_args = list(add.operands)
    if out not in add_args:
        return False
    mul = _producer(add_args[1] if add_args[0] == out else add_args[0])
    if mul is None or mul.name != mul_name or any(v.type != out.type for v in mul.operands):
        return False

    def source(v: ir.Value) -> ir.Value:
        op = _producer(v)
        return op.operands[0] if op is not None and op.name == ext_name else v

    x, y = (source(v) for v in mul.operands)
    exts = sum(1 for v in mul.operands if source(v) != v)
    return ((x == in0 and y == in1) or (x == in1 and y == in0)) and len(ops) == 3 + exts


def _init_of(root: ir.Operation, integer: bool) -> float | int | Binding | None:
    """The accumulator's start: a loaded tensor, or the constant a `linalg.fill` writes, an
    integer one for an integer accumulator (`integer`), else a float one."""
    init = root.operands[len(root.operands) - 1]
    fill = _producer(init)
    if fill is not None and fill.name == "linalg.fill":
        cst = _producer(fill.operands[0])
        if cst is not None and cst.name == "arith.constant":
            value = cst.attributes["value"]
            if isinstance(value, ir.IntegerAttr) and integer:
                return ir.IntegerAttr(value).value
            if isinstance(value, ir.FloatAttr) and not integer:
                return ir.FloatAttr(value).value
        return None
    return load_binding(init)


def match(d: MatmulDispatch) -> MatmulProblem | Unmatched:
    p = _match_contraction(d)
    if not p and d.epilogue:
        return Unmatched(f"{d.root.name} with a fused elementwise consumer: {p.reason}")
    return p


def _match_contraction(d: MatmulDispatch) -> MatmulProblem | Unmatched:
    root = d.root
    if len(d.inputs) != 2 or len(root.regions) != 1:
        return Unmatched(f"{root.name} with {len(d.inputs)} inputs is not a contraction of two operands")
    types = [str(b.tensor_type.element_type) for b in d.inputs]
    result_type = ir.RankedTensorType(root.results[0].type)
    out_type = str(result_type.element_type)
    if types[0] != types[1] or ACCUMULATORS.get(types[0]) != out_type:
        return Unmatched(f"operands {types[0]} x {types[1]} -> {out_type}: takes two operands of one type into "
                         f"its accumulator ({', '.join(f'{i} -> {o}' for i, o in ACCUMULATORS.items())})")
    maps = [ir.AffineMapAttr(a).value for a in root.attributes["indexing_maps"]]
    dims = [map_dims(m) for m in maps]
    if any(x is None for x in dims):
        return Unmatched("an indexing map is not a projection of the loops")
    n_loops = maps[2].n_dims
    out = dims[2]
    # The output names the loops: its dims are (b?, m, n) in memory order, in whatever order
    # the loops run (a generic's loops may be permuted); k is the one loop it does not index.
    if n_loops not in (3, 4) or len(set(out)) != n_loops - 1:
        return Unmatched("not a (batch) matmul: the output is not (b?, m, n) with one reduced loop k")
    (k,) = set(range(n_loops)) - set(out)
    if "iterator_types" in root.attributes and \
            ["reduction" in str(it) for it in root.attributes["iterator_types"]] != [x == k for x in range(n_loops)]:
        return Unmatched("not a (batch) matmul: the loops are not (b?, m, n) parallel and k reduced")
    batched = n_loops == 4
    names = {out[-2]: "m", out[-1]: "n", k: "k"}
    if batched:
        names[out[0]] = "b"
    roles = {}
    for pos, ds in enumerate(dims[:2]):
        if batched and (not ds or ds[0] != out[0]):
            return Unmatched("an operand does not have the batch dim first")
        mem = tuple(names[x] for x in (ds[1:] if batched else ds))
        if len(mem) != 2 or "k" not in mem or len(set(mem)) != 2 or "b" in mem:
            return Unmatched("an operand is not an (m, k) or (k, n) matrix in some order")
        roles["A" if "m" in mem else "B"] = (pos, mem)
    if set(roles) != {"A", "B"}:
        return Unmatched("the operands are not one (m, k) and one (k, n) matrix")
    if not _is_mul_add_body(root, out_type):
        return Unmatched("the body is not a multiply-add (of operands extended to f32)" if out_type == "f32" else
                         "the body is not a multiply-add of operands sign-extended to i32 (extsi, muli, addi)")
    init = _init_of(root, out_type == "i32")
    if init is None:
        return Unmatched("the accumulator starts neither from a constant fill nor from a loaded tensor")
    shape = list(result_type.shape)
    a_pos, a_mem = roles["A"]
    k_size = list(d.inputs[a_pos].tensor_type.shape)[(1 if batched else 0) + a_mem.index("k")]
    sizes = {"b": shape[0] if batched else 1, "m": shape[-2], "n": shape[-1], "k": k_size}
    return MatmulProblem(sizes, {r: d.inputs[pos] for r, (pos, _) in roles.items()},
                         {r: mem for r, (_, mem) in roles.items()}, batched, init, d.output, d.epilogue)


def analyze_matmul(func: ir.Operation, roots: tuple[str, ...]) -> MatmulDispatch | Unmatched:
    """The dispatch of one root op (ldsopt.dispatch.analyze), or of two fused ops: a root
    followed by its elementwise epilogue (`_with_epilogue`)."""
    single = analyze(func, roots)
    if single:
        return MatmulDispatch(**{f.name: getattr(single, f.name) for f in dataclasses.fields(Dispatch)})
    g = analyze_graph(func, roots)
    if not g or len(g.ops) == 1:
        return single
    if len(g.ops) > 2:
        return Unmatched(f"{len(g.ops)} ops fused in one dispatch ({', '.join(op.name for op in g.ops)}); "
                         "this pass takes a matmul and at most one elementwise consumer")
    return _with_epilogue(g)


def _with_epilogue(g: Graph) -> MatmulDispatch | Unmatched:
    """A root op whose one result feeds only an all-parallel elementwise linalg.generic over
    its output space, which reads it through the identity map and loaded bindings through
    ascending projections of the loops (a bias, a residual), and whose result alone is stored,
    in the loops' order or permuted with n last."""
    root, epi = g.ops
    fused = f"a {root.name} with a fused {epi.name}"
    if len(root.results) != 1 or len(epi.results) != 1 or epi.name != "linalg.generic":
        return Unmatched(f"{fused}: takes a matmul followed by one elementwise linalg.generic")
    result = root.results[0]
    users = [u.owner for u in result.uses]
    if len(users) != 1 or users[0] != epi:
        return Unmatched(f"{fused}: the matmul's result has {len(users)} uses; takes one elementwise consumer")
    if len(g.stores) != 1 or g.stores[0][0] != epi.results[0]:
        return Unmatched(f"{fused}: stores {len(g.stores)} results; takes the consumer's one result stored")
    rank = ir.RankedTensorType(result.type).rank
    identity = ir.AffineMap.get_identity(rank)
    maps = [ir.AffineMapAttr(a).value for a in epi.attributes["indexing_maps"]]
    if any("reduction" in str(it) for it in epi.attributes["iterator_types"]) or maps[0].n_dims != rank:
        return Unmatched(f"{fused}: the consumer is not all-parallel over the matmul's output")
    out_dims = map_dims(maps[-1])
    if out_dims is None or sorted(out_dims) != list(range(rank)) or out_dims[-1] != rank - 1:
        return Unmatched(f"{fused}: the consumer writes its result through {maps[-1]}; takes permutations "
                         "that keep n last")
    if not isinstance(ir.RankedTensorType(epi.results[0].type).element_type, ir.FloatType):
        return Unmatched(f"{fused}: the consumer's result is not of a float type")
    if not body_is_elementwise(epi):
        return Unmatched(f"{fused}: the consumer's body is not arith/math ops on its inputs")
    inputs = []
    for v, m in zip(list(epi.operands)[:len(maps) - 1], maps):
        if v == result:
            if m != identity:
                return Unmatched(f"{fused}: the consumer reads the matmul's result through a non-identity map")
            inputs.append(None)
            continue
        b, dims = g.binding_of(v), map_dims(m)
        if b is None:
            return Unmatched(f"{fused}: an input of the consumer is not a whole-tensor load of a binding")
        if dims is None or dims != sorted(set(dims)):
            return Unmatched(f"{fused}: the consumer reads a binding through {m}; takes ascending projections")
        inputs.append((b, tuple(dims)))
    operands = []
    for v in list(root.operands)[:len(root.operands) - 1]:
        b = g.binding_of(v)
        if b is None:
            return Unmatched(f"{fused}: an input of {root.name} is not a whole-tensor load of a binding")
        operands.append(b)
    return MatmulDispatch(g.func, root, operands, g.stores[0][1], g.body_ops, Epilogue(epi, inputs, tuple(out_dims)))


def matches(module: ir.Operation, by: ModulePass | str):
    """(dispatch, problem, target) of each matmul dispatch not lowered yet (kernel.matched_dispatches)."""
    return matched_dispatches(module, ROOTS, match, by, analyzer=analyze_matmul)
