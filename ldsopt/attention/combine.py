"""The combine of split-KV (ldsopt/attention/split.py) as one kernel: a reduction over a short
loop, run in order by each thread, then the elementwise consumer IREE fuses after it.

Matches a dispatch of two `linalg.generic`s between whole-tensor loads and one store:
- R: one reduced loop (the last, of extent at most MAX_REDUCED), the others parallel; its
  results (one or more) start from `linalg.fill`s of constants and are written through the
  identity map of the parallel loops; its inputs, loads of bindings, read through projections;
- E: all-parallel, elementwise, over the same loops (identity maps), reading R's results and
  loads, its one result stored.
R must be the split's online-softmax merge (its three results and its ops): a matmul of a short K
with an epilogue has the same shape and is ldsopt-matmul-lds's. The kernel computes what linalg
says R and E compute: each output element's results from their fills, R's body applied for the
reduced loop's values in order, then E's body.

The kernel: each thread owns `vector` consecutive elements along the innermost loop (a vector
where every input that reads that loop has it innermost; 1 otherwise), 128 threads a
workgroup over the flattened parallel loops; per reduced index it reads its inputs (a scalar,
broadcast, where an input does not read the innermost loop) and applies R's body to vectors.
A reduced loop of at most MAX_UNROLLED (split-KV's chunks) is unrolled with every read issued
before the math: the loads of one iteration no longer wait on the previous one's (a memory
latency each), so the combine takes a few latencies whatever its chunk count.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf, vector

from ldsopt.codegen.dispatch import Binding, Graph, analyze_graph
from ldsopt.codegen.elementwise import body_is_elementwise, clone_body, map_dims
from ldsopt.codegen.kernel import Kernel, read_vector, write_vector
from ldsopt.ir_types import element_bits
from ldsopt.remarks import Unmatched
from ldsopt.target import Target

MAX_REDUCED = 256   # the reduced extent a thread runs through in order
MAX_UNROLLED = 64   # reduced extents up to this are unrolled, their reads issued together
THREADS = 128


@dataclasses.dataclass
class CombineProblem:
    graph: Graph
    reduce: ir.Operation
    consumer: ir.Operation
    inputs: list[tuple[Binding, list[int]]]   # R's inputs: binding, the loops it reads
    inits: list[ir.Value]                     # the fill constant of each result of R
    consumer_inputs: list[int | Binding]      # per input of E: R's result index, or a load
    out: Binding
    extents: list[int]                        # the loops: parallel ones, then the reduced one


def _fill_value(v: ir.Value) -> ir.Value | None:
    fill = v.owner.operation if isinstance(v, ir.OpResult) else None
    if fill is None or fill.name != "linalg.fill":
        return None
    cst = fill.operands[0]
    return cst if isinstance(cst, ir.OpResult) and cst.owner.name == "arith.constant" else None


# The body of ldsopt/attention/split.py's combine: M' = max(M, m), L' = L 2^(M-M') + l 2^(m-M'),
# O' = O 2^(M-M') + o 2^(m-M'), as the counts of its ops (three results: max, sum, output).
_MERGE_OPS = {"arith.maximumf": 1, "arith.subf": 2, "math.exp2": 2, "arith.mulf": 4, "arith.addf": 2,
              "linalg.yield": 1}


def _merges_softmax_partials(red: ir.Operation) -> bool:
    """Whether `red` is split-KV's combine. The kernel would compute any short reduction right,
    but ldsopt-attention runs first in the pipeline: another reduction with an elementwise
    consumer (a matmul of a short K and its epilogue) is another pass's to take."""
    if len(red.results) != 3:
        return False
    counts: dict[str, int] = {}
    for op in red.regions[0].blocks[0].operations:
        counts[op.operation.name] = counts.get(op.operation.name, 0) + 1
    return counts == _MERGE_OPS


def match(func: ir.Operation) -> CombineProblem | Unmatched:
    g = analyze_graph(func, ("linalg.generic",))
    if not g:
        return g
    if len(g.ops) != 2 or len(g.stores) != 1:
        return Unmatched("not a reduction and its elementwise consumer (the split-KV combine)")
    red, cons = g.ops
    if not _merges_softmax_partials(red):
        return Unmatched("the reduction is not split-KV's merge of partial softmaxes (max, rescaled sum and output)")
    its = [str(a) for a in red.attributes["iterator_types"]]
    rank = len(its)
    if [("reduction" in a) for a in its] != [False] * (rank - 1) + [True]:
        return Unmatched("the first generic does not reduce its last loop alone")
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in red.attributes["indexing_maps"]]
    n_out = len(red.results)
    n_in = len(red.operands) - n_out
    ident = list(range(rank - 1))
    if any(m is None for m in maps) or any(m != ident for m in maps[n_in:]):
        return Unmatched("the reduction's results are not written through the identity of its parallel loops")
    inputs = []
    for v, m in zip(list(red.operands)[:n_in], maps[:n_in]):
        b = g.binding_of(v)
        if b is None:
            return Unmatched("an input of the reduction is not a whole-tensor load")
        inputs.append((b, m))
    inits = [_fill_value(v) for v in list(red.operands)[n_in:]]
    if any(c is None for c in inits):
        return Unmatched("a result of the reduction does not start from a filled constant")
    extents = [0] * rank
    for (b, m) in inputs:
        for d, e in zip(m, b.tensor_type.shape):
            extents[d] = e
    for d, e in enumerate(ir.RankedTensorType(red.results[0].type).shape):
        extents[d] = e
    if extents[-1] > MAX_REDUCED:
        return Unmatched(f"reduces {extents[-1]} elements in order; takes at most {MAX_REDUCED}")
    cmaps = [map_dims(ir.AffineMapAttr(a).value) for a in cons.attributes["indexing_maps"]]
    if any("reduction" in str(a) for a in cons.attributes["iterator_types"]) or not body_is_elementwise(cons) \
            or any(m != ident for m in cmaps) or g.stores[0][0] != cons.results[0]:
        return Unmatched("the consumer is not an elementwise generic over the reduction's results, stored")
    results = list(red.results)
    consumer_inputs = []
    for v in list(cons.operands)[:-1]:
        if v in results:
            consumer_inputs.append(results.index(v))
        elif g.binding_of(v) is not None:
            consumer_inputs.append(g.binding_of(v))
        else:
            return Unmatched("the consumer reads a value that is neither a result of the reduction nor a load")
    return CombineProblem(g, red, cons, inputs, inits, consumer_inputs, g.stores[0][1], extents)


def vector_width(p: CombineProblem, tgt: Target) -> int:
    """Elements a thread owns along the innermost parallel loop (see the module docstring)."""
    inner = len(p.extents) - 2
    if inner < 0:
        return 1
    widest = min(tgt.vector_elems(32), tgt.vector_elems(element_bits(p.out.tensor_type.element_type)))
    if any(inner in m and m[-1] != inner for _, m in p.inputs):
        return 1
    w = 1
    while w * 2 <= widest and p.extents[inner] % (w * 2) == 0:
        w *= 2
    return w


def emit(p: CombineProblem, tgt: Target, pass_name: str) -> None:
    w = vector_width(p, tgt)
    par = p.extents[:-1]
    lanes = par[:-1] + [par[-1] // w] if par else []
    points = math.prod(lanes)
    k = Kernel(p.graph, tgt, (THREADS, 1, 1), (math.ceil(points / THREADS), 1, 1))
    with k.ip, p.reduce.location:
        flat = arith.addi(arith.muli(k.block_id("x"), k.const(THREADS)), k.thread_id())
        if points % THREADS == 0:
            _element(p, k, flat, lanes, w)
        else:
            guard = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ult, flat, k.const(points)))
            with ir.InsertionPoint(guard.then_block):
                _element(p, k, flat, lanes, w)
                scf.yield_([])
    k.finish(pass_name)


def _element(p: CombineProblem, k: Kernel, flat: ir.Value, lanes: list[int], w: int) -> None:
    """The outputs of thread `flat`'s w elements: R's body over the reduced loop, then E's."""
    inner = len(p.extents) - 2
    coords = k.delinearize(flat, lanes) if lanes else []
    if coords:
        coords[-1] = arith.muli(coords[-1], k.const(w))
    init = [vector.broadcast(ir.VectorType.get([w], r.type.element_type), c) for r, c in zip(p.reduce.results, p.inits)]
    if p.extents[-1] <= MAX_UNROLLED:
        # Every read first (all in flight at once: the kernel is a few memory latencies), then
        # R's body in order.
        reads = [[_read(b, m, coords + [k.const(i)], w, inner) for b, m in p.inputs] for i in range(p.extents[-1])]
        results = init
        for args in reads:
            results = clone_body(p.reduce, args + results, w)
    else:
        loop = scf.ForOp(k.const(0), k.const(p.extents[-1]), k.const(1), init)
        with ir.InsertionPoint(loop.body):
            at = coords + [loop.induction_variable]
            args = [_read(b, m, at, w, inner) for b, m in p.inputs]
            scf.yield_(clone_body(p.reduce, args + list(loop.inner_iter_args), w))
        results = list(loop.results)
    cargs = [results[x] if isinstance(x, int) else _read(x, list(range(inner + 1)), coords, w, inner)
             for x in p.consumer_inputs]
    write_vector(clone_body(p.consumer, cargs, w)[0], p.out.memref(), coords)


def _read(b: Binding, dims: list[int], at: list[ir.Value], w: int, inner: int) -> ir.Value:
    """Binding `b` (reading loops `dims`) at loop values `at`: a vector of w along the innermost
    parallel loop where it reads it, else a scalar broadcast to w."""
    buf = b.memref()
    idx = [at[d] for d in dims]
    elem = b.tensor_type.element_type
    if inner in dims:
        return read_vector(ir.VectorType.get([w], elem), buf, idx)
    return vector.broadcast(ir.VectorType.get([w], elem), memref.load(buf, idx))
