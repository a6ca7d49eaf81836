"""What a dispatch function computes, in terms the strategy passes can match on.

After `iree-compile --compile-to=executable-configurations` each dispatch is a
`func.func` with no arguments: bindings (`hal.interface.binding.subspan`), whole-tensor
loads of them, one linalg computation, and whole-tensor stores. Two spellings exist in
IREE 3.13: on CUDA/HIP the bindings are memrefs read by `iree_codegen.load_from_buffer`
(through `amdgpu.fat_raw_buffer_cast` on HIP); on Vulkan they are
`!iree_tensor_ext.dispatch.tensor` read by `iree_tensor_ext.dispatch.tensor.load`.
`analyze` (one root op) and `analyze_graph` (any number of linalg ops, as IREE fuses a
softmax or a LayerNorm into one dispatch) hide the difference: each operand becomes a
`Binding` whose `memref()` gives a memref value a kernel can load from and store to.
A pass that takes sub-tensors of a binding (`analyze(..., slices=True)`, `analyze_graph`'s
alike: static offsets, unit strides and sizes (or dynamic extents, below), as a packed QKV)
gets them as Bindings too: on CUDA/HIP IREE already spells them as a `memref.subview` loaded
or stored whole, on Vulkan `memref()` builds the same subview of the binding. A dispatch that
loads a slice the pass does not take is refused for that, before the ops computing its
offsets are looked at.
A pass that takes dynamic shapes (`analyze(..., dynamic=True)`) gets whole tensors whose
extents are read at run time: each such extent is a workload ordinal of the dispatch
(`iree_tensor_ext.dispatch.workload.ordinal`, its value pushed as constants) or an
`affine.apply` of them (CUDA/HIP: IREE binds a flat buffer and `memref.expand_shape`s it,
`?x4` as `[s0 floordiv 4, 4]`), which the Binding lists in `dims`; the workgroup count
region, which receives the workload as its arguments, recomputes them (codegen/workload.py).
Any other dynamic extent stays unmatched. The ops that only set up operands (constants, the
bindings' offsets, pushed scalars) are passed over: codegen/plumbing.py.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Callable

from iree.compiler import ir

from ldsopt.codegen.binding_view import row_alignment
from ldsopt.codegen.plumbing import SHAPING, is_plumbing
from ldsopt.codegen.workload import from_workload
from ldsopt.remarks import Unmatched

_DISPATCH_TENSOR = re.compile(r"!iree_tensor_ext\.dispatch\.tensor<(readonly|writeonly|readwrite):(tensor<.*>)>")


@dataclasses.dataclass
class Slice:
    """A sub-tensor of a bound tensor (dims of size 1 dropped where the loaded tensor's rank is
    less than the bound one's), at offsets and of sizes (also the Binding's `dims`) that may be
    read at run time (index values, defined before `at`), every `steps[d]`-th element of dim d
    (static; unit steps but where a pass takes them: `analyze(steps=True)`)."""

    bound_type: ir.RankedTensorType
    offsets: list[int | ir.Value]
    sizes: list[int | ir.Value]
    at: ir.Operation | None = None
    steps: list[int] | None = None  # None: all 1


@dataclasses.dataclass
class Binding:
    """One whole-tensor operand of the dispatch, or a `Slice` of one (Vulkan)."""

    tensor_type: ir.RankedTensorType
    source: ir.Value  # a memref value, or a dispatch-tensor binding (Vulkan)
    slice: Slice | None = None
    dims: list[ir.Value] = dataclasses.field(default_factory=list)  # the dynamic extents, in order

    @property
    def is_slice(self) -> bool:
        """Part of its binding: a Slice (Vulkan), or a `memref.subview` of the binding (CUDA/HIP,
        and a Vulkan slice once `memref()` has viewed it)."""
        return self.slice is not None or \
            isinstance(self.source, ir.OpResult) and self.source.owner.name == "memref.subview"

    def aligned_run(self, run: int, steps: Callable[[list[int]], list[int]] | None = None) -> int:
        """The longest divisor of `run` (elements contiguous in memory) that each run's start is
        aligned to (`binding_view.row_alignment`, with its `steps`): vectors along the run must
        divide it."""
        return math.gcd(run, row_alignment(self.source, self.tensor_type, self.slice, run, steps))

    def memref(self) -> ir.Value:
        """A memref over the binding (the slice's subview); built next to the binding the
        first time (Vulkan)."""
        if isinstance(self.source.type, ir.MemRefType):
            return self.source
        whole = self._whole_memref(self.slice.bound_type if self.slice else self.tensor_type)
        if self.slice is not None:
            # at the load or store where an offset is computed in the dispatch (it dominates it)
            moving = any(isinstance(o, ir.Value) for o in self.slice.offsets + self.slice.sizes)
            with ir.InsertionPoint(self.slice.at) if moving else ir.InsertionPoint.after(whole.owner), \
                    whole.owner.location:
                whole = _subview(whole, self.slice, self.tensor_type)
        self.source = whole
        return self.source

    def _whole_memref(self, tensor_type: ir.RankedTensorType) -> ir.Value:
        subspan = self.source.owner
        shape = tensor_type.shape
        layout = None
        if not _is_zero(subspan.operands[0]):
            # A binding at an offset (e.g. two results in one buffer): as IREE types it on
            # CUDA/HIP, contiguous strides with a dynamic offset (strides dynamic from the
            # innermost dynamic extent out).
            dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
            strides = [dynamic if any(n < 0 for n in shape[i + 1:]) else math.prod(shape[i + 1:])
                       for i in range(len(shape))]
            layout = ir.StridedLayoutAttr.get(dynamic, strides)
        mtype = ir.MemRefType.get(shape, tensor_type.element_type, layout=layout,
                                  memory_space=ir.Attribute.parse("#hal.descriptor_type<storage_buffer>"))
        attrs = dict(subspan.attributes.items())
        with ir.InsertionPoint(subspan), subspan.location:
            new = ir.Operation.create("hal.interface.binding.subspan", results=[mtype],
                                      operands=list(subspan.operands), attributes=attrs)
        return new.result


def _subview(whole: ir.Value, sl: Slice, tensor_type: ir.RankedTensorType) -> ir.Value:
    """`memref.subview` of `sl` in `whole`, dropping the unit dims the loaded type drops, as
    IREE spells a slice on CUDA/HIP (strides and offset the layout states, the offset dynamic
    where the binding's is)."""
    mtype = ir.MemRefType(whole.type)
    strides, offset = mtype.get_strides_and_offset()
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    moving, sizes = ([o for o in xs if isinstance(o, ir.Value)] for xs in (sl.offsets, sl.sizes))
    if moving:
        offset = dynamic
    elif not mtype.is_dynamic_stride_or_offset(offset):
        offset += sum(o * s for o, s in zip(sl.offsets, strides))
    kept = _kept_dims(sl.sizes, tensor_type.shape)
    steps = sl.steps or [1] * len(sl.sizes)
    layout = ir.StridedLayoutAttr.get(offset, [strides[d] * steps[d] for d in kept])
    rtype = ir.MemRefType.get(tensor_type.shape, mtype.element_type, layout=layout, memory_space=mtype.memory_space)
    i64 = lambda xs: ir.DenseI64ArrayAttr.get(xs)  # noqa: E731
    attrs = {"static_offsets": i64([dynamic if isinstance(o, ir.Value) else o for o in sl.offsets]),
             "static_sizes": i64([_static_size(n) for n in sl.sizes]), "static_strides": i64(steps),
             "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, len(moving), len(sizes), 0])}
    return ir.Operation.create("memref.subview", results=[rtype], operands=[whole, *moving, *sizes], attributes=attrs).result


def _static_size(size: int | ir.Value) -> int:  # a value: dynamic
    return size if isinstance(size, int) else ir.ShapedType.get_dynamic_size()


def _kept_dims(sizes: list[int], shape: list[int]) -> list[int] | None:
    """The dims of a slice of `sizes` that a tensor of `shape` keeps, as MLIR reduces a rank:
    each dim kept where it is the next of `shape`, else dropped where it is 1; None where
    `shape` is not such a reduction."""
    kept = []
    for d, size in enumerate(map(_static_size, sizes)):
        if len(kept) < len(shape) and size == shape[len(kept)]:
            kept.append(d)
        elif size != 1:
            return None
    return kept if len(kept) == len(shape) else None


def slice_layout(b: Binding) -> tuple[int, list[int]] | None:
    """A slice's (Vulkan: `Slice`; CUDA/HIP: subview) start and strides in elements: its offset from
    its binding's start, or where offsets are read at run time the gcd of its static part and the
    strides they step by (all an alignment needs; 0 for a unit dim's dynamic stride); None: whole."""
    if b.slice is not None:
        shape = b.slice.bound_type.shape
        whole = [math.prod(shape[i + 1:]) if min(shape[i + 1:], default=0) >= 0 else 0 for i in range(len(shape))]
        kept = _kept_dims(b.slice.sizes, b.tensor_type.shape)
        steps = b.slice.steps or [1] * len(shape)
        offsets, strides = b.slice.offsets, [whole[d] * steps[d] for d in kept]
    else:
        src = b.source
        if not (isinstance(src, ir.OpResult) and src.owner.name == "memref.subview"):
            return None
        whole, _ = ir.MemRefType(src.owner.operands[0].type).get_strides_and_offset()
        offsets = [None if o == ir.ShapedType.get_dynamic_stride_or_offset() else o
                   for o in ir.DenseI64ArrayAttr(src.owner.attributes["static_offsets"])]
        strides = ir.MemRefType(src.type).get_strides_and_offset()[0]
    whole, strides = ([max(x, 0) for x in xs] for xs in (whole, strides))  # dynamic (a unit dim's): 0
    static = sum(o * s for o, s in zip(offsets, whole) if isinstance(o, int))
    return math.gcd(static, *(s for o, s in zip(offsets, whole) if not isinstance(o, int))) \
        if any(not isinstance(o, int) for o in offsets) else static, strides


def _segments(op: ir.Operation) -> list[list[ir.Value]]:
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    operands, out, at = list(op.operands), [], 0
    for n in sizes:
        out.append(operands[at:at + n])
        at += n
    return out


def _whole_dynamic(op: ir.Operation, t: ir.RankedTensorType) -> list[ir.Value] | None:
    """The dynamic extents of a dispatch.tensor.load/store of a whole bound tensor whose shape
    is dynamic (zero offsets, unit strides, its sizes the binding's dims); None otherwise."""
    bound, bound_dims, offsets, sizes, strides = _segments(op)[-5:]
    m = _DISPATCH_TENSOR.fullmatch(str(bound[0].type))
    static = lambda a: list(ir.DenseI64ArrayAttr(op.attributes[f"static_{a}"]))  # noqa: E731
    if m is None or m.group(2) != str(t) or offsets or strides or len(sizes) != len(bound_dims) or \
            any(a != b for a, b in zip(sizes, bound_dims)) or any(o != 0 for o in static("offsets")) or \
            any(s != 1 for s in static("strides")) or static("sizes") != list(t.shape):
        return None
    return bound_dims


def _subspan(source: ir.Value) -> ir.Operation | None:
    """The binding subspan a memref is, or views (through buffer casts, expand_shapes and subviews)."""
    while isinstance(source, ir.OpResult) and source.owner.name in ("amdgpu.fat_raw_buffer_cast",
                                                                    "memref.expand_shape", "memref.subview"):
        source = source.owner.operands[0]
    owner = source.owner if isinstance(source, ir.OpResult) else None
    return owner.operation if owner is not None and owner.name == "hal.interface.binding.subspan" else None


def subspan_dims(source: ir.Value) -> list[ir.Value] | None:
    """The dynamic dims a binding memref (CUDA/HIP) is declared with: the subspan's, those an
    expand_shape of it gives, or a subview's sizes; None where it is none of these."""
    owner = source.owner.name if isinstance(source, ir.OpResult) else None
    if owner == "memref.subview":
        return _segments(source.owner.operation)[2]
    subspan = _subspan(source)
    if subspan is None:
        return None
    return list(source.owner.operands)[1:] if owner == "memref.expand_shape" else _segments(subspan)[1]


def _is_zero(value: ir.Value) -> bool:
    c = value.owner.attributes["value"] if isinstance(value, ir.OpResult) and value.owner.name == "arith.constant" else None
    return isinstance(c, ir.IntegerAttr) and ir.IntegerAttr(c).value == 0


@dataclasses.dataclass
class Dispatch:
    func: ir.Operation            # the func.func
    root: ir.Operation            # the one linalg op that computes the stored value
    inputs: list[Binding]         # per root input operand (None entries are not loads)
    output: Binding               # where the root's (first) result is stored
    body_ops: list[ir.Operation]  # every op of the func but the terminator
    outputs: list[Binding] = dataclasses.field(default_factory=list)  # per root result, where it is stored

    def __post_init__(self):
        self.outputs = self.outputs or [self.output]

    @property
    def location(self) -> ir.Location:
        return self.root.location


def dispatch_funcs(module: ir.Operation) -> list[ir.Operation]:
    """Every func.func with a body: inside hal.executable variants and at top level."""
    out = []

    def visit(op):
        if op.name == "func.func" and len(op.regions[0].blocks) > 0:
            out.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out


def _is_full_slice(op: ir.Operation, binding: ir.Value, tensor_type: ir.Type) -> bool:
    """A dispatch.tensor.load/store of the whole bound tensor, with static shapes."""
    offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
    strides = list(ir.DenseI64ArrayAttr(op.attributes["static_strides"]))
    m = _DISPATCH_TENSOR.fullmatch(str(binding.type))
    return (len(op.operands) == (1 if op.name.endswith("load") else 2)
            and all(o == 0 for o in offsets) and all(s == 1 for s in strides)
            and m is not None and m.group(2) == str(tensor_type))


@dataclasses.dataclass
class Strided(Binding):
    """A static slice with strides (every dim kept) of a bound tensor, which only a pass that
    folds it into its own indices reads (a convolution's image at stride 2, IREE's strided
    slice of a 1x1 stride-2 convolution): `tensor_type` is the bound tensor's, `memref()` the
    whole binding's; the slice's element i of dim d is the bound one's offsets[d] + i * strides[d]."""

    offsets: tuple[int, ...] = ()
    strides: tuple[int, ...] = ()


def strided_load(op: ir.Operation) -> Strided | None:
    """The Strided slice a load reads: a dispatch.tensor.load of static offsets, sizes and
    strides, one of them above 1 (Vulkan), or a load of such a memref.subview of a binding
    (CUDA/HIP); unit-stride slices are `analyze_graph(slices=True)`'s."""
    if op.name == "iree_tensor_ext.dispatch.tensor.load" and len(op.operands) == 1:
        m = _DISPATCH_TENSOR.fullmatch(str(op.operands[0].type))
        if m is None:
            return None
        bound, source, attrs = ir.RankedTensorType(ir.Type.parse(m.group(2))), op.operands[0], op.attributes
    elif op.name == "iree_codegen.load_from_buffer" and isinstance(op.operands[0], ir.OpResult) and \
            op.operands[0].owner.name == "memref.subview" and len(op.operands[0].owner.operands) == 1:
        sub = op.operands[0].owner
        mtype = ir.MemRefType(sub.operands[0].type)
        bound = ir.RankedTensorType.get(mtype.shape, mtype.element_type, loc=op.location)
        source, attrs = sub.operands[0], sub.attributes
    else:
        return None
    t = ir.RankedTensorType(op.results[0].type)
    offsets, sizes, strides = (tuple(ir.DenseI64ArrayAttr(attrs[f"static_{a}"])) for a in ("offsets", "sizes", "strides"))
    if not bound.has_static_shape or list(sizes) != list(t.shape) or all(st == 1 for st in strides) or \
            any(o < 0 or n < 1 or st < 1 or o + (n - 1) * st >= d for o, n, st, d in zip(offsets, sizes, strides, bound.shape)):
        return None
    return Strided(bound, source, offsets=offsets, strides=strides)


def _taken_view(source: ir.Value, slices: bool, offsets: bool = False, steps: bool = False) -> bool:
    """A memref that a load or store of a binding (CUDA/HIP) may go through: the binding, or
    (`slices`) a `memref.subview` of it of static strides whose rows are contiguous (`steps`:
    or whose layout's strides are all static), offsets static (`offsets`: or computed from the
    dispatch's workload), sizes static or computed from it."""
    if not (isinstance(source, ir.OpResult) and source.owner.name == "memref.subview"):
        return True
    _, moving, sizes, strides = _segments(source.owner.operation)
    mtype = ir.MemRefType(source.type)
    laid = mtype.get_strides_and_offset()[0]
    return slices and not strides and all(map(from_workload, sizes + moving)) and (offsets or not moving) \
        and (laid[-1:] == [1] or steps and not any(map(mtype.is_dynamic_stride_or_offset, laid)))


def _binding_of_load(op: ir.Operation, slices: bool = False, offsets: bool = False,
                     steps: bool = False) -> Binding | None:
    """The Binding a load reads: a whole tensor, or (`slices`) a static slice of one
    (`offsets`: or one at offsets computed from the dispatch's workload; `steps`: or one of
    static steps, every n-th element of a dim)."""
    if op.name == "iree_codegen.load_from_buffer":
        source = op.operands[0]
        if not _taken_view(source, slices, offsets, steps):
            return None
        t = ir.RankedTensorType(op.result.type)
        if t.has_static_shape:
            return Binding(t, source)
        dims = subspan_dims(source)
        return Binding(t, source, dims=dims) if dims is not None else None
    if op.name != "iree_tensor_ext.dispatch.tensor.load":
        return None
    t = ir.RankedTensorType(op.result.type)
    if _is_full_slice(op, op.operands[0], t):
        return Binding(t, op.operands[0])
    dims = None if t.has_static_shape else _whole_dynamic(op, t)
    if dims is not None:
        return Binding(t, op.operands[0], dims=dims)
    return _static_slice(op, t, offsets, steps) if slices else None


def _static_slice(op: ir.Operation, t: ir.RankedTensorType, offsets: bool = False, steps: bool = False) -> Binding | None:
    """A dispatch.tensor.load (or store) at unit strides (`steps`: or static ones, on static
    bound shapes) of a tensor (dynamic extents from the workload), at static offsets
    (`offsets`: or from the workload), of sizes static or from it (1 at offset 0 where a
    dynamic extent makes the stride dynamic)."""
    target = op.operands[1] if op.name.endswith("store") else op.operands[0]
    m = _DISPATCH_TENSOR.fullmatch(str(target.type))
    bound_dims, moving, dyn_sizes, dyn_strides = _segments(op)[-4:]
    if m is None or dyn_strides or not all(map(from_workload, bound_dims + dyn_sizes)) or \
            moving and not (offsets and all(map(from_workload, moving))):
        return None
    bound = ir.RankedTensorType(ir.Type.parse(m.group(2)))
    at, sizes, strides = (list(ir.DenseI64ArrayAttr(op.attributes[f"static_{a}"])) for a in ("offsets", "sizes", "strides"))
    values, extents = iter(moving), iter(dyn_sizes)
    at = [next(values) if o == ir.ShapedType.get_dynamic_stride_or_offset() else o for o in at]
    sizes = [next(extents) if ir.ShapedType.is_dynamic_size(n) else n for n in sizes]
    outer = max((d for d, n in enumerate(bound.shape) if ir.ShapedType.is_dynamic_size(n)), default=0)
    stepped = any(s != 1 for s in strides)
    if any(o != 0 or n != 1 for o, n in zip(at[:outer], sizes)) or \
            stepped and not (steps and bound.has_static_shape and all(isinstance(n, int) for n in sizes)) or \
            _kept_dims(sizes, t.shape) is None or \
            any(isinstance(o, int) and isinstance(n, int) and (o < 0 or 0 <= d < o + (n - 1) * st + 1)
                for o, n, st, d in zip(at, sizes, strides, bound.shape)):
        return None
    return Binding(t, target, Slice(bound, at, sizes, op, strides if stepped else None), dims=list(dyn_sizes))


def load_binding(value: ir.Value, slices: bool = False) -> Binding | None:
    """The binding that a whole-tensor load (or, `slices`, a static slice's) producing `value`
    reads; None for other values."""
    return _binding_of_load(value.owner.operation, slices) if isinstance(value, ir.OpResult) else None


def _binding_of_store(op: ir.Operation, slices: bool = False, offsets: bool = False) -> tuple[ir.Value, Binding] | None:
    """(stored tensor, binding) for a whole-tensor store, or (`slices`) a store of a static slice
    (on CUDA/HIP a store into a `memref.subview`, on Vulkan a `dispatch.tensor.store` at static
    offsets: a convolution's result written into the padded buffer of the next one)."""
    t = ir.RankedTensorType(op.operands[0].type) if op.operands else None
    if op.name == "iree_codegen.store_to_buffer":
        if not _taken_view(op.operands[1], slices, offsets):
            return None
        dims = [] if t.has_static_shape else subspan_dims(op.operands[1])
        return (op.operands[0], Binding(t, op.operands[1], dims=dims)) if dims is not None else None
    if op.name != "iree_tensor_ext.dispatch.tensor.store":
        return None
    if _is_full_slice(op, op.operands[1], op.operands[0].type):
        return op.operands[0], Binding(t, op.operands[1])
    dims = None if t.has_static_shape else _whole_dynamic(op, t)
    if dims is not None:
        return op.operands[0], Binding(t, op.operands[1], dims=dims)
    b = _static_slice(op, t, offsets) if slices else None
    return None if b is None else (op.operands[0], b)


def _dynamic_refusal(bindings: list[Binding], dynamic: bool, ops: list[ir.Operation]) -> Unmatched | None:
    """Why dynamically shaped `bindings` are not taken (None where they all are static, or
    `dynamic` and each extent is computed from workload ordinals); with static ones, the
    shaping ops of dynamic extents among `ops` are not plumbing."""
    moving = [b for b in bindings if not b.tensor_type.has_static_shape]
    if not moving:
        shaping = next((op.name for op in ops if op.name in SHAPING), None)
        return Unmatched(f"computes with {shaping} on static shapes") if shaping else None
    if not dynamic:
        return Unmatched("dynamic shapes (extents read at run time); this pass takes static ones")
    for b in moving:
        if not all(from_workload(v) for v in b.dims):
            return Unmatched("a dynamic extent that is not computed from the dispatch's workload ordinals")
        if _subspan(b.source) is None:
            return Unmatched("a dynamically shaped tensor that is not a binding")
    return None


def _is_slice_load(op: ir.Operation) -> bool:
    """A load of part of a binding: a dispatch.tensor.load (whole ones are taken before), or
    a load_from_buffer of a memref.subview."""
    if op.name == "iree_codegen.load_from_buffer":
        src = op.operands[0]
        return isinstance(src, ir.OpResult) and src.owner.name == "memref.subview"
    return op.name.endswith("dispatch.tensor.load")


def _slice_refusal(slices: bool, offsets: bool = False, access: str = "reads", steps: bool = False) -> str:
    """Why a load (`access` "writes": a store) of part of a binding is refused."""
    if not slices:
        return f"{access} part of a binding (a tensor slice), not " + ("whole tensors" if access == "reads" else "a whole tensor")
    strides = "static strides" if steps and access == "reads" else "unit strides"
    return f"{access} part of a binding (a tensor slice, not of " + \
        (f"{strides}, at offsets and of sizes static or computed from the dispatch's workload)" if offsets
         else f"static offsets, {strides} and sizes static or computed from the dispatch's workload)")


def _refused_slice(ops: list[ir.Operation], slices: bool, strided: bool = False,
                   offsets: bool = False, steps: bool = False) -> Unmatched | None:
    """The refusal of a dispatch that loads a slice the pass does not take, said before the
    ops that compute its offsets (a loaded index) or view it (a memref.subview) are."""
    for op in ops:
        if _is_slice_load(op) and _binding_of_load(op, slices, offsets, steps) is None and \
                not (strided and strided_load(op)):
            return Unmatched(_slice_refusal(slices, offsets, steps=steps))
    return None


def analyze(func: ir.Operation, root_names: tuple[str, ...], slices: bool = False,
            results: bool = False, dynamic: bool = False, offsets: bool = False, steps: bool = False
            ) -> Dispatch | Unmatched:
    """Matches a dispatch made of whole-tensor loads (`slices`: or loads of static slices;
    `offsets`: also at offsets computed from workload ordinals; `steps`: also of static
    strides, every n-th element of a dim, `Slice.steps`), one root op of `root_names`
    (plus tensor.empty / linalg.fill feeding its inits) and one whole-tensor store of its
    result (`results`: of each of its results, in any order; `slices`: or of a slice),
    `dynamic`: also of dynamic shapes whose extents are workload ordinals.
    Anything else (several roots, dynamic shapes, other slices) is Unmatched, with why."""
    block = func.regions[0].blocks[0]
    ops = [o.operation for o in block.operations][:-1]  # Operation, not OpView: FuncOp.name is its symbol
    refused = _refused_slice(ops, slices, offsets=offsets, steps=steps)
    if refused is not None:
        return refused
    loads: list[tuple[ir.Operation, Binding]] = []
    roots, stores = [], []
    takes = " or ".join(root_names)
    for op in ops:
        name = op.name
        b = _binding_of_load(op, slices, offsets, steps)
        if b is not None:
            loads.append((op, b))
        elif name in root_names:
            roots.append(op)
        elif name in ("iree_codegen.store_to_buffer", "iree_tensor_ext.dispatch.tensor.store"):
            stores.append(op)
        elif is_plumbing(op) or (slices and name == "memref.subview"):
            continue
        else:
            return Unmatched(f"computes with {name}; this pass takes one {takes} and its loads and store")
    if len(roots) != 1:
        return Unmatched(f"{len(roots)} ops fused in one dispatch ({', '.join(r.name for r in roots)}); "
                         "this pass takes one" if roots else f"no {takes} op")
    root = roots[0]
    if len(stores) != 1 and not results:
        return Unmatched(f"{len(stores)} stored results; this pass takes one")
    stored_all = [_binding_of_store(s, slices, offsets) for s in stores]
    if any(s is None for s in stored_all):
        return Unmatched(_slice_refusal(slices, offsets, "writes"))
    if not results and (len(root.results) != 1 or stored_all[0][0] != root.results[0]):
        return Unmatched("the stored value is not the one result of the root op")
    outputs = [next((b for v, b in stored_all if v == r), None) for r in root.results]
    if results and (None in outputs or len(stores) != len(outputs)):
        return Unmatched(f"stores {len(stores)} values; this pass takes each result of {root.name} stored once")
    stored = (root.results[0], outputs[0])
    n_inputs = len(root.operands) - len(root.results)
    inputs = []
    for v in list(root.operands)[:n_inputs]:
        b = next((b for op, b in loads if v.owner == op), None) if isinstance(v, ir.OpResult) else None
        if b is None:
            source = v.owner.name if isinstance(v, ir.OpResult) else "a block argument"
            return Unmatched(f"an input of {root.name} comes from {source}, not from a whole-tensor load of a binding")
        inputs.append(b)
    refused = _dynamic_refusal(inputs + outputs, dynamic, ops)
    if refused is not None:
        return refused
    return Dispatch(func, root, inputs, stored[1], ops, outputs)


@dataclasses.dataclass
class Graph:
    """A dispatch of whole-tensor loads, any number of linalg ops and whole-tensor stores."""

    func: ir.Operation
    ops: list[ir.Operation]                 # the linalg ops of `root_names`, in program order
    loads: list[tuple[ir.Value, Binding]]   # each loaded tensor and its binding
    stores: list[tuple[ir.Value, Binding]]  # each stored tensor and its binding
    body_ops: list[ir.Operation]            # every op of the func but the terminator

    @property
    def location(self) -> ir.Location:
        return self.ops[0].location

    def binding_of(self, value: ir.Value) -> Binding | None:
        """The binding of a loaded tensor; None for any other value."""
        return next((b for v, b in self.loads if v == value), None)


def analyze_graph(func: ir.Operation, root_names: tuple[str, ...], slices: bool = False,
                  dynamic: bool = False, out_slices: bool = False, strided: bool = False) -> Graph | Unmatched:
    """Matches a dispatch made of whole-tensor loads (`slices`: or loads of static slices;
    `strided`: or of static slices with strides, as `Strided` bindings), linalg ops of
    `root_names` (plus tensor.empty / linalg.fill) and whole-tensor stores (`slices` or
    `out_slices`: or stores of static slices), every tensor of a static shape (`dynamic`: or
    with extents that are workload ordinals). What the ops compute together is for the caller
    to match."""
    block = func.regions[0].blocks[0]
    ops = [o.operation for o in block.operations][:-1]
    refused = _refused_slice(ops, slices, strided)
    if refused is not None:
        return refused
    roots, loads, stores = [], [], []
    for op in ops:
        # A strided view first: a CUDA subview of contiguous rows at outer strides (a stride-2
        # convolution's image) is a slice to `_binding_of_load` too, which the caller then
        # cannot tell from a unit-stride one (ldsopt-matmul-lds reads it as a Strided image).
        b = (strided_load(op) if strided else None) or _binding_of_load(op, slices)
        if b is not None:
            loads.append((op.results[0], b))
        elif op.name in root_names:
            roots.append(op)
        elif op.name in ("iree_codegen.store_to_buffer", "iree_tensor_ext.dispatch.tensor.store"):
            stored = _binding_of_store(op, slices or out_slices)
            if stored is None:
                return Unmatched(_slice_refusal(slices or out_slices, access="writes"))
            stores.append(stored)
        elif op.name == "memref.subview" and (slices or out_slices and _only_stored_into(op) or
                                              strided and _only_loaded(op)):
            continue
        elif not is_plumbing(op):
            return Unmatched(f"computes with {op.name}; this pass takes {' and '.join(root_names)} ops "
                             "between whole-tensor loads and stores")
    tensors = [b.tensor_type for _, b in loads + stores] + \
        [ir.RankedTensorType(v.type) for op in roots for v in op.operands if isinstance(v.type, ir.RankedTensorType)]
    if not roots or not stores:
        return Unmatched("stores nothing computed" if roots else f"no {' or '.join(root_names)} op")
    if not dynamic and not all(t.has_static_shape for t in tensors):
        return Unmatched("dynamic shapes (extents read at run time); this pass takes static ones")
    refused = _dynamic_refusal([b for _, b in loads + stores], dynamic, ops)
    if refused is not None:
        return refused
    return Graph(func, roots, loads, stores, ops)


def dynamic_extent(b: Binding, dim: int) -> ir.Value:
    """The value of dynamic dim `dim` of a binding's tensor."""
    shape = b.tensor_type.shape
    return b.dims[sum(1 for n in shape[:dim] if ir.ShapedType.is_dynamic_size(n))]


def _only_loaded(subview: ir.Operation) -> bool:
    """A memref.subview that only loads read (a Strided slice on CUDA/HIP)."""
    users = [u.owner.name for u in subview.results[0].uses]
    return bool(users) and all(u == "iree_codegen.load_from_buffer" for u in users)


def _only_stored_into(subview: ir.Operation) -> bool:
    """A memref.subview (CUDA/HIP's slice of a binding) that only stores write into, with
    unit strides."""
    users = [u.owner.name for u in subview.results[0].uses]
    return bool(users) and all(u == "iree_codegen.store_to_buffer" for u in users) and \
        ir.MemRefType(subview.results[0].type).get_strides_and_offset()[0][-1:] == [1]


def erase_unused(ops: list[ir.Operation]) -> None:
    """Erases, last first, each op of `ops` whose results are no longer used."""
    for op in reversed(ops):
        if all(len(list(r.uses)) == 0 for r in op.results):
            op.erase()
