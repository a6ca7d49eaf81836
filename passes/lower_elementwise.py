"""ldsopt-lower-elementwise: elementwise dispatches to a vectorized GPU kernel.

Matches a dispatch whose root is an all-parallel `linalg.generic` whose operands each
read the output's fastest dim last or not at all: broadcasts (dims missing), and
permutations that keep the fastest dim (attention's head split and merge, [B,S,H,D] ->
[B,H,S,D], with the bias add IREE fuses into it), on the input or on the output side;
its body must be elementwise-mappable ops (arith, math), or (below) also read positions and
gather rows of tables. Several results are taken when
each is stored whole and all are written in one dim order (a masked score and its boolean
map): the body yields a vector of each at every step. Loops are renumbered in the
outputs' memory order. An operand that reads the fastest dim other than last (transposed
against it) is not matched: it is preload_transposed's; one that does not read it may be
permuted any way (a row statistic read per head and token: a scalar per vector).

The kernel:
- collapses runs of output dims that every operand has or lacks alike, next to each other
  in its memory order (a 64x56x56x128 add becomes 1-D), so vectors run as long as memory
  is contiguous; each operand's view lists its groups in its own memory order;
- splits the innermost collapsed dim into vectors of V elements, V the widest power of
  two that divides it and fits the target's widest load (128 bits; 4 elements on SPIR-V);
- gives each thread one vector per step of a grid-stride loop over all vectors, so any
  size fits under the target's max workgroup count;
- reads each input with an in-bounds `vector.transfer_read` (an input missing the
  innermost dim is loaded as a scalar and broadcast), applies the body to whole vectors,
  writes each result with `vector.transfer_write` (V is the narrowest operand's width).

Operands may be slices of a binding (static sizes, unit strides, offsets static or pushed at
run time as workload ordinals: a fused projection's gate and up, read or written): runs are
not collapsed across a slice's gaps, and V also divides every slice's start and row strides
(and the strides its run-time offsets step by), so each vector starts aligned. An input may
also be read at static steps of a static binding (every second element of a row: GPT-J's
rotary half, `x[..., 1::2]`); a step along the output's fastest dim makes V = 1.

Bodies that read positions (`linalg.index`) or gather (`tensor.extract` of a loaded table, at
indices computed by `arith.index_cast` and arith ops from inputs, positions and other table
reads, chains of any depth: an embedding, `table[ids[i], j]`; eager BERT's token types at load,
`table[ids[pos[i]], j]`), on static shapes (ldsopt/codegen/gather.py says what is matched):
- no dims are collapsed (each loop's position is read);
- per vector, the ops uniform along the fastest dim (the inputs without it, read as scalars,
  their index casts, the positions of the outer loops, the nested table reads) run once, on
  scalars; the rest of the body runs on vectors, those values broadcast, `linalg.index` of the
  fastest dim the lanes' positions;
- a table read whose last index is the fastest loop's position, its other indices uniform, is
  one vector read of V contiguous elements of the table's row (a 128-bit load where V allows,
  its alignment stated on CUDA/HIP); V also divides the tables' row lengths (and a table
  slice's start and strides), so each vector starts aligned, and fits the loads of what is
  read or written as vectors (the tables' rows among them; not the scalar index inputs).
Indices are used as computed, not clamped, as IREE's llvm-cpu lowering loads at them too: an
index out of a table's range is the program's fault. A table read at indices that vary along
the fastest dim otherwise (a scattered gather, a table read down a column: RoPE's rotate_half
of a tensor computed in the program, as Qwen3 and OLMo2 write it after their QK-norm) makes
the kernel scalar: V = 1, the whole body on scalars, each table read one load at its indices
as computed. Refused, with the reason: a `tensor.extract` of anything but a static tensor
loaded from a binding, and such bodies on dynamic extents.

Dynamic extents (`lds-run --keep-dynamic`; whole tensors whose extents are computed from
the dispatch's workload ordinals, bound at any offset: IREE packs a program's transients in
one buffer): the same kernel over extents read at run time. V is chosen at run time, the
widest power of two where the innermost collapsed extent is a multiple of it, else the part
its static dims give (1 for a dynamic row alone): the two loops sit in one `scf.if`, and the
workgroup count is computed in the dispatch_config region from the workload for the plan
the kernel will take, the grid-stride step the workgroups launched (`gpu.grid_dim`). A
dynamic extent not computed from workload ordinals is left to IREE with that reason.

A dispatch of several all-parallel generics (a producer in a loop space of its own read by
its consumer: roberta's position ids and the embedding rows they index) is first fused into
one generic by MLIR's `linalg-fuse-elementwise-ops`, on a copy that replaces the dispatch only
where the one generic is matched here (`_fuse_chain`: the fusion drops IREE's lowering_config).

Left to IREE's own pipeline: a rank-0 output (one element: nothing to vectorize or
distribute), and a dispatch computing in an element type the target does not compute
natively (e.g. i64 without `int64` in its `compute`): IREE emulates those in its own
pipeline, on the ops it knows, not on this kernel's vectors.
"""

from __future__ import annotations

import dataclasses
import functools
import math

from iree.compiler import ir, passmanager
from iree.compiler.dialects import arith, memref, scf, vector

from ldsopt import target as target_model
from ldsopt.codegen import gather
from ldsopt.codegen.dispatch import Binding, Dispatch, analyze, dispatch_funcs, load_binding, slice_layout
from ldsopt.codegen.workload import in_count_region
from ldsopt.codegen.elementwise import (body_refusal, clone_body, collapse_groups, collapsed_view, extent_product,
                                       group_extents, map_dims, slice_alignment, slice_facts)
from ldsopt.ir_types import element_bits
from ldsopt.codegen.kernel import (LOWERED_BY, GridStridePass, Kernel, ceil_div, foreign_types, global_alignment,
                                  launch_count, matched_dispatches, natively_computed, read_vector, write_vector)
from ldsopt.remarks import Unmatched


def elementwise_operand_dims(root: ir.Operation) -> list[list[int]] | Unmatched:
    """Per operand (inputs then outputs), in its memory order, the output dims it reads
    (loops renumbered in the outputs' memory order: an output reads 0, 1, ..., n-1), if
    the root is an elementwise generic whose outputs are written in one order and whose
    operands all have the outputs' fastest dim last or not at all (broadcasts, and
    permutations that keep the fastest dim last; an operand without it, any permutation)."""
    if root.name != "linalg.generic":
        return Unmatched(f"computes with {root.name}")
    iters = [str(a) for a in root.attributes["iterator_types"]]
    if any("parallel" not in it for it in iters):
        return Unmatched("not elementwise: it has reduced loops")
    dims = [map_dims(ir.AffineMapAttr(a).value) for a in root.attributes["indexing_maps"]]
    rank = len(iters)
    outs = dims[len(dims) - len(root.results):]
    if any(d is None or len(set(d)) != len(d) for d in dims) or sorted(outs[0]) != list(range(rank)):
        return Unmatched("an indexing map is not a permutation or projection of the loops")
    if any(o != outs[0] for o in outs):
        return Unmatched("its results are written in different dim orders")
    out = outs[0]
    renamed = [[out.index(x) for x in od] for od in dims]
    fastest = rank - 1
    if any(fastest in od and od[-1] != fastest for od in renamed):
        return Unmatched("an operand is transposed against the output's fastest dim "
                         "(ldsopt-preload-transposed's)")
    return renamed


@dataclasses.dataclass
class _Match:
    dims: list[list[int]]              # elementwise_operand_dims
    reads: gather.TableReads | None    # a body with positions or table reads: what it reads
    scattered: bool = False            # a table read along the fastest dim otherwise: scalars


def _match(d: Dispatch) -> _Match | Unmatched:
    if d.output.tensor_type.rank == 0:
        return Unmatched("a rank-0 output: one element, nothing to vectorize or distribute")
    dims = elementwise_operand_dims(d.root)
    if not dims:
        return dims
    refused = body_refusal(d.root, gathers=True)
    if refused is not None:
        return Unmatched(refused)
    if body_refusal(d.root) is None:
        return _Match(dims, None)
    if not d.output.tensor_type.has_static_shape:
        return Unmatched("its body reads positions or tables (linalg.index, tensor.extract) on dynamic extents; "
                         "this pass takes those bodies on static shapes")
    fastest = len(dims[-1]) - 1
    n_in = len(d.inputs)
    reads = gather.match_reads(d.root, _output_loops(d.root)[fastest], [fastest in od for od in dims[:n_in]],
                               lambda v: _table(v) is not None)
    if reads == gather.SCATTERED:
        return _Match(dims, None, scattered=True)
    return Unmatched(reads) if isinstance(reads, str) else _Match(dims, reads)


_analyze = functools.partial(analyze, slices=True, results=True, dynamic=True, offsets=True, steps=True)
_FUSE = "func.func(linalg-fuse-elementwise-ops)"


def _fuse_chain(func: ir.Operation) -> None:
    """A dispatch of several all-parallel generics (a producer of a loop space of its own read
    by a consumer, as IREE forms roberta's position ids and their embedding) becomes one
    generic by MLIR's elementwise fusion, where that and this pass's match take it: the
    fusion runs on a copy, which replaces the dispatch only then, in types the target computes
    (it drops IREE's lowering_config, which IREE's own pipeline needs); else the dispatch
    stays as it was. A producer read more than once (PVT's position ids, read as rows and as
    columns) is first copied for each read: the fusion takes a producer of one use."""
    d = _analyze(func, ("linalg.generic",))
    roots = [o for o in func.regions[0].blocks[0].operations if o.operation.name == "linalg.generic"]
    if d or "ops fused in one dispatch" not in d.reason or \
            any("reduction" in str(it) for r in roots for it in r.attributes["iterator_types"]):
        return
    fused = func.clone(ir.InsertionPoint(func))
    for op in [o.operation for o in fused.regions[0].blocks[0].operations if o.operation.name == "linalg.generic"]:
        if len(op.results) == 1:
            for use in list(op.results[0].uses)[1:]:
                use.owner.operands[use.operand_number] = op.clone(ir.InsertionPoint(op)).results[0]
    passmanager.PassManager.parse(_FUSE).run(fused.operation)
    d = _analyze(fused, ("linalg.generic",))
    tgt = target_model.of_op(func)
    if d and _match(d) and tgt is not None and not foreign_types([d.root], tgt):
        func.erase()
    else:
        fused.erase()


def _output_loops(root: ir.Operation) -> list[int]:
    """The loops in the outputs' memory order (their renumbering: renamed r is loop out[r])."""
    return map_dims(ir.AffineMapAttr(list(root.attributes["indexing_maps"])[-1]).value)


def _table(value: ir.Value) -> Binding | None:
    """The binding of a table a body reads (`tensor.extract`): a static tensor, or a static
    slice, loaded from one."""
    b = load_binding(value, slices=True)
    return b if b is not None and b.tensor_type.has_static_shape else None


@dataclasses.dataclass(frozen=True)
class LowerElementwise(GridStridePass):
    NAME = "ldsopt-lower-elementwise"
    SUMMARY = ("Lower elementwise dispatches (broadcasts, permutations that keep the fastest dim) to vectorized "
               "grid-stride kernels")

    def run(self, module: ir.Operation) -> None:
        for func in dispatch_funcs(module):
            if LOWERED_BY not in func.attributes:
                _fuse_chain(func)
        matches = matched_dispatches(module, ("linalg.generic",), _match, self, _analyze)
        for d, m, tgt in natively_computed(matches, lambda d: [d.root], self.NAME):
            self._lower(d, m, tgt)

    def _lower(self, d: Dispatch, m: _Match, tgt: target_model.Target) -> None:
        shape, dims, reads = list(d.output.tensor_type.shape), m.dims, m.reads
        breaks, layouts = slice_facts(d.inputs + d.outputs, dims, shape)
        aligned = math.gcd(*map(slice_alignment, layouts))
        tables: dict[ir.Value, Binding] = {}
        if m.scattered:  # each position read, each table element loaded alone
            groups = [[i] for i in range(len(shape))]
            tables = {t: _table(t) for t in (op.operands[0] for op in _extracts(d.root))}
            widest = 1
        elif reads is None:
            groups = collapse_groups(shape, dims, breaks)
            widest = _widest(d.inputs + d.outputs, tgt)
        else:
            # Each loop's position is read (linalg.index, a table's row along the fastest dim):
            # no dims collapsed. Vectors start aligned in every table row read too, and fit the
            # loads of what is read or written as vectors (inputs without the fastest dim are
            # read once per vector, scalars).
            groups = [[i] for i in range(len(shape))]
            tables = {t: _table(t) for t in (x.operands[0] for x in reads.extracts())}
            rows = [tables[x.operands[0]] for x in reads.rows]
            aligned = math.gcd(aligned, *(math.gcd(b.tensor_type.shape[-1], slice_alignment(slice_layout(b)))
                                          for b in rows))
            fastest = len(shape) - 1
            widest = _widest([b for b, od in zip(d.inputs, dims) if fastest in od] + d.outputs + rows, tgt)
        if any(layout and fastest_dims[-1:] == [len(shape) - 1] and layout[1][-1] != 1
               for layout, fastest_dims in zip(layouts, dims)):
            widest = 1  # a slice read at a step along the fastest dim: no two of its elements are adjacent
        wg = self.workgroup_size
        most = self.grid_limit(tgt)
        # Per operand, the collapsed groups it has, in its memory order.
        present = [sorted((i for i, grp in enumerate(groups) if grp[0] in od), key=lambda i: od.index(groups[i][0]))
                   for od in dims]
        if d.output.tensor_type.has_static_shape:
            cshape = group_extents(shape, groups, {}, None)
            # A power of two dividing the row, and the slices' offsets and row strides (aligned vectors).
            v = math.gcd(cshape[-1], aligned, widest)
            n_wg = max(1, min(math.ceil(math.prod(cshape) // v / wg), most))
            k = Kernel(d, tgt, (wg, 1, 1), (n_wg, 1, 1))
            with k.ip, d.location:
                views = [collapsed_view(b.memref(), [groups[i] for i in gs], shape)
                         for b, gs in zip(d.inputs + d.outputs, present)]
                memrefs = {t: b.memref() for t, b in tables.items()}
                read = _Reads(reads, memrefs) if reads is not None else memrefs if m.scattered else None
                _grid_stride(k, d, views, present, groups, cshape, v, _start(k), k.const(n_wg * wg), read=read)
            k.finish(self.NAME)
            return
        # Dynamic extents: vectors of `widest` where the innermost extent is a multiple of it
        # at run time, else of what its static dims give (scalars for a dynamic row alone); a
        # static innermost extent (a dynamic batch of NCHW images) takes the one that divides it.
        dynamic = [i for i, n in enumerate(shape) if ir.ShapedType.is_dynamic_size(n)]
        narrow = math.gcd(math.prod(n for n in (shape[i] for i in groups[-1]) if n >= 0), widest)
        plans = (widest, narrow) if narrow < widest and any(i in dynamic for i in groups[-1]) else (narrow,)

        def workload_grid(workload: list[ir.Value]) -> list[ir.Value]:
            const = functools.cache(lambda value: arith.constant(ir.IndexType.get(), value))
            extents = {i: in_count_region(v, workload) for i, v in zip(dynamic, d.output.dims)}
            cshape = group_extents(shape, groups, extents, const)
            n = extent_product(cshape, const)
            items = _chosen(cshape, plans, lambda v: n if v == 1 else arith.divui(n, const(v)), const)
            return [launch_count(ceil_div(items, wg, const), most, const), const(1), const(1)]

        k = Kernel(d, tgt, (wg, 1, 1), (most, 1, 1), workload_grid)
        with k.ip, d.location:
            views = [collapsed_view(b.memref(), [groups[i] for i in gs], shape)
                     for b, gs in zip(d.inputs + d.outputs, present)]
            cshape = group_extents(shape, groups, dict(zip(dynamic, d.output.dims)), k.const)
            start, step = _start(k), arith.muli(k.grid_dim(), k.const(wg))
            if len(plans) == 1:
                _grid_stride(k, d, views, present, groups, cshape, plans[0], start, step, aligned=True)
            else:
                whole = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(cshape[-1], k.const(widest)), k.const(0))
                branch = scf.IfOp(whole, [], has_else=True)
                for block, v in zip((branch.then_block, branch.else_block), plans):
                    with ir.InsertionPoint(block):
                        _grid_stride(k, d, views, present, groups, cshape, v, start, step, aligned=True)
                        scf.yield_([])
        k.finish(self.NAME)


def _widest(bindings: list[Binding], tgt: target_model.Target) -> int:
    """The widest power of two of elements that fits the target's widest load of each of
    `bindings`' element types."""
    vmax = min(tgt.vector_elems(element_bits(b.tensor_type.element_type)) for b in bindings)
    return 1 << (vmax.bit_length() - 1)


def _start(k: Kernel) -> ir.Value:
    """This thread's first item: its index in the grid."""
    return arith.addi(arith.muli(k.block_id(), k.const(k.workgroup_size[0])), k.thread_id())


def _chosen(cshape: list, plans: tuple[int, ...], of, const) -> ir.Value:
    """`of(v)` of the plan the kernel runs: the first of `plans` where the innermost extent
    is a multiple of it (the last otherwise), chosen at run time."""
    value = of(plans[-1])
    for v in reversed(plans[:-1]):
        whole = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(cshape[-1], const(v)), const(0))
        value = arith.select(whole, of(v), value)
    return value


def _extracts(root: ir.Operation) -> list[ir.Operation]:
    """The body's table reads."""
    return [o.operation for o in root.regions[0].blocks[0].operations if o.operation.name == gather.EXTRACT]


@dataclasses.dataclass
class _Reads:
    """A body's positions and table reads (gather.py), with each table's memref."""

    reads: gather.TableReads
    tables: dict[ir.Value, ir.Value]


def _grid_stride(k: Kernel, d: Dispatch, views: list[ir.Value], present: list[list[int]],
                 groups: list[list[int]], cshape: list, v: int, start: ir.Value, step: ir.Value,
                 aligned: bool = False, read: _Reads | dict | None = None) -> None:
    """The grid-stride loop over vectors of `v` elements (`v` divides the innermost extent),
    each thread one vector a step from `start`: reads, the body on vectors, writes.
    `aligned` (dynamic extents): `v` divides the innermost extent, which the compiler cannot
    see (CUDA/HIP would split the accesses): their alignment, their own size, is stated.
    `read` (a body with positions or table reads; no dims collapsed): `_gathered`; or each
    table's memref (scattered reads, v = 1): the body on scalars, `_scalar_body`."""
    def align(vtype: ir.VectorType) -> int:
        return vtype.shape[0] * element_bits(vtype.element_type) // 8 if aligned and k.target.backend != "vulkan" else 0

    as_value = lambda e: k.const(e) if isinstance(e, int) else e  # noqa: E731
    chunks = cshape[-1] if v == 1 else cshape[-1] // v if isinstance(cshape[-1], int) else \
        arith.divui(cshape[-1], k.const(v))
    items = extent_product([chunks, *cshape[:-1]], k.const)
    loop = scf.ForOp(start, items, step)
    with ir.InsertionPoint(loop.body):
        g = loop.induction_variable
        col = g if len(cshape) == 1 else arith.remui(g, as_value(chunks))
        idx = [col if v == 1 else arith.muli(col, k.const(v))]
        rest = arith.divui(g, as_value(chunks))
        for i, size in enumerate(reversed(cshape[:-1])):
            if i == len(cshape) - 2:  # the outermost dim needs no remainder: g < items
                idx.insert(0, rest)
            else:
                idx.insert(0, arith.remui(rest, as_value(size)))
                rest = arith.divui(rest, as_value(size))
        values = []
        for b, gs, view in zip(d.inputs, present, views):
            vi = [idx[i] for i in gs]
            vtype = ir.VectorType.get([v], b.tensor_type.element_type)
            if gs and gs[-1] == len(groups) - 1:
                values.append(read_vector(vtype, view, vi, align(vtype)))
            else:  # read once; broadcast, or (`read`) kept a scalar for the body's uniform ops
                scalar = memref.load(view, vi)
                values.append(scalar if read else vector.broadcast(vtype, scalar))
        if isinstance(read, dict):
            for result, view in zip(_scalar_body(d, read, values, idx), views[len(d.inputs):]):
                memref.store(result, view, idx)
            scf.yield_([])
            return
        results = _gathered(k, d, read, values, idx, v) if read else clone_body(d.root, values, v)
        for result, view in zip(results, views[len(d.inputs):]):
            write_vector(result, view, idx, align(ir.VectorType(result.type)))
        scf.yield_([])


def _scalar_body(d: Dispatch, tables: dict, values: list[ir.Value], idx: list[ir.Value]) -> list[ir.Value]:
    """The body's results at the element at `idx` (each loop's position, in the outputs'
    memory order), on scalars: `linalg.index` the positions, each table read a load."""
    loops = _output_loops(d.root)
    block = d.root.regions[0].blocks[0]
    positions = {op.results[0]: idx[loops.index(ir.IntegerAttr(op.attributes["dim"]).value)]
                 for op in (o.operation for o in block.operations) if op.name == "linalg.index"}
    scalars = [vector.extract(x, [], [0]) if isinstance(x.type, ir.VectorType) else x for x in values]
    return clone_body(d.root, scalars, None, positions, loads=tables)


def _gathered(k: Kernel, d: Dispatch, read: _Reads, values: list[ir.Value], idx: list[ir.Value],
              v: int) -> list[ir.Value]:
    """The body's results at the vector at `idx` (each loop's position, in the outputs' memory
    order) where it reads positions or tables: its uniform ops once, on scalars (the inputs
    without the fastest dim, `values`' scalars, among them), then the rest on vectors, each
    table row one vector read from the vector's first position."""
    loops, fastest = _output_loops(d.root), len(idx) - 1
    is_vector = [isinstance(x.type, ir.VectorType) for x in values]
    scalars = gather.hoist(read.reads, d.root, [None if vec else x for x, vec in zip(values, is_vector)],
                           {loops[r]: idx[r] for r in range(fastest)},
                           lambda x, at: memref.load(read.tables[x.operands[0]], at))

    def read_row(x: ir.Operation, at: list[ir.Value]) -> ir.Value:
        table = read.tables[x.operands[0]]
        vtype = ir.VectorType.get([v], ir.MemRefType(table.type).element_type)
        return read_vector(vtype, table, at + [idx[fastest]], global_alignment(table, v, k.target.backend))

    mapping = gather.vector_mapping(read.reads, d.root, scalars, [x if vec else None for x, vec in zip(values, is_vector)],
                                    v, read_row, lambda: gather.lane_positions(idx[fastest], v, ir.IndexType.get()))
    return clone_body(d.root, [], v, mapping)
