"""Row-wise fused reductions: the dispatches of several linalg.generics that IREE forms for
softmax, layernorm, RMSNorm, logsumexp and the like, read as one computation over rows.

A dispatch (ldsopt.dispatch.Graph) matches when its generics share one iteration space S of
rank n whose trailing dims R = (k, ..., n-1) are the reduced ones. A *row* is one point of
the leading dims P = (0, ..., k-1). S is the first reduction's loops, its parallel ones first;
the loops of every op of n loops are renamed to S's (`Node.loops`): a reduction's parallel
loops first, then its reduced ones; a map's so that it reads the values computed in the
dispatch at the points they were computed at, its other loops as an earlier op read the same
loaded tensor (a map before the first reduction, as the ops after it read its results).
A reduction over an outer dim (softmax over channels) then reads and writes its tensors
through permutations of S, and its rows are *strided* (`RowGraph.strided`): the full tensors
it loads must then be contiguous along one dim, the row's last or the rows' last, and those it
stores along any dim of S (a transposed write-back is fine; two layouts of loads are formed apart).
Every tensor in the dispatch is
- full: shape S, one element per point (the input, exp(x - max), the normalized output);
- row: shape S[:k], one element per row (max, sum, mean, rsqrt(var + eps));
- or, for loaded tensors only, read through any subset of the dims (a scale or bias over R,
  a row tensor, a scalar).
The generics are
- reductions: n loops, P parallel and R reduced; each result j is `combine_j(f_j(inputs),
  out_j)` (a combining op of ldsopt.combining, its own per result: a generic with two results
  is two reductions in one pass), a row value starting from a linalg.fill value or a loaded
  row tensor;
- arg-best reductions (argmax / argmin): one reduced dim, a value and an index result, the
  index selected where the element c computed from the inputs beats the best value, in any of
  the forms ldsopt/reduction/arg_best.py reads by what they compute (torch-mlir's max.dim,
  TOSA's argmax, `iree_linalg_ext.arg_compare`): the best value and the first index holding
  it, with the body's treatment of NaN;
- maps: n loops, all parallel, full results, the body not reading its outputs (values per
  element before a combine, or consumers that read the row again with row values);
- row maps: k loops over row values, all parallel (epilogues: divide by N, sqrt, log);
- parameter maps: all-parallel generics of loaded tensors over fewer loops, whose one result
  every later op reads through the same dims of P (an f16 BatchNorm's scale and shift
  extended to f32 for the global average pool after it): maps over those dims. (A producer
  over reduced dims, such as a matmul's dequantized weights, is not one: that product is
  ldsopt-matmul-lds's.)
Operands are read through projections of S without repeated dims, full results written through
a permutation of S (`RowGraph.layouts`); bodies are arith / math and
`linalg.index`, the element's position along a loop of the op (a mask computed from the row
and column, as PyTorch's eager attention builds it in its softmax: `index_cast`, `cmpi`,
`select` on it); the loop is a dim of S (`Node.loops`). With one reduced dim, a map's body may
gather (`Node.reads`, an embedding lookup as IREE fuses it with the LayerNorm after it), as
ldsopt/codegen/gather.py matches it along the row (dim n-1): `tensor.extract` of a loaded table
whose last index is the row's position (the table's rows as long as the row) and whose other
indices are computed once per row (arith of row operands loaded from bindings, parallel
positions, and other tables' elements read at such indices only: BERT's token type id, read at
the row's position id, indexes its table). An extract at any other index is not matched, nor
a table's element read once per row that the body also computes with (the kernel reads those
once per row, as addresses only), nor an index computed from a row value of the dispatch (the
kernel reads the tables before it reduces).
An `iree_linalg_ext.arg_compare` is read as the generic IREE generalizes it to (its input
through the identity, its outputs without its dimension).
A reduction that reads a row value of another one runs in a later *pass* over the row
(softmax: the max, then the sum of exp(x - max), then the consumer). Anything else is not
matched (an `Unmatched` with the reason the tools print), and stays with IREE.

Plain structure: what to emit is ldsopt-vector-distribute's.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.codegen import gather
from ldsopt.codegen.combining import combining_ops
from ldsopt.codegen.dispatch import Binding, Graph, load_binding
from ldsopt.codegen.elementwise import map_dims
from ldsopt.ir_types import element_bits
from ldsopt.reduction import arg_best
from ldsopt.remarks import Unmatched

REDUCE, ARG_BEST, MAP, ROW_MAP = "reduce", "arg_best", "map", "row_map"
ARG_COMPARE = "iree_linalg_ext.arg_compare"
ROOTS = ("linalg.generic", ARG_COMPARE)
_BODY_DIALECTS = ("arith.", "math.")
_YIELDS = ("linalg.yield", "iree_linalg_ext.yield")


@dataclasses.dataclass
class Operand:
    value: ir.Value
    dims: tuple[int, ...]  # the dims of S it is read through, ascending


@dataclasses.dataclass
class Node:
    op: ir.Operation                 # the linalg.generic
    kind: str                        # REDUCE, ARG_BEST, MAP or ROW_MAP
    operands: list[Operand]          # its inputs
    loops: tuple[int, ...]           # the dim of S each of its loops runs over (its linalg.index d
                                     # is the position along dim loops[d])
    level: int                       # REDUCE, ARG_BEST: the (first) pass over the row that
                                     # computes it; else the passes its inputs need done first
    combines: list[ir.Operation] = dataclasses.field(default_factory=list)  # REDUCE: per result
    inits: list[ir.Value | Binding] = dataclasses.field(default_factory=list)  # REDUCE, ARG_BEST: fill value or
                                                                               # loaded tensor, per result
    arg_best: arg_best.ArgBest | None = None  # ARG_BEST
    row_divisors: list[int] = dataclasses.field(default_factory=list)  # MAP, REDUCE: operands read once
                                                                       # per row that a divf divides by
    reads: gather.TableReads | None = None  # MAP: its body's table reads, along the row


@dataclasses.dataclass
class RowGraph:
    graph: Graph
    shape: tuple[int, ...]
    k: int                           # parallel dims: P = (0, ..., k-1)
    nodes: list[Node]                # in program order
    full_stores: list[tuple[ir.Value, Binding]]
    row_stores: list[tuple[ir.Value, Binding]]
    layouts: dict = dataclasses.field(default_factory=dict)  # full stored value -> the dim of S of
                                                              # each of its dims (a permutation)

    @property
    def strided(self) -> bool:
        """Whether a tensor read or written along the row is contiguous along another dim than
        the row's innermost (a reduction over an outer dim: the row's elements lie strided)."""
        last = len(self.shape) - 1
        return any(o.dims[-1] != last for o in self.chunk_operands()) or \
            any(dims[-1] != last for dims in self.layouts.values())

    @property
    def reduced(self) -> tuple[int, ...]:
        return tuple(range(self.k, len(self.shape)))

    @property
    def passes(self) -> int:
        """Passes over the row that reduce (a consumer pass comes on top)."""
        return 1 + max(n.level + (len(n.arg_best.phases) - 1 if n.kind == ARG_BEST else 0)
                       for n in self.nodes if n.kind in (REDUCE, ARG_BEST))

    def arg_bests(self, level: int) -> list[tuple[Node, str]]:
        """(arg-best reduction, its phase: arg_best.NAN, BEST or FIRST) of each one with a phase
        in pass `level`."""
        return [(n, n.arg_best.phases[level - n.level]) for n in self.nodes
                if n.kind == ARG_BEST and 0 <= level - n.level < len(n.arg_best.phases)]

    def reductions(self, level: int) -> list[Node]:
        return [n for n in self.nodes if n.kind == REDUCE and n.level == level]

    def reduction_results(self, level: int | None = None) -> list[tuple[Node, int]]:
        """(reduction, result index) of every reduction result of pass `level` (None: of
        every pass, in pass order)."""
        levels = range(self.passes) if level is None else [level]
        return [(n, j) for s in levels for n in self.reductions(s) for j in range(len(n.op.results))]

    def row_maps(self, level: int) -> list[Node]:
        return [n for n in self.nodes if n.kind == ROW_MAP and n.level == level]

    def producer(self, value: ir.Value) -> Node:
        return next(n for n in self.nodes if value.owner == n.op)

    def chunk_operands(self) -> list[Operand]:
        """The loaded operands read per element of the row (their dims include a reduced
        one), each (tensor, dims) once."""
        return self._loaded(lambda o: any(d >= self.k for d in o.dims))

    def staged_operands(self) -> list[Operand]:
        """The loaded operands read in full (every dim: one element per point of the row)."""
        return self._loaded(lambda o: len(o.dims) == len(self.shape))

    def row_operands(self) -> list[Operand]:
        """The loaded operands read once per row (their dims are parallel ones only)."""
        return self._loaded(lambda o: all(d < self.k for d in o.dims))

    def gathering(self) -> list[Node]:
        """The maps whose bodies read tables (`Node.reads`)."""
        return [n for n in self.nodes if n.reads is not None]

    def _loaded(self, keep) -> list[Operand]:
        out = []
        for n in self.nodes:
            for o in n.operands:
                if self.graph.binding_of(o.value) is not None and keep(o) and \
                        not any(o.value == x.value and o.dims == x.dims for x in out):
                    out.append(o)
        return out


def _structure(op: ir.Operation) -> tuple[list[str], list[list[int] | None], list[ir.Value], list[ir.Value]]:
    """(iterators, each operand's dims, inputs, outputs) of a generic, or of an arg_compare read
    as the generic IREE generalizes it to (its input through the identity, its outputs without
    its dimension)."""
    if op.name == ARG_COMPARE:
        n = ir.RankedTensorType(op.operands[0].type).rank
        dim = ir.IntegerAttr(op.attributes["dimension"]).value
        kept = [d for d in range(n) if d != dim]
        # Operands: the input value, the input index (optional), the outputs, the index base (optional).
        segments = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
        first_out = segments[0] + segments[1]
        return (["reduction" if d == dim else "parallel" for d in range(n)], [list(range(n)), kept, kept],
                [op.operands[0]], list(op.operands)[first_out:first_out + 2])
    n_out = len(op.results)
    operands = list(op.operands)
    return ([("reduction" if "reduction" in str(a) else "parallel") for a in op.attributes["iterator_types"]],
            [map_dims(ir.AffineMapAttr(a).value) for a in op.attributes["indexing_maps"]],
            operands[:len(operands) - n_out], operands[len(operands) - n_out:])


def _loop_sizes(values: list[ir.Value], maps: list[list[int]], n: int) -> list[int] | None:
    """The static extent of each of the n loops of an op, from its operands' shapes."""
    sizes: dict[int, int] = {}
    for v, dims in zip(values, maps):
        shape = ir.RankedTensorType(v.type).shape
        for d, extent in zip(dims, shape):
            if sizes.setdefault(d, extent) != extent:
                return None
    return [sizes[d] for d in range(n)] if sorted(sizes) == list(range(n)) else None


def _scalar_type_ok(t: ir.Type) -> bool:
    """Elements a vector load reads and a lane shuffles: floats, integers of 8+ bits."""
    return isinstance(t, ir.FloatType) or isinstance(t, ir.IntegerType) and element_bits(t) >= 8


def _initial_value(init: ir.Value) -> ir.Value | Binding | None:
    if isinstance(init, ir.OpResult) and init.owner.operation.name == "linalg.fill":
        return init.owner.operation.operands[0]
    return load_binding(init)


def _table_reads(op: ir.Operation, operands: list[Operand], computed: dict, g: Graph,
                 shape: list[int]) -> gather.TableReads | None:
    """The map body's table reads along the row (gather.match_reads, along dim n - 1), or None
    where the kernel does not read them so (module docstring): a table that is not a loaded
    binding of a rank and element type it loads, a row read of a table whose rows are not the
    row's length, a table's element read once per row that the body computes with (the kernel
    reads it once per row, for addresses only: `gather.addresses`), or an index computed from a
    row value of the dispatch (`computed`: the values the dispatch's ops compute; the kernel
    reads tables before it reduces). Ops other than arith, math, linalg.index and tensor.extract
    are the caller's to refuse."""
    def is_table(value: ir.Value) -> bool:
        t = ir.RankedTensorType(value.type)
        return g.binding_of(value) is not None and t.rank > 0 and _scalar_type_ok(t.element_type)

    last = len(shape) - 1
    reads = gather.match_reads(op, last, [last in o.dims or o.value in computed for o in operands], is_table)
    if isinstance(reads, str) or any(ir.RankedTensorType(x.operands[0].type).shape[-1] != shape[-1]
                                     for x in reads.rows):
        return None
    address = gather.addresses(reads, op)
    return reads if all(x in address for x in reads.uniform if x.name == gather.EXTRACT) else None


def _row_divisors(block: ir.Block, operands: list[Operand], k: int) -> list[int]:
    """The operands, read once per row (through parallel dims only), that an arith.divf of
    the body divides by."""
    args = list(block.arguments)
    out = set()
    for op in block.operations:
        op = op.operation
        if op.name == "arith.divf" and op.operands[1] in args[:len(operands)]:
            i = args.index(op.operands[1])
            if all(d < k for d in operands[i].dims):
                out.add(i)
    return sorted(out)


def _parameter_dims(op: ir.Operation, iterators: list[str], later: list[ir.Operation], structures: list,
                    n: int, g: Graph) -> tuple[int, ...] | None:
    """The dims of S that an all-parallel generic of fewer than n loops stands over: the dims
    through which every later op of n loops reads its one result (the same ascending dims for
    all, one per loop); None where it is not such an op, reads other than loaded bindings, or
    its result is stored or read otherwise."""
    if op.name != "linalg.generic" or len(op.results) != 1 or len(iterators) >= n or \
            any(it != "parallel" for it in iterators):
        return None
    ins = list(op.operands)[:len(op.operands) - 1]
    if any(g.binding_of(v) is None for v in ins) or any(v == op.results[0] for v, _ in g.stores):
        return None
    placed = None
    uses = 0
    for later_op, (it, maps, later_ins, _) in zip(later, structures):
        for v, m in zip(later_ins, maps):
            if v != op.results[0]:
                continue
            uses += 1
            if len(it) != n or m is None or len(m) != len(iterators) or list(m) != sorted(set(m)) or \
                    placed not in (None, tuple(m)):
                return None
            placed = tuple(m)
    return placed if placed is not None and uses == len(list(op.results[0].uses)) else None


def _renaming(ins: list[ir.Value], maps: list[list[int]], computed: dict, read_as: dict,
              n: int) -> list[int] | None:
    """The dim of S each loop of an all-parallel op of n loops runs over: where an operand is
    a value computed in the dispatch, the dims it has there (its elements are S's points);
    the loops left follow a loaded tensor as an earlier op read it (`read_as`), which keeps
    the op's reads and writes along the same memory dims; the rest in their order. None where
    computed operands disagree."""
    sigma: dict[int, int] = {}
    for known in (computed, read_as):
        for v, m in zip(ins, maps):
            dims = known.get(v)
            if dims is None or len(dims) != len(m):
                continue
            for loop, d in zip(m, dims):
                if loop in sigma or d in sigma.values():
                    if sigma.get(loop) != d and known is computed:
                        return None
                    continue
                sigma[loop] = d
    free = [d for d in range(n) if d not in sigma.values()]
    sigma.update(zip([loop for loop in range(n) if loop not in sigma], free))
    return [sigma[loop] for loop in range(n)]


def _reduction_renaming(iterators: list[str]) -> list[int]:
    """The dim of S each loop of a reduction runs over: its parallel loops first, in their
    order, then its reduced ones (linalg.softmax over a middle dim reduces loop 1 of 3)."""
    order = [x for x, t in enumerate(iterators) if t == "parallel"] + \
        [x for x, t in enumerate(iterators) if t == "reduction"]
    return [order.index(x) for x in range(len(iterators))]


def _early_renamings(ops: list[ir.Operation], structures: list, first: int, n: int) -> dict[int, list[int]]:
    """The renamings (as `_renaming`'s) of the all-parallel ops of n loops before the first
    reduction (a cast of the input), from where the reductions and the ops renamed so far
    read their results, last op first; an op whose results they do not read keeps its order."""
    renamed = {j: _reduction_renaming(st[0]) for j, st in enumerate(structures) if "reduction" in st[0]}
    for i in reversed(range(first)):
        it, maps, ins, _ = structures[i]
        if it != ["parallel"] * n or any(m is None for m in maps):
            continue
        out_maps = dict(zip(ops[i].results, maps[len(ins):]))
        sigma: dict[int, int] = {}
        for j, sigma_j in renamed.items():
            for v, m in zip(structures[j][2], structures[j][1]):
                out_map = out_maps.get(v)
                if out_map is not None and len(out_map) == len(m):
                    for loop, x in zip(out_map, m):
                        sigma.setdefault(loop, sigma_j[x])
        if sorted(sigma) == list(range(n)) and sorted(sigma.values()) == list(range(n)):
            renamed[i] = [sigma[loop] for loop in range(n)]
    return {i: sigma for i, sigma in renamed.items() if i < first}


def match_rows(g: Graph) -> RowGraph | Unmatched:
    """The dispatch as a RowGraph (module docstring), or why not."""
    if any(op.name not in ROOTS for op in g.ops):
        return Unmatched("computes with " + ", ".join(sorted({op.name for op in g.ops} - set(ROOTS))))
    structures = [_structure(op) for op in g.ops]
    iterators = [st[0] for st in structures]
    maps_of = [st[1] for st in structures]
    first = next((i for i, it in enumerate(iterators) if "reduction" in it), None)
    if first is None:
        return Unmatched("no reduction")
    if any(m is None for ms in maps_of for m in ms):
        return Unmatched("an indexing map is not a projection of the loops")
    n, k = len(iterators[first]), iterators[first].count("parallel")
    shape = _loop_sizes(structures[first][2] + structures[first][3], maps_of[first], n)
    if shape is None:
        return Unmatched("the reduction's loop extents are not static")
    if g.ops[first].name == "linalg.generic":
        shape = [shape[_reduction_renaming(iterators[first]).index(d)] for d in range(n)]
    reduce_iters = ["parallel"] * k + ["reduction"] * (n - k)
    space: dict[ir.Value, tuple[int, ...]] = {}   # generic results: their dims
    ready: dict[ir.Value, int] = {}               # generic results: passes done before they exist
    nodes = []
    read_as: dict[ir.Value, tuple[int, ...]] = {}  # loaded tensors: the dims of S an op first read them by
    early = _early_renamings(g.ops, structures, first, n)
    for i, (op, (it, maps, ins, outs)) in enumerate(zip(g.ops, structures)):
        sizes = _loop_sizes(ins + outs, maps, len(it))
        placed = _parameter_dims(op, it, g.ops[i + 1:], structures[i + 1:], n, g)
        loops = tuple(range(len(it)))
        sigma = None
        if len(it) == n and op.name == "linalg.generic" and sizes is not None:
            # An op over the row's points may run its loops in another order than S (a
            # reduction over an outer dim, the maps around it in memory order): renamed to S's.
            if "reduction" in it:
                sigma = _reduction_renaming(it)
            elif it == ["parallel"] * n:
                sigma = early.get(i, list(range(n))) if i < first else \
                    _renaming(ins, maps[:len(ins)], space, read_as, n)
                if sigma is None:
                    return Unmatched("an op reads values of the rows at other points than they were computed at")
        if sigma is not None:
            loops, maps = tuple(sigma), [[sigma[x] for x in m] for m in maps]
            sizes, it = [sizes[sigma.index(d)] for d in range(n)], [it[sigma.index(d)] for d in range(n)]
        out_map = tuple(maps[len(ins)]) if maps[len(ins):] else ()
        if it == reduce_iters and sizes == shape:
            kind, out_dims = REDUCE, tuple(range(k))
        elif it == ["parallel"] * n and sizes == shape and sorted(out_map) == list(range(n)):
            # Its full results in memory: the dims of S in their order (a permutation).
            kind, out_dims = MAP, out_map
        elif k > 0 and it == ["parallel"] * k and sizes == shape[:k]:
            kind, out_dims = ROW_MAP, tuple(range(k))
        elif placed is not None and sizes == [shape[d] for d in placed] and all(d < k for d in placed):
            # A map of loaded parameters over some row dims (an f16 BatchNorm's scale extended
            # to f32): computed where its consumers read it, its loops renamed to those dims.
            kind, out_dims, loops = MAP, placed, placed
            maps = [[placed[x] for x in m] for m in maps]
        else:
            return Unmatched("not one row space: the reduced dims are not the trailing ones of every op, "
                             "or the ops' extents differ")
        n_in = len(ins)
        if any(tuple(m) != out_dims for m in maps[n_in:]):
            return Unmatched("an op writes its result through a permutation or broadcast")
        operands = []
        for v, m in zip(ins, maps[:n_in]):
            dims = tuple(m)
            if len(set(dims)) != len(dims):
                return Unmatched("an operand is read with a repeated dim")
            if v in space:
                if dims != space[v]:
                    return Unmatched("a value computed in the dispatch is read through another map than it has")
            elif g.binding_of(v) is None:
                return Unmatched("an operand is neither loaded from a binding nor computed by the row's ops")
            elif not _scalar_type_ok(ir.RankedTensorType(v.type).element_type):
                return Unmatched(f"an operand of element type {ir.RankedTensorType(v.type).element_type}")
            if v not in space:
                read_as.setdefault(v, dims)
            operands.append(Operand(v, dims))
        block = op.regions[0].blocks[0]
        best = None
        if op.name == ARG_COMPARE:
            best = arg_best.match_arg_compare(op) if kind == REDUCE else \
                Unmatched("an arg_compare over other dims than the trailing one")
        elif kind == REDUCE and n - k == 1 and loops == tuple(range(n)):
            best = arg_best.match_generic(op, n)
        if isinstance(best, Unmatched):
            return best
        if best and any(operands[i].value in space for i in best.index_inputs):
            return Unmatched("an arg-best reduction whose new index reads a value computed in the dispatch; "
                             "this pass reads it from a loaded input")
        body = [x.operation for x in block.operations]
        gathers = any(b.name == gather.EXTRACT for b in body)
        reads = _table_reads(op, operands, space, g, shape) \
            if gathers and kind == MAP and k == n - 1 and loops == tuple(range(n)) else None
        allowed = _YIELDS + (gather.INDEX,) + ((gather.EXTRACT,) if reads is not None else ())
        if gathers and reads is None or \
                any(len(b.regions) or not (b.name in allowed or b.name.startswith(_BODY_DIALECTS)) for b in body):
            return Unmatched("a body op other than arith, math and linalg.index (or an embedding's table read "
                             "along the row)")
        level = max((ready[o.value] for o in operands if o.value in ready), default=0)
        node = Node(op, ARG_BEST if best else kind, operands, loops if kind != ROW_MAP else out_dims,
                    level, arg_best=best,
                    row_divisors=_row_divisors(block, operands, k) if kind != ROW_MAP else [], reads=reads)
        if kind == REDUCE:
            node.combines = [] if best else combining_ops(op, positions=True) or []
            node.inits = [_initial_value(v) for v in outs]
            if not (node.combines or best) or any(i is None for i in node.inits) or \
                    not all(_scalar_type_ok(c.results[0].type) for c in node.combines):
                return Unmatched("a reduction whose combiner, initial value or type is not one the kernel combines")
        else:
            out_args = list(block.arguments)[n_in:]
            if any(len(list(a.uses)) for a in out_args):
                return Unmatched("an elementwise op reads its own output")
        for r in op.results:
            space[r] = out_dims
            ready[r] = level + (len(best.phases) if best else 1 if kind == REDUCE else 0)
        nodes.append(node)
    if any(node.kind == REDUCE and all(any(shape[d] > 1 or shape[d] < 0 for d in range(n) if d not in o.dims)
                                       for o in node.operands)
           for node in nodes):
        # Every operand broadcast along some dim: a contraction (a matmul's A[m, k] and
        # B[n, k]), whose operands a row-wise kernel would read again for every row. A
        # product of one row (M = 1: a matrix-vector product, BERT's pooler) reads its
        # matrix once: rows of it, the vector a column operand.
        return Unmatched("a reduction of operands that are each broadcast along some dim is a contraction "
                         "(ldsopt-matmul-lds's), not a row reduction")
    full, row = [], []
    for value, binding in g.stores:
        if value not in space:
            return Unmatched("stores a value the row's ops do not compute")
        (full if len(space[value]) == n else row).append((value, binding))
    rows = RowGraph(g, tuple(shape), k, nodes, full, row, {v: space[v] for v, _ in full})
    if rows.strided and any(n.kind == REDUCE and any(any(d >= k for d in o.dims) and
                                                    all(d >= k or shape[d] == 1 for d in o.dims) and
                                                    g.binding_of(o.value) is not None for o in n.operands)
                            for n in nodes):
        # Strided rows reduced with a loaded vector along them (the same for every row, but
        # for unit dims): a matrix-vector product whose matrix holds K outer, which
        # ldsopt-matmul-lds's skinny tiles read in vectors.
        return Unmatched("a product of strided rows with a vector along them is a contraction "
                         "(ldsopt-matmul-lds's), not a row reduction")
    if rows.strided:
        # Lanes on consecutive rows coalesce the tensors contiguous along the rows' last dim,
        # and read those along the row lane by lane. Loads of both kinds, or along a third
        # dim, are better formed apart (a transpose, then rows); a transposed write-back of
        # rows read along memory is not, whichever of the rows' dims it is contiguous along
        # (ConvNeXt's permute back to NCHW after its LayerNorm; MobileViT's folding after its
        # LayerNorm, stored along the rows' first dim, which IREE's own kernel gets wrong).
        loaded = {o.dims[-1] for o in rows.chunk_operands() if len(o.dims) == n}
        stored = {dims[-1] for dims in rows.layouts.values()}
        if len(loaded) > 1 or not loaded <= {k - 1, n - 1} or not stored <= set(range(k)) | {n - 1}:
            return Unmatched("full tensors of the rows lie contiguous along different dims (loads along the "
                             "row and strided, or along another dim)")
    return rows
