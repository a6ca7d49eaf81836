"""Turning a dispatch function into a GPU-level kernel that IREE lowers as written.

A strategy pass builds thread-level code (memref bindings, `gpu.thread_id`, `vector`
ops, workgroup memory, barriers) in front of the dispatch's terminator, then calls
`Kernel.finish`, which
- erases the tensor-level ops the kernel replaced,
- sets `translation_info` to IREE's BaseLowering pipeline with the chosen workgroup size,
- makes the `iree_codegen.dispatch_config` region yield the chosen workgroup count (a fixed
  one, or for dynamic shapes one computed there from the dispatch's workload, `workload_grid`),
- records the pass in the function's `ldsopt.lowered_by` list, which the tools report,
- on CUDA, given workgroups that must be resident per SM, sets `nvvm.minctasm` on the
  function (IREE carries it to the llvm.func, PTX `.minnctapersm N`) so that ptxas keeps
  registers low enough for them: a kernel whose registers let fewer workgroups in than its
  LDS does loses the latency hiding it was planned for;
- refuses a kernel whose loops iterate more often per thread than the target runs loops
  (`Target.max_loop_iterations`: lavapipe ends them silently past 65535), a PassError at the
  dispatch rather than a kernel that leaves outputs unwritten.
Its workgroup memory comes from `lds_alloc`, which states every buffer's alignment.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, llvm, memref, vector

from ldsopt import remarks
from ldsopt.layout import index_expr
from ldsopt import target as target_model
from ldsopt.codegen.binding_view import binding_view
from ldsopt.codegen.dispatch import Dispatch, Graph, analyze, dispatch_funcs, erase_unused
from ldsopt.ir_types import element_bits
from ldsopt.registry import ModulePass, PassError, option
from ldsopt.target import Target

LOWERED_BY = "ldsopt.lowered_by"
# On a kernel's func: per LDS buffer whose accesses a pass planned with the bank model, the
# extra LDS cycles its planner priced for the first wave's stores and reads
# (`{A = {reads = 0, stores = 0}, ...}`), for tools to show without planning again.
BANK_CONFLICTS = "ldsopt.bank_conflicts"
# On an op of a program whose lowering config the user wrote (lds-run and lds-bench put it
# there before IREE configures the program): IREE's configuration turns a user's
# compilation_info into the same lowering_config it writes for its own choices.
USER_CONFIG = "ldsopt.user_config"


@dataclasses.dataclass(frozen=True)
class GridStridePass(ModulePass):
    """The options of a pass whose kernels cover their work items with a grid-stride loop: the
    threads of a workgroup, and the most workgroups of the grid (a subclass may redeclare
    `workgroup_size` with its own default and meaning)."""

    workgroup_size: int = option(256, "threads per workgroup", min=1, at_most="max_threads")
    max_workgroups: int = option(65535, "workgroups at most (a grid-stride loop covers the rest)", min=1)

    def grid_limit(self, tgt: Target) -> int:
        """The most workgroups a kernel's grid may have: the option's, within the target's."""
        return min(self.max_workgroups, tgt.max_workgroup_counts[0])

    def workgroups(self, items: int, tgt: Target, threads: int | None = None) -> int:
        """Workgroups for `items` work items, one a thread of `threads` (`workgroup_size` by
        default; at least one)."""
        return max(1, min(math.ceil(items / (threads or self.workgroup_size)), self.grid_limit(tgt)))

    def spread(self, items: int, tgt: Target) -> tuple[int, int]:
        """(threads, workgroups) for `items` work items, one a thread: `workgroup_size` threads,
        halved while the grid would leave some of the target's compute units without a
        workgroup (down to two subgroups a workgroup), for kernels whose threads each run a
        long serial chain (a window's points): every SM or CU then runs some."""
        wg, least = self.workgroup_size, 2 * tgt.subgroup_size
        while tgt.compute_units and wg % 2 == 0 and wg // 2 >= least and \
                math.ceil(items / wg) < tgt.compute_units:
            wg //= 2
        return wg, self.workgroups(items, tgt, wg)


def natively_computed(matches, ops, pass_name: str):
    """The (dispatch, match, target) of `matches` (matched_dispatches') whose `ops(dispatch)`
    compute in types the target computes natively (`foreign_types`); for the others a remark of
    `pass_name` says which type, and the dispatch stays IREE's."""
    for d, m, tgt in matches:
        foreign = foreign_types(ops(d), tgt)
        if foreign:
            remarks.missed(d.func, pass_name, foreign)
        else:
            yield d, m, tgt


def matched_dispatches(module: ir.Operation, roots: tuple[str, ...], match, by: ModulePass | str,
                       analyzer=analyze):
    """(dispatch, match(dispatch), target) for each dispatch no pass has lowered yet that
    `analyzer` (ldsopt.dispatch.analyze: one root among `roots`; analyze_graph: any number)
    reads and `match` accepts; the loop every strategy pass starts with. Where the analyzer
    or `match` declines (an `Unmatched`, or None), the reason is recorded for the remarks
    (a later loop of the same pass replaces it). A matched dispatch without a GPU target is
    an error, and so is an option of the pass `by` (or a pass name, for reports) past a
    limit of the target."""
    pass_name = by if isinstance(by, str) else by.NAME
    for func in dispatch_funcs(module):
        if LOWERED_BY in func.attributes:
            continue
        d = analyzer(func, roots)
        m = match(d) if d else d
        if not m:
            remarks.missed(func, pass_name, m.reason if isinstance(m, remarks.Unmatched)
                           else "the dispatch is not of this pass's pattern")
            continue
        tgt = target_model.of_op(func)
        if tgt is None:
            raise PassError(func.location, f"{pass_name}: no GPU target for this dispatch "
                            "(no #iree_gpu.target around it; lds-opt --target names one)")
        if not isinstance(by, str):
            by.check_target(tgt, func.location)
        yield d, m, tgt


def foreign_types(ops: list[ir.Operation], tgt: target_model.Target) -> str | None:
    """Why a kernel of `ops` (linalg ops: their operands' and results' element types and their
    bodies' values) would compute in element types the target does not compute natively
    (e.g. i64 without `int64` in its `compute`), or None. IREE emulates those in its own
    pipeline, on the ops it knows, not on a kernel's vectors."""
    types = set()
    for op in ops:
        for v in list(op.operands) + list(op.results):
            if isinstance(v.type, ir.ShapedType):
                types.add(str(ir.ShapedType(v.type).element_type))
        for region in op.regions:
            for block in region.blocks:
                types.update(str(r.type) for o in block.operations for r in o.results)
    foreign = sorted(t for t in types if not tgt.computes(t))
    return f"computes in {', '.join(foreign)}, which the target does not compute natively (IREE emulates it)" \
        if foreign else None


class Kernel:
    def __init__(self, dispatch: Dispatch | Graph, target: Target, workgroup_size: tuple[int, int, int],
                 grid: tuple[int, int, int], workload_grid=None):
        """`grid`: the workgroup count, or with `workload_grid` a bound of it; `workload_grid`
        (dynamic shapes): a function that, given the workload (the count region's arguments
        after the device: one index a workload ordinal), emits the three counts there."""
        for g, limit in zip(grid, target.max_workgroup_counts):
            if g > limit:
                raise ValueError(f"grid {grid} exceeds the target's max workgroup counts")
        self.dispatch = dispatch
        self.target = target
        self.workgroup_size = workgroup_size
        self.grid = grid
        self.workload_grid = workload_grid
        self._consts: dict[tuple[int, str], ir.Value] = {}
        self._last_fits: dict[tuple[ir.Value, int], ir.Value] = {}
        self._conflicts: dict[str, tuple[int, int]] = {}
        block = dispatch.func.regions[0].blocks[0]
        self.ip = ir.InsertionPoint(list(block.operations)[-1])  # kernel code: before the return
        self._const_ip = ir.InsertionPoint.at_block_begin(block)  # constants dominate it all

    def const(self, value: int, type_: ir.Type | None = None) -> ir.Value:
        """An index (or `type_`) constant, made once."""
        type_ = type_ or ir.IndexType.get()
        key = (value, str(type_))
        if key not in self._consts:
            with self._const_ip:
                self._consts[key] = arith.constant(type_, value)
        return self._consts[key]

    def last_fit(self, extent: int | ir.Value, n: int = 1) -> ir.Value:
        """The largest index at which `n` elements fit in `extent`, which copies and reads clamp
        their indices to: a constant, or for a run-time extent max(extent, n) - n, made once
        right after its value (so that it dominates every use); an extent under n clamps to 0
        rather than wrapping around to the top of the index range."""
        if isinstance(extent, int):
            return self.const(extent - n)
        if (extent, n) not in self._last_fits:
            with ir.InsertionPoint.after(extent.owner), extent.owner.location:
                self._last_fits[extent, n] = arith.subi(arith.maxui(extent, self.const(n)), self.const(n))
        return self._last_fits[extent, n]

    def index(self, exprs: list[index_expr.Expr], **env: ir.Value) -> list[ir.Value]:
        """The index expressions `exprs` (a map of ldsopt.layout's) emitted at the insertion
        point, their variables given by `env`."""
        return index_expr.emit(exprs, env, self.const)

    def thread_id(self, dim: str = "x") -> ir.Value:
        return gpu.thread_id(getattr(gpu.Dimension, dim), upper_bound=self.workgroup_size["xyz".index(dim)])

    def block_id(self, dim: str = "x") -> ir.Value:
        return gpu.block_id(getattr(gpu.Dimension, dim), upper_bound=self.grid["xyz".index(dim)])

    def grid_dim(self, dim: str = "x") -> ir.Value:
        """The workgroup count launched along `dim` (for a count computed at run time)."""
        return gpu.grid_dim(getattr(gpu.Dimension, dim), upper_bound=self.grid["xyz".index(dim)])

    def delinearize(self, index: ir.Value, sizes: list[int | ir.Value]) -> list[ir.Value]:
        """Row-major coordinates of `index` (< prod(sizes)) in a space of `sizes` (ints, or
        index values where dynamic)."""
        coords = []
        for i, size in enumerate(reversed(sizes)):
            size = self.const(size) if isinstance(size, int) else size
            if i == len(sizes) - 1:  # the outermost coordinate needs no remainder
                coords.insert(0, index)
            else:
                coords.insert(0, arith.remui(index, size))
                index = arith.divui(index, size)
        return coords

    def shuffle_xor(self, value: ir.Value, offset: int) -> ir.Value:
        """`value` of the lane whose id is this lane's xor `offset`."""
        return self._shuffle(value, self.const(offset, ir.IntegerType.get_signless(32)), gpu.ShuffleMode.XOR)

    def shuffle_from(self, value: ir.Value, lane: ir.Value) -> ir.Value:
        """`value` of lane `lane` (an index below the subgroup size)."""
        i32 = ir.IntegerType.get_signless(32)
        return self._shuffle(value, arith.index_cast(i32, lane), gpu.ShuffleMode.IDX)

    def _shuffle(self, value: ir.Value, operand: ir.Value, mode) -> ir.Value:
        """A `gpu.shuffle` of `value` in `mode`. Values narrower than 32 bits travel as i32: the
        shuffle lowerings of CUDA and SPIR-V want 32-bit words."""
        width = self.const(self.target.subgroup_size, ir.IntegerType.get_signless(32))
        bits = element_bits(value.type)
        if bits >= 32:
            return gpu.shuffle(value, operand, width, mode)[0]
        as_int = value if isinstance(value.type, ir.IntegerType) else \
            arith.bitcast(ir.IntegerType.get_signless(bits), value)
        word = arith.extui(ir.IntegerType.get_signless(32), as_int)
        back = arith.trunci(as_int.type, gpu.shuffle(word, operand, width, mode)[0])
        return back if back.type == value.type else arith.bitcast(value.type, back)

    def butterfly(self, value: ir.Value, offsets: list[int], combine) -> ir.Value:
        """Combines `value` over the lanes that differ only in the bits of `offsets`; every
        such lane ends with the same result. All lanes of the subgroup must execute it."""
        for offset in offsets:
            value = combine(value, self.shuffle_xor(value, offset))
        return value

    def record_bank_conflicts(self, buffer: str, stores: int, reads: int) -> None:
        """Records, for `finish` to put on the func (BANK_CONFLICTS), the bank model's extra
        cycles of LDS buffer `buffer`'s stores and reads, as the pass's planner priced them."""
        self._conflicts[buffer] = (stores, reads)

    def finish(self, pass_name: str, workgroups_per_cu: int = 1) -> None:
        func = self.dispatch.func
        limit = self.target.max_loop_iterations
        iterations = loop_iterations(func.regions[0]) if limit is not None else 0
        if limit is not None and iterations > limit:
            raise PassError(func.location, f"{pass_name}: the kernel's loops take up to {iterations} iterations per "
                                           f"thread, more than {self.target.name} runs ({limit}; it ends a shader's "
                                           "loops there, leaving outputs unwritten): give it more threads or "
                                           "workgroups (options workgroup-size, max-workgroups)")
        if workgroups_per_cu > 1 and self.target.backend == "cuda":
            func.attributes["nvvm.minctasm"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), workgroups_per_cu)
        erase_unused(self.dispatch.body_ops)
        wg = ", ".join(map(str, self.workgroup_size))
        func.attributes["translation_info"] = ir.Attribute.parse(
            f"#iree_codegen.translation_info<pipeline = {self.target.pipeline_attr} "
            f"workgroup_size = [{wg}] subgroup_size = {self.target.subgroup_size}>")
        done = [ir.StringAttr(a).value for a in func.attributes[LOWERED_BY]] if LOWERED_BY in func.attributes else []
        func.attributes[LOWERED_BY] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in done + [pass_name]])
        remarks.lowered(func, pass_name)
        if self._conflicts:
            func.attributes[BANK_CONFLICTS] = ir.Attribute.parse("{" + ", ".join(
                f'"{b}" = {{stores = {s}, reads = {r}}}' for b, (s, r) in sorted(self._conflicts.items())) + "}")
        _set_workgroup_count(func, self.grid, self.workload_grid)


def recorded_bank_conflicts(func: ir.Operation) -> dict[str, dict[str, int]]:
    """BANK_CONFLICTS of a lowered func: {buffer: {"stores": n, "reads": n}}; {} where no
    planner recorded any."""
    if BANK_CONFLICTS not in func.attributes:
        return {}
    return {a.name: {k: ir.IntegerAttr(ir.DictAttr(a.attr)[k]).value for k in ("stores", "reads")}
            for a in ir.DictAttr(func.attributes[BANK_CONFLICTS])}


def loop_iterations(region: ir.Region) -> int:
    """An upper bound on the loop iterations one thread runs in `region`, all loops together
    (inner loops once per outer iteration): an `scf.for` with constant bounds and step runs
    at most ceil((ub - lb) / step) times, a lower bound that is not constant (a thread or
    block id) taken as 0; both branches of an `scf.if` are counted. Loops of other bounds
    are not counted."""
    total = 0
    for block in region.blocks:
        for op in block.operations:
            op = op.operation
            inner = sum(loop_iterations(r) for r in op.regions)
            if op.name == "scf.for":
                lb, ub, step = (_constant(v) for v in list(op.operands)[:3])
                trips = -(-(ub - (lb or 0)) // step) if ub is not None and step else 0
                total += max(trips, 0) * (1 + inner)
            else:
                total += inner
    return total


def _constant(value: ir.Value) -> int | None:
    owner = value.owner
    op = owner.operation if isinstance(owner, ir.OpView) else owner
    if isinstance(op, ir.Operation) and op.name == "arith.constant":
        return ir.IntegerAttr(op.attributes["value"]).value
    return None


def _set_workgroup_count(func: ir.Operation, grid: tuple[int, int, int], workload_grid=None) -> None:
    """Makes the dispatch_config of `func` (if it has one) yield `grid`, or what
    `workload_grid` computes from its workload arguments."""
    name = ir.StringAttr(func.attributes["sym_name"]).value
    for op in func.parent.regions[0].blocks[0].operations:
        op = op.operation
        if op.name != "iree_codegen.dispatch_config" or ir.FlatSymbolRefAttr(op.attributes["function_ref"]).value != name:
            continue
        block = op.regions[0].blocks[0]
        old = list(block.operations)
        with ir.InsertionPoint(old[0]), op.location:
            counts = list(workload_grid(list(block.arguments)[1:])) if workload_grid else \
                [arith.constant(ir.IndexType.get(), g) for g in grid]
            ir.Operation.create("iree_codegen.yield", operands=counts)
        for o in reversed(old):
            o.erase()


def ceil_div(x: ir.Value, d: int, const) -> ir.Value:
    """ceil(x / d) of an index value `x` (constants made by `const`): a count of `d`-sized tiles."""
    return arith.divui(arith.addi(x, const(d - 1)), const(d))


def launch_count(count: ir.Value, most: int, const) -> ir.Value:
    """A workgroup count computed at run time, kept within what the kernel states as its bound
    (`most`) and at least 1 (a dispatch of no workgroups is not launched)."""
    return arith.maxui(arith.minui(count, const(most)), const(1))


def _minor_identity(rank: int, vrank: int) -> ir.AffineMap:
    return ir.AffineMap.get_minor_identity(rank, vrank)


def read_vector(vtype: ir.VectorType, buf: ir.Value, indices: list[ir.Value], align: int = 0) -> ir.Value:
    """An in-bounds read of `vtype` along the innermost dims of `buf`.

    Transfers rather than vector.load: IREE's SPIR-V memref flattening handles transfers
    on N-D bindings but left a vector.store unconverted. `align` > 0 (bytes; not on SPIR-V):
    a `vector.load` that states it, for an index whose alignment LLVM cannot see (a swizzled
    LDS column, a dynamic buffer index), where CUDA would otherwise split the read."""
    if align and vtype.shape[0] > 1:
        return vector.load(vtype, buf, indices, alignment=align)
    rank = ir.MemRefType(buf.type).rank
    etype = ir.MemRefType(buf.type).element_type
    pad = arith.constant(etype, 0.0 if isinstance(etype, ir.FloatType) else 0)
    vrank = len(vtype.shape)
    return vector.transfer_read(vtype, buf, indices, _minor_identity(rank, vrank), pad, [True] * vrank)


class L1Prefetch:
    """CUDA's `prefetch.global.L1` of elements of global memref `buf`: made once where the
    memref's base address (and strides and offset, unless static) are read, called for each
    element (in a loop, say). Inline PTX: IREE 3.13's LLVM selects `nvvm.prefetch` only for
    sm_90 (our CUDA target is sm_89 PTX), and at sm_90 the read-only intrinsic was dropped as
    dead (no instruction in the PTX)."""

    def __init__(self, buf: ir.Value):
        mtype = ir.MemRefType(buf.type)
        self.elem_bytes = element_bits(mtype.element_type) // 8
        strides, offset = mtype.get_strides_and_offset()
        if any(mtype.is_dynamic_stride_or_offset(x) for x in (*strides, offset)):
            meta = memref.ExtractStridedMetadataOp(buf)
            self.offset, self.strides = meta.offset, list(meta.strides)
            buf = meta.base_buffer
        else:
            self.offset, self.strides = offset, strides
        self.base = memref.extract_aligned_pointer_as_index(buf)

    def __call__(self, indices: list[ir.Value]) -> None:
        def bytes_of(elements: int | ir.Value) -> ir.Value:
            if isinstance(elements, int):
                return _index(elements * self.elem_bytes)
            return arith.muli(elements, _index(self.elem_bytes))

        offset = bytes_of(self.offset)
        for x, stride in zip(indices, self.strides):
            offset = arith.addi(offset, arith.muli(x, bytes_of(stride)))
        address = arith.addi(self.base, offset)
        pointer = llvm.inttoptr(ir.Type.parse("!llvm.ptr<1>"), arith.index_cast(ir.IntegerType.get_signless(64), address))
        llvm.inline_asm(None, [pointer], "prefetch.global.L1 [$0];", "l", has_side_effects=True)


def _index(value: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), value)


# Bytes an LDS buffer starts at a multiple of, at least: the widest vector access of any target.
LDS_ALIGNMENT = 16


def lds_alloc(shape: list[int], elem: ir.Type, alignment: int = LDS_ALIGNMENT) -> ir.Value:
    """A workgroup-memory (LDS) buffer of `shape` x `elem` starting at a multiple of `alignment`
    bytes. IREE packs a kernel's LDS buffers one after the other, each at the alignment its alloc
    states and no more: a buffer that 16-byte vectors read must say so, whatever lies before it
    (an output stage placed 8 bytes off after 3 mbarriers hung, bench/results/cuda-matmul/stages3-hang/)."""
    mtype = ir.MemRefType.get(shape, elem, memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>"))
    return memref.AllocOp(mtype, [], [], alignment=alignment).result


def global_alignment(buf: ir.Value, n: int, backend: str) -> int:
    """Bytes of alignment of an access of `n` elements to memref `buf` whose index along the
    last dim is a multiple of `n` (0: none stated; SPIR-V, scalars, a start or stride not
    known, or no more than an element's own alignment): what the binding's base (its
    subspan's `alignment` and constant offset), the view's start in it (a slice's static
    offsets, and the strides its run-time offsets step by), its row strides and the access's
    own size all divide. `buf` is a binding or one subview of one (`binding_view`), or a
    `memref.collapse_shape` of one (which keeps its start). Stated on a `vector.load`/`store`,
    it keeps LLVM from splitting a read or write whose address it cannot prove aligned (CUDA
    split a vector<2xf16> at a dynamic column into two 16-bit accesses)."""
    if backend == "vulkan" or n == 1:
        return 0
    mtype = ir.MemRefType(buf.type)
    strides, _ = mtype.get_strides_and_offset()
    if not strides or strides[-1] != 1 or any(mtype.is_dynamic_stride_or_offset(s) for s in strides):
        return 0
    source = buf
    while isinstance(source, ir.OpResult) and source.owner.name == "memref.collapse_shape":
        source = source.owner.operands[0]
    view = binding_view(source)
    if not view:
        return 0
    elem_bytes = element_bits(mtype.element_type) // 8
    steps = [*strides[:-1], view.offset, *(stride for _, stride in view.dynamic)]  # run-time offsets step by theirs
    align = math.gcd(n * elem_bytes, view.base_align, *(s * elem_bytes for s in steps if s))
    return align if align > elem_bytes else 0


def transposed(rows: list[ir.Value]) -> list[ir.Value]:
    """The columns of the register tile whose rows are the vectors `rows`: one
    `vector.transpose` of the tile (seed 002's in-thread transpose; for 16-bit elements gfx942
    packs the columns with v_perm_b32)."""
    width = ir.VectorType(rows[0].type).shape[0]
    elem = ir.VectorType(rows[0].type).element_type
    zero = arith.constant(elem, 0 if isinstance(elem, ir.IntegerType) else 0.0)
    tile = vector.broadcast(ir.VectorType.get([len(rows), width], elem), zero)
    for i, row in enumerate(rows):
        tile = vector.insert(row, tile, [], [i])
    columns = vector.transpose(ir.VectorType.get([width, len(rows)], elem), tile, [1, 0])
    return [vector.extract(columns, [], [j]) for j in range(width)]


def write_vector(value: ir.Value, buf: ir.Value, indices: list[ir.Value], align: int = 0) -> None:
    """An in-bounds write of `value` along the innermost dims of `buf` (`align`: as read_vector's)."""
    if align and ir.VectorType(value.type).shape[0] > 1:
        vector.store(value, buf, indices, alignment=align)
        return
    rank = ir.MemRefType(buf.type).rank
    vrank = len(ir.VectorType(value.type).shape)
    vector.transfer_write(None, value, buf, indices, _minor_identity(rank, vrank), [True] * vrank)
