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
"""

from __future__ import annotations

import dataclasses
import math
import re

from iree.compiler import ir

from ldsopt.remarks import Unmatched

_DISPATCH_TENSOR = re.compile(r"!iree_tensor_ext\.dispatch\.tensor<(readonly|writeonly|readwrite):(tensor<.*>)>")


@dataclasses.dataclass
class Binding:
    """One whole-tensor operand of the dispatch."""

    tensor_type: ir.RankedTensorType
    source: ir.Value  # a memref value, or a dispatch-tensor binding (Vulkan)

    def memref(self) -> ir.Value:
        """A memref over the binding; built next to the binding the first time (Vulkan)."""
        if isinstance(self.source.type, ir.MemRefType):
            return self.source
        subspan = self.source.owner
        shape = self.tensor_type.shape
        layout = None
        if not _is_zero(subspan.operands[0]):
            # A binding at an offset (e.g. two results in one buffer): as IREE types it on
            # CUDA/HIP, contiguous strides with a dynamic offset.
            strides = [math.prod(shape[i + 1:]) for i in range(len(shape))]
            layout = ir.StridedLayoutAttr.get(ir.ShapedType.get_dynamic_stride_or_offset(), strides)
        mtype = ir.MemRefType.get(shape, self.tensor_type.element_type, layout=layout,
                                  memory_space=ir.Attribute.parse("#hal.descriptor_type<storage_buffer>"))
        attrs = dict(subspan.attributes.items())
        with ir.InsertionPoint(subspan), subspan.location:
            new = ir.Operation.create("hal.interface.binding.subspan", results=[mtype],
                                      operands=list(subspan.operands), attributes=attrs)
        self.source = new.result
        return self.source


def _is_zero(value: ir.Value) -> bool:
    owner = value.owner
    return (isinstance(value, ir.OpResult) and owner.name == "arith.constant"
            and isinstance(owner.attributes["value"], ir.IntegerAttr) and ir.IntegerAttr(owner.attributes["value"]).value == 0)


@dataclasses.dataclass
class Dispatch:
    func: ir.Operation            # the func.func
    root: ir.Operation            # the one linalg op that computes the stored value
    inputs: list[Binding]         # per root input operand (None entries are not loads)
    output: Binding               # where the root's result is stored
    body_ops: list[ir.Operation]  # every op of the func but the terminator

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


# Ops of a dispatch that only set up its operands: constants, bindings (at offsets passed as
# push constants: constant loads, casts and the range facts IREE states for them), empty
# tensors and fills of inits.
_PLUMBING = ("arith.constant", "hal.interface.binding.subspan", "amdgpu.fat_raw_buffer_cast", "tensor.empty",
             "linalg.fill", "hal.interface.constant.load", "arith.index_castui", "util.assume.int")


def _binding_of_load(op: ir.Operation) -> Binding | None:
    if op.name == "iree_codegen.load_from_buffer":
        return Binding(ir.RankedTensorType(op.result.type), op.operands[0])
    if op.name == "iree_tensor_ext.dispatch.tensor.load" and _is_full_slice(op, op.operands[0], op.result.type):
        return Binding(ir.RankedTensorType(op.result.type), op.operands[0])
    return None


def load_binding(value: ir.Value) -> Binding | None:
    """The binding that a whole-tensor load producing `value` reads; None for other values."""
    return _binding_of_load(value.owner.operation) if isinstance(value, ir.OpResult) else None


def _binding_of_store(op: ir.Operation) -> tuple[ir.Value, Binding] | None:
    """(stored tensor, binding) for a whole-tensor store."""
    if op.name == "iree_codegen.store_to_buffer":
        return op.operands[0], Binding(ir.RankedTensorType(op.operands[0].type), op.operands[1])
    if op.name == "iree_tensor_ext.dispatch.tensor.store" and _is_full_slice(op, op.operands[1], op.operands[0].type):
        return op.operands[0], Binding(ir.RankedTensorType(op.operands[0].type), op.operands[1])
    return None


def analyze(func: ir.Operation, root_names: tuple[str, ...]) -> Dispatch | Unmatched:
    """Matches a dispatch made of whole-tensor loads, one root op of `root_names` (plus
    tensor.empty / linalg.fill feeding its inits) and one whole-tensor store of its result.
    Anything else (several roots, dynamic shapes, partial slices) is Unmatched, with why."""
    block = func.regions[0].blocks[0]
    ops = [o.operation for o in block.operations][:-1]  # Operation, not OpView: FuncOp.name is its symbol
    loads: list[tuple[ir.Operation, Binding]] = []
    roots, stores = [], []
    takes = " or ".join(root_names)
    for op in ops:
        name = op.name
        b = _binding_of_load(op)
        if b is not None:
            loads.append((op, b))
        elif name in root_names:
            roots.append(op)
        elif name in ("iree_codegen.store_to_buffer", "iree_tensor_ext.dispatch.tensor.store"):
            stores.append(op)
        elif name in _PLUMBING:
            continue
        elif name.endswith("dispatch.tensor.load"):
            return Unmatched("reads part of a binding (a tensor slice), not whole tensors")
        else:
            return Unmatched(f"computes with {name}; this pass takes one {takes} and its loads and store")
    if len(roots) != 1:
        return Unmatched(f"{len(roots)} ops fused in one dispatch ({', '.join(r.name for r in roots)}); "
                         "this pass takes one" if roots else f"no {takes} op")
    if len(stores) != 1:
        return Unmatched(f"{len(stores)} stored results; this pass takes one")
    root = roots[0]
    stored = _binding_of_store(stores[0])
    if stored is None:
        return Unmatched("writes part of a binding (a tensor slice), not a whole tensor")
    if len(root.results) != 1 or stored[0] != root.results[0]:
        return Unmatched("the stored value is not the one result of the root op")
    n_inputs = len(root.operands) - len(root.results)
    inputs = []
    for v in list(root.operands)[:n_inputs]:
        b = next((b for op, b in loads if v.owner == op), None) if isinstance(v, ir.OpResult) else None
        if b is None:
            source = v.owner.name if isinstance(v, ir.OpResult) else "a block argument"
            return Unmatched(f"an input of {root.name} comes from {source}, not from a whole-tensor load of a binding")
        if not b.tensor_type.has_static_shape:
            return Unmatched("dynamic shapes")
        inputs.append(b)
    if not stored[1].tensor_type.has_static_shape:
        return Unmatched("dynamic shapes")
    return Dispatch(func, root, inputs, stored[1], ops)


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


def analyze_graph(func: ir.Operation, root_names: tuple[str, ...]) -> Graph | Unmatched:
    """Matches a dispatch made of whole-tensor loads, linalg ops of `root_names` (plus
    tensor.empty / linalg.fill) and whole-tensor stores, every tensor of a static shape.
    What the ops compute together is for the caller to match."""
    block = func.regions[0].blocks[0]
    ops = [o.operation for o in block.operations][:-1]
    roots, loads, stores = [], [], []
    for op in ops:
        b = _binding_of_load(op)
        if b is not None:
            loads.append((op.results[0], b))
        elif op.name in root_names:
            roots.append(op)
        elif op.name in ("iree_codegen.store_to_buffer", "iree_tensor_ext.dispatch.tensor.store"):
            stored = _binding_of_store(op)
            if stored is None:
                return Unmatched("writes part of a binding (a tensor slice), not a whole tensor")
            stores.append(stored)
        elif op.name.endswith("dispatch.tensor.load"):
            return Unmatched("reads part of a binding (a tensor slice), not whole tensors")
        elif op.name not in _PLUMBING:
            return Unmatched(f"computes with {op.name}; this pass takes {' and '.join(root_names)} ops "
                             "between whole-tensor loads and stores")
    tensors = [b.tensor_type for _, b in loads + stores] + \
        [ir.RankedTensorType(v.type) for op in roots for v in op.operands if isinstance(v.type, ir.RankedTensorType)]
    if not roots or not stores:
        return Unmatched("stores nothing computed" if roots else f"no {' or '.join(root_names)} op")
    if not all(t.has_static_shape for t in tensors):
        return Unmatched("dynamic shapes")
    return Graph(func, roots, loads, stores, ops)


def erase_unused(ops: list[ir.Operation]) -> None:
    """Erases, last first, each op of `ops` whose results are no longer used."""
    for op in reversed(ops):
        if all(len(list(r.uses)) == 0 for r in op.results):
            op.erase()
