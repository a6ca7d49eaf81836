"""ldsopt-window-reduce: pooling (max, average, global) as window reductions.

Contract.
- Matches a dispatch whose root is a `linalg.generic` with reduced loops (IREE generalizes
  `linalg.pooling_*` to one) whose output is its parallel loops (any order), whose loaded
  inputs are read through sums of loops (a pooling window's `oh * 2 + kh`, or a projection:
  global pooling over H and W), and whose other inputs are `tensor.empty` windows that only
  give the reduced loops their extents (their body arguments unused); its body arith/math
  ops combining the accumulator with the inputs, through one op that reads the accumulator
  once (`maximumf`, `addf`, ...: the reduction's combiner); the accumulator starts from a
  constant fill or a loaded tensor. A loaded input may be padded in the dispatch by a
  constant (a max pool's -inf, an average's 0: `tensor.pad`, which IREE's
  --iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops fuses;
  ldsopt/codegen/padding.py): it is read in its bound tensor, the padding value where a
  window point falls outside it. Optionally followed by one elementwise consumer fused
  into the dispatch (an average's divide, by a count computed from the output's position where
  the padding is excluded; `match_epilogue`, as the matmul's), its other
  inputs loaded through projections. The root's result (or the consumer's) is stored whole.
- The gathered form (`_match_gathered`): PyTorch's AdaptiveAvgPool2d(1) as IREE's torch input
  forms it, a reduction whose inputs are all such unread windows and whose body reads the
  image by `tensor.extract` of a loaded binding at indices it computes from `linalg.index`
  (outside the window a select of 0), the sum its first result (from a constant fill or a
  loaded tensor, stored whole), every further result a constant from outside the body stored
  whole (the window's point count, a 0-d tensor). Left alone: other ops in its dispatch (an
  AdaptiveAvgPool2d(2)'s division and its point counts computed per window), a further
  result the body computes, a gather of anything but a loaded binding.
- Left alone, with the reason as a remark: reductions whose inputs are read through other
  maps (a division, a loop in two dims), bodies that read the accumulator elsewhere, windows
  of more than `max-window` points (one thread would go through them alone), reductions to a
  scalar (no output dim for the threads), and the
  reductions with long rows that ldsopt-vector-distribute takes (run it first: it takes
  projection-map reductions over trailing dims; what it leaves, such as global pooling over an
  NHWC image's H and W, this pass takes).
- Needs a GPU target.

The kernel: one thread per vector of V outputs along the output's innermost dim, in a
grid-stride loop over all of them. V > 1 where every input reading that dim reads it alone
in its own innermost dim (an NHWC image's channels: the window reads are vectors), else 1
(an NCHW window's `ow * 2 + kw`: each read one element; a padded innermost dim; a consumer
that stores that dim along another, as RoPE's frequencies transposed). For each vector the accumulator
(the fill, broadcast, or the loaded init) goes through the window's loops, unrolled where
the window has at most UNROLL points (3x3) and a loop nest otherwise (7x7, global), each
step reading the inputs at the window point and applying the body on vectors; then the
consumer's body, then one store. No LDS: a window's points are read once per output and
the neighbouring outputs' overlapping reads hit the cache. The gathered form: one thread per
output element, the body cloned on scalars at each point of a loop nest over the window (each
extract a `memref.load` at the indices as the body computes them, unclamped, as IREE's llvm-cpu
lowering loads them), one store; the constants stored once, by the first thread.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf, vector

from ldsopt.codegen.dispatch import Binding, Graph, analyze_graph
from ldsopt.codegen.elementwise import DimSum, clone_body, dim_sums, map_dims, sum_exprs
from ldsopt.codegen.epilogue import Epilogue, match_epilogue
from ldsopt.codegen.padding import PAD, Padded, padded_dims, padded_inputs, split_pads, through_pad
from ldsopt.codegen.kernel import GridStridePass, Kernel, matched_dispatches, natively_computed, read_vector, write_vector
from ldsopt.ir_types import element_bits
from ldsopt.layout import index_expr
from ldsopt.matmul.output import body_at
from ldsopt.registry import option
from ldsopt.remarks import Unmatched

# Window points emitted one after the other rather than in a loop (a 3x3 max pool's nine).
UNROLL = 16
# The gathered form's (scalar) points emitted one after the other: a ResNet's last 7x7 whole,
# so that each thread's loads, at constant offsets once the index arithmetic folds, issue
# together instead of one per loop trip.
GATHER_UNROLL = 64
_ELEMENTWISE = ("arith.", "math.")


@dataclasses.dataclass
class Window:
    """A matched window reduction."""

    graph: Graph
    root: ir.Operation
    extents: tuple[int, ...]                       # per loop
    out_loops: tuple[int, ...]                     # the root's output dims' loops, in its memory order
    reduced: tuple[int, ...]                       # the reduced loops, outer to inner
    inputs: list[tuple[Binding, tuple[DimSum, ...]] | None]  # per root input: loaded, or a window (None)
    init: float | int | Binding
    output: Binding
    epilogue: Epilogue | None
    # The gathered form (`_match_gathered`): each tensor the body reads by `tensor.extract`,
    # with its binding; and each further result that is a constant (a window's point count),
    # with the binding it is stored into.
    gathered: dict = dataclasses.field(default_factory=dict)
    constants: list[tuple[ir.Value, Binding]] = dataclasses.field(default_factory=list)


def _init(root: ir.Operation, g: Graph, init: ir.Value | None = None) -> float | int | Binding | None:
    """What the accumulator (`init`, by default the root's last operand) starts from: a
    constant fill's value or a loaded tensor's binding; None otherwise."""
    init = root.operands[len(root.operands) - 1] if init is None else init
    op = init.owner if isinstance(init, ir.OpResult) else None
    if op is not None and op.name == "linalg.fill":
        cst = op.operands[0].owner if isinstance(op.operands[0], ir.OpResult) else None
        if cst is not None and cst.name == "arith.constant":
            value = cst.attributes["value"]
            return ir.FloatAttr(value).value if isinstance(value, ir.FloatAttr) else ir.IntegerAttr(value).value
        return None
    return g.binding_of(init)


def _combiner_reads_acc_once(root: ir.Operation) -> bool:
    """The body's ops are arith/math, and the accumulator (the last block argument) is read by
    one op, whose result is yielded: the reduction's combiner."""
    block = root.regions[0].blocks[0]
    ops = [op.operation for op in block.operations]
    if any(not op.name.startswith(_ELEMENTWISE) and op.name != "linalg.yield" or op.regions for op in ops):
        return False
    acc = block.arguments[len(block.arguments) - 1]
    users = [u.owner for u in acc.uses]
    return len(users) == 1 and ops[-1].operands[0].owner == users[0]


def match(g: Graph) -> Window | Unmatched:
    g, pads = split_pads(g)
    if not g.ops:
        return Unmatched("no linalg.generic op")
    if len(g.ops) > 2:
        return Unmatched(f"{len(g.ops)} ops fused in one dispatch; this pass takes a window reduction and at most "
                         "one elementwise consumer")
    root = g.ops[0]
    if root.name != "linalg.generic":
        return Unmatched(f"computes with {root.name}; this pass takes a linalg.generic window reduction")
    if any(op.name == "tensor.extract" for op in root.regions[0].blocks[0].operations):
        return _match_gathered(g, root, pads)
    if len(root.results) != 1:
        return Unmatched(f"a reduction of {len(root.results)} results (an arg-best's value and index); this pass "
                         "takes one, or a gathered sum with constants")
    iters = ["reduction" in str(it) for it in root.attributes["iterator_types"]]
    maps = [ir.AffineMapAttr(a).value for a in root.attributes["indexing_maps"]]
    out = map_dims(maps[-1])
    reduced = tuple(x for x, r in enumerate(iters) if r)
    if not reduced:
        return Unmatched("not a reduction: it has no reduced loops")
    if out is None or sorted(out) != [x for x, r in enumerate(iters) if not r]:
        return Unmatched("the output is not indexed by its parallel loops")
    block = root.regions[0].blocks[0]
    padded = padded_inputs(g, pads, root)
    if not isinstance(padded, dict):
        return padded
    inputs = []
    for pos, (v, m) in enumerate(zip(list(root.operands)[:len(maps) - 1], maps)):
        window = isinstance(v, ir.OpResult) and v.owner.name == "tensor.empty"
        if window and not list(block.arguments[pos].uses):
            inputs.append(None)
            continue
        b, sums = padded.get(v) or g.binding_of(v), dim_sums(m)
        if b is None:
            return Unmatched("an input is not a whole-tensor load of a binding or an unread window shape")
        if sums is None:
            return Unmatched(f"an input is read through {m}; this pass takes sums of loops times strides")
        inputs.append((b, through_pad(sums, b) if isinstance(b, Padded) else sums))
    if not any(inputs):
        return Unmatched("reads no binding")
    if not _combiner_reads_acc_once(root):
        return Unmatched("the body is not arith/math ops combining the accumulator once")
    init = _init(root, g)
    if init is None:
        return Unmatched("the accumulator starts neither from a constant fill nor from a loaded tensor")
    extents: dict[int, int] = {}
    for v, m in zip(root.operands, maps):
        for e, size in zip(m.results, ir.RankedTensorType(v.type).shape):
            if isinstance(e, ir.AffineDimExpr):
                extents.setdefault(e.position, size)
    if sorted(extents) != list(range(len(iters))):
        return Unmatched("a loop's extent is not a dim of an operand")
    epilogue = None
    if len(g.ops) == 2:
        epilogue = match_epilogue(g, root, g.ops[1], "the reduction")
        if not epilogue:
            return epilogue
        output = g.stores[0][1]
    else:
        if len(g.stores) != 1 or g.stores[0][0] != root.results[0]:
            return Unmatched("stores something else than the reduction's one result")
        output = g.stores[0][1]
    return Window(g, root, tuple(extents[x] for x in range(len(iters))), tuple(out), reduced, inputs, init,
                  output, epilogue)


_GATHER_BODY = ("arith.", "math.", "linalg.index", "tensor.extract", "linalg.yield")


def _match_gathered(g: Graph, root: ir.Operation, pads: list) -> Window | Unmatched:
    """The window reduction IREE's torch input forms of PyTorch's adaptive average pooling: no
    loaded input (tensor.empty windows give the reduced loops their extents), the body reading
    the image by `tensor.extract` at indices it computes from `linalg.index` (the window's
    bounds as selects of 0), the sum as the first result, each further result a constant
    stored whole (the window's point count, for the division after it)."""
    block = root.regions[0].blocks[0]
    ops = [op.operation for op in block.operations]
    if pads or len(g.ops) != 1:
        return Unmatched("a gathered window reduction with other ops in its dispatch")
    if any(op.regions or not op.name.startswith(_GATHER_BODY) for op in ops):
        return Unmatched("a gathered window reduction whose body has other ops than arith, math, linalg.index "
                         "and tensor.extract")
    maps = [ir.AffineMapAttr(a).value for a in root.attributes["indexing_maps"]]
    n_out = len(root.results)
    n_in = len(maps) - n_out
    iters = ["reduction" in str(it) for it in root.attributes["iterator_types"]]
    parallel = [x for x, r in enumerate(iters) if not r]
    reduced = tuple(x for x, r in enumerate(iters) if r)
    out = map_dims(maps[n_in])
    if not reduced or out is None or sorted(out) != parallel:
        return Unmatched("a gathered reduction whose first output is not indexed by its parallel loops")
    operands = list(root.operands)
    for pos in range(n_in):
        v = operands[pos]
        if not (isinstance(v, ir.OpResult) and v.owner.name == "tensor.empty") or list(block.arguments[pos].uses):
            return Unmatched("a gathered reduction with an input other than an unread window shape")
    gathered = {}
    for op in ops:
        if op.name == "tensor.extract":
            b = g.binding_of(op.operands[0])
            if b is None:
                return Unmatched("a tensor.extract of something other than a whole-tensor load of a binding")
            gathered[op.operands[0]] = b
    acc = block.arguments[n_in]
    users = [u.owner for u in acc.uses]
    yielded = list(ops[-1].operands)
    if len(users) != 1 or yielded[0].owner != users[0]:
        return Unmatched("a gathered reduction whose first result is not the accumulator combined once")
    stores = dict(g.stores)
    constants = []
    for j in range(1, n_out):
        value = yielded[j]
        inside = isinstance(value, ir.OpResult) and value.owner.parent == root
        if len(maps[n_in + j].results) or inside or list(block.arguments[n_in + j].uses) or \
                root.results[j] not in stores:
            return Unmatched("a gathered reduction with a further result other than a constant stored whole")
        constants.append((value, stores[root.results[j]]))
    init = _init(root, g, operands[n_in])
    if init is None or root.results[0] not in stores or len(g.stores) != n_out:
        return Unmatched("a gathered reduction whose sum starts from no constant or loaded tensor, or is not "
                         "stored whole")
    extents: dict[int, int] = {}
    for v, m in zip(operands, maps):
        for e, size in zip(m.results, ir.RankedTensorType(v.type).shape):
            if isinstance(e, ir.AffineDimExpr):
                extents.setdefault(e.position, size)
    if sorted(extents) != list(range(len(iters))):
        return Unmatched("a loop's extent is not a dim of an operand")
    return Window(g, root, tuple(extents[x] for x in range(len(iters))), tuple(out), reduced, [None] * n_in, init,
                  stores[root.results[0]], None, gathered, constants)


def _vector_width(w: Window, tgt) -> int:
    """V (module doc): the widest power of two dividing the output's innermost extent that the
    target loads, where each input reading that loop reads it alone in its innermost dim and
    the consumer, if any, stores it innermost; else 1."""
    inner = w.out_loops[-1]
    if w.epilogue and w.epilogue.out_dims[-1] != len(w.epilogue.out_dims) - 1:
        return 1  # the consumer stores the innermost loop along another dim: no vector along it
    for x in w.inputs:
        if x is None:
            continue
        edges = {d for d, _ in padded_dims(x[0])} if isinstance(x[0], Padded) else set()
        for i, (terms, _) in enumerate(x[1]):
            if any(loop == inner for loop, _ in terms) and (i != len(x[1]) - 1 or terms != ((inner, 1),) or i in edges):
                return 1
    types = [x[0].tensor_type.element_type for x in w.inputs if x] + [w.output.tensor_type.element_type]
    vmax = min(tgt.vector_elems(element_bits(t)) for t in types)
    return math.gcd(w.extents[inner], 1 << (vmax.bit_length() - 1))


@dataclasses.dataclass(frozen=True)
class WindowReduce(GridStridePass):
    NAME = "ldsopt-window-reduce"
    SUMMARY = "Lower window reductions (max, average and global pooling) to a thread per output vector"

    max_window: int = option(1024, "window points an output goes through at most; a longer window is a row "
                                   "reduction (ldsopt-vector-distribute's), which spreads it over threads", min=1)

    def run(self, module: ir.Operation) -> None:
        def match_here(g: Graph) -> Window | Unmatched:
            w = match(g)
            if w and not w.out_loops:
                return Unmatched("a reduction to a scalar: no output for threads to share (a row reduction's: "
                                 "ldsopt-vector-distribute's, or IREE's)")
            if w and math.prod(w.extents[x] for x in w.reduced) > self.max_window:
                return Unmatched(f"a window of {math.prod(w.extents[x] for x in w.reduced)} points, more than "
                                 f"max-window={self.max_window}: a thread per output would go through it alone")
            return w

        def analyzer(func: ir.Operation, roots: tuple[str, ...]) -> Graph | Unmatched:
            return analyze_graph(func, (*roots, PAD), out_slices=True)

        matches = matched_dispatches(module, ("linalg.generic",), match_here, self, analyzer=analyzer)
        for _, w, tgt in natively_computed(matches, lambda d: d.ops, self.NAME):
            self._lower(w, tgt)

    def _lower(self, w: Window, tgt) -> None:
        if w.gathered:
            self._lower_gathered(w, tgt)
            return
        v = _vector_width(w, tgt)
        out_shape = [w.extents[x] for x in w.out_loops]
        n_items = math.prod(out_shape) // v
        wg = self.workgroup_size
        n_wg = self.workgroups(n_items, tgt)
        k = Kernel(w.graph, tgt, (wg, 1, 1), (n_wg, 1, 1))
        acc_type = ir.RankedTensorType(w.root.results[0].type).element_type
        vtype = ir.VectorType.get([v], acc_type)
        with k.ip, w.graph.location:
            mems = [None if x is None else x[0].memref() for x in w.inputs]
            out_mem = w.output.memref()
            init_mem = w.init.memref() if isinstance(w.init, Binding) else None
            epi_mems = [None if x is None else x[0].memref() for x in w.epilogue.inputs] if w.epilogue else []
            # What stands for a window shape's (unread) argument in the body.
            block = w.root.regions[0].blocks[0]
            windows = {pos: vector.broadcast(ir.VectorType.get([v], block.arguments[pos].type),
                                                  k.const(0.0 if isinstance(block.arguments[pos].type, ir.FloatType)
                                                          else 0, block.arguments[pos].type))
                            for pos, x in enumerate(w.inputs) if x is None}
            start = arith.addi(arith.muli(k.block_id(), k.const(wg)), k.thread_id())
            loop = scf.ForOp(start, k.const(n_items), k.const(n_wg * wg))
        with ir.InsertionPoint(loop.body), w.graph.location:
            # This thread's output vector: its dims' indices (the innermost a multiple of V).
            flat = index_expr.var("g")
            coords = index_expr.split(flat, [out_shape[-1] // v] + out_shape[-2::-1])[::-1]
            coords[-1] = index_expr.scaled(coords[-1], v)
            out_idx = k.index(coords, g=loop.induction_variable)
            at = dict(zip(w.out_loops, out_idx))
            if init_mem is None:
                acc = vector.broadcast(vtype, k.const(w.init, acc_type))
            else:
                acc = read_vector(vtype, init_mem, out_idx)
            acc = self._window(k, w, at, acc, lambda here, a: self._step(k, w, mems, here, a, v, windows), UNROLL)
            value = acc
            if w.epilogue:
                value = body_at(w.epilogue.op, w.epilogue.inputs, epi_mems, out_idx, v, acc, None, tgt.backend)[0]
                write_vector(value, out_mem, [out_idx[i] for i in w.epilogue.out_dims])
            else:
                write_vector(value, out_mem, out_idx)
            scf.yield_([])
        k.finish(self.NAME)

    def _lower_gathered(self, w: Window, tgt) -> None:
        """The gathered form: a thread per output element, its window's points unrolled or in a
        loop nest (`_window`), the body cloned on scalars (its extracts loads at the indices it
        computes); each constant result stored once, by the first thread."""
        out_shape = [w.extents[x] for x in w.out_loops]
        n_items = math.prod(out_shape)
        wg, n_wg = self.spread(n_items, tgt)
        k = Kernel(w.graph, tgt, (wg, 1, 1), (n_wg, 1, 1))
        block = w.root.regions[0].blocks[0]
        n_in = len(w.inputs)
        acc_type = block.arguments[n_in].type
        with k.ip, w.graph.location:
            loads = {t: b.memref() for t, b in w.gathered.items()}
            out_mem = w.output.memref()
            init_mem = w.init.memref() if isinstance(w.init, Binding) else None
            start = arith.addi(arith.muli(k.block_id(), k.const(wg)), k.thread_id())
            first = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, start, k.const(0)))
            with ir.InsertionPoint(first.then_block):
                for value, b in w.constants:
                    memref.store(value, b.memref(), [])
                scf.yield_([])
            # The body's unread arguments (window shapes, the constants' outputs): zeros.
            unread = [arith.constant(a.type, 0.0 if isinstance(a.type, ir.FloatType) else 0) for a in block.arguments]
            loop = scf.ForOp(start, k.const(n_items), k.const(n_wg * wg))
        with ir.InsertionPoint(loop.body), w.graph.location:
            out_idx = k.delinearize(loop.induction_variable, out_shape)
            at = dict(zip(w.out_loops, out_idx))
            acc = arith.constant(acc_type, w.init) if init_mem is None else memref.load(init_mem, out_idx)
            acc = self._window(k, w, at, acc, lambda here, a: self._gathered_point(w, loads, unread, here, a),
                               GATHER_UNROLL)
            memref.store(acc, out_mem, out_idx)
            scf.yield_([])
        k.finish(self.NAME)

    def _gathered_point(self, w: Window, loads: dict, unread: list, at: dict, acc: ir.Value) -> ir.Value:
        """The body on scalars at the loops' values `at`: its linalg.index those values."""
        block = w.root.regions[0].blocks[0]
        n_in = len(w.inputs)
        mapping = {op.results[0]: at[ir.IntegerAttr(op.attributes["dim"]).value]
                   for op in (o.operation for o in block.operations) if op.name == "linalg.index"}
        return clone_body(w.root, unread[:n_in] + [acc] + unread[n_in + 1:], None, mapping, loads=loads)[0]

    def _window(self, k: Kernel, w: Window, at: dict, acc: ir.Value, step, unroll: int) -> ir.Value:
        """The accumulator after every point of the window, `step(at, acc)` the body at one
        point: the points one after the other where there are at most `unroll`, else a loop
        nest."""
        extents = [w.extents[x] for x in w.reduced]
        if math.prod(extents) <= unroll:
            for point in itertools.product(*(range(e) for e in extents)):
                acc = step({**at, **{x: k.const(p) for x, p in zip(w.reduced, point)}}, acc)
            return acc
        return self._nest(k, w, at, acc, step, list(w.reduced))

    def _nest(self, k: Kernel, w: Window, at: dict, acc: ir.Value, step, loops: list[int]) -> ir.Value:
        loop = scf.ForOp(k.const(0), k.const(w.extents[loops[0]]), k.const(1), [acc])
        with ir.InsertionPoint(loop.body):
            here = {**at, loops[0]: loop.induction_variable}
            inner = loop.inner_iter_args[0]
            result = step(here, inner) if len(loops) == 1 else self._nest(k, w, here, inner, step, loops[1:])
            scf.yield_([result])
        return loop.results[0]

    def _step(self, k: Kernel, w: Window, mems: list, at: dict, acc: ir.Value, v: int, windows: dict) -> ir.Value:
        """The body at one window point: each loaded input read at its sums of `at`; a window
        shape's argument, unread, is `windows`'s stand-in."""
        args = []
        block = w.root.regions[0].blocks[0]
        for pos, (x, mem) in enumerate(zip(w.inputs, mems)):
            if x is None:
                args.append(windows[pos])
                continue
            vtype = ir.VectorType.get([v], block.arguments[pos].type)
            idx = k.index(sum_exprs(x[1], {loop: index_expr.var(f"l{loop}") for loop in at}),
                          **{f"l{loop}": value for loop, value in at.items()})
            innermost = bool(x[1]) and x[1][-1][0] == ((w.out_loops[-1], 1),)

            def read(vtype=vtype, mem=mem, idx=idx, innermost=innermost):
                return read_vector(vtype, mem, idx) if innermost or v == 1 else \
                    vector.broadcast(vtype, memref.load(mem, idx))
            args.append(_padded_read(k, x[0], idx, vtype, read) if isinstance(x[0], Padded) else read())
        return clone_body(w.root, args + [acc], v)[0]


def _padded_read(k: Kernel, pad: Padded, idx: list[ir.Value], vtype: ir.VectorType, read) -> ir.Value:
    """`read()` (emitted under the guard) where every padded dim's index is inside the bound
    tensor (unsigned: a negative one is outside), else the padding value, broadcast."""
    if not padded_dims(pad):
        return read()
    inside = None
    for d, n in padded_dims(pad):
        c = arith.cmpi(arith.CmpIPredicate.ult, idx[d], k.const(n))
        inside = c if inside is None else arith.andi(inside, c)
    guard = scf.IfOp(inside, [vtype], has_else=True)
    with ir.InsertionPoint(guard.then_block):
        scf.yield_([read()])
    with ir.InsertionPoint(guard.else_block):
        scf.yield_([vector.broadcast(vtype, arith.ConstantOp(vtype.element_type, pad.value).result)])
    return guard.result
