"""ldsopt-trim-windows: a convolution's or pooling window's input keeps only the elements its
windows read.

Runs on the program (the `func.func`s of the top module, on tensors), first, before IREE forms
dispatches.

Why: IREE 3.13's dispatch creation (FoldUnitExtentDims) folds a window dim with one output
position into a plain loop and then requires the input's extent along it to be the window's:
an input reaching past the window fails to compile ("inferred input/output operand #1 has
shape's dimension #1 to be 4, but found 3"), in IREE's own default too. MobileViT's downsampling
depthwise convolution (a 2x2 image padded to 4x4, a 3x3 window at stride 2, one output
position) is one. Trimmed, the input is what the windows read, and no dispatch pads or copies
elements that none reads.

Matches each linalg convolution or pooling op (`linalg.isa_convolution_op`: the named ops an
import writes, and generics of that form) on static tensors whose input (its first operand)
indexes every dim as a sum of loops times positive strides plus a constant
(`elementwise.dim_sums`), reaching past the last element any window reads along some dim
(`(out - 1) * stride + (window - 1) * dilation + 1`).

Emits, in the op's input:
- where the input is a `tensor.pad` whose high padding covers the excess along every such dim:
  the same pad with that much less high padding (a stride-2 window over an image padded to an
  even size: ResNet's stem, MobileViT);
- else, where one of those dims is a window with one output position (IREE's failing case): a
  `tensor.extract_slice` of the input from 0 to the extent read along every such dim.
Each window reads the elements it read before (exact). Left alone: dynamic shapes, other maps,
an excess elsewhere (a 1x1 stride-2 shortcut over an even image: a slice there would be a copy
IREE dispatches). Remarks (lds-opt --remarks): at each trimmed op, the input's extents.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir
from iree.compiler.dialects import linalg, tensor

from ldsopt import remarks
from ldsopt.codegen.elementwise import dim_sums, map_dims
from ldsopt.codegen.loop_split import program_ops
from ldsopt.ir_types import producer
from ldsopt.registry import ModulePass


def _static_shape(value: ir.Value) -> list[int] | None:
    t = value.type
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        return None
    return list(t.shape)


def _loop_bounds(op: ir.Operation, maps: list[ir.AffineMap]) -> dict[int, int] | None:
    """Each loop's extent, from the operand dims that index it alone; None if one has none."""
    bounds = {}
    for value, m in zip(op.operands, maps):
        shape = _static_shape(value)
        if shape is None:
            return None
        for e, size in zip(m.results, shape):
            if isinstance(e, ir.AffineDimExpr):
                bounds[e.position] = size
    return bounds if len(bounds) == maps[0].n_dims else None


@dataclasses.dataclass(frozen=True)
class Trim:
    """A window op's input and the extents its windows read of it (`read` <= `shape`)."""
    op: ir.Operation
    shape: list[int]
    read: list[int]
    one_position: list[bool]  # dims whose windows have one output position

    @property
    def excess(self) -> list[int]:
        return [s - r for s, r in zip(self.shape, self.read)]


def match(op: ir.Operation) -> Trim | None:
    """The trim of `op`'s input (module doc), or None."""
    if not op.name.startswith("linalg.") or not linalg.isa_convolution_op(op):
        return None
    maps = [m.value for m in linalg.get_indexing_maps(op)]
    shape, sums, bounds = _static_shape(op.operands[0]), dim_sums(maps[0]), _loop_bounds(op, maps)
    if shape is None or sums is None or bounds is None:
        return None
    outputs = set(map_dims(maps[-1]) or [])
    read = [sum(stride * (bounds[loop] - 1) for loop, stride in terms) + const + 1 for terms, const in sums]
    if all(r >= s for r, s in zip(read, shape)):
        return None
    one = [all(bounds[loop] == 1 for loop, _ in terms if loop in outputs) and any(loop in outputs for loop, _ in terms)
           for terms, _ in sums]
    return Trim(op, shape, [min(r, s) for r, s in zip(read, shape)], one)


def _trimmed_pad(t: Trim) -> ir.Value | None:
    """The input's pad with `t.excess` less high padding, where it covers it; else None."""
    pad = producer(t.op.operands[0])
    if pad is None or pad.name != "tensor.pad":
        return None
    high = list(ir.DenseI64ArrayAttr(pad.attributes["static_high"]))
    if any(h < 0 or h < x for h, x in zip(high, t.excess)):  # a dynamic high is negative here
        return None
    with ir.InsertionPoint(t.op), t.op.location:
        new = pad.clone()
        new.attributes["static_high"] = ir.DenseI64ArrayAttr.get([h - x for h, x in zip(high, t.excess)])
        new.results[0].set_type(ir.RankedTensorType.get(t.read, t.op.operands[0].type.element_type))
    return new.results[0]


def _slice(t: Trim) -> ir.Value:
    source = t.op.operands[0]
    with ir.InsertionPoint(t.op), t.op.location:
        result = ir.RankedTensorType.get(t.read, source.type.element_type)
        rank = len(t.shape)
        return tensor.extract_slice(result, source, [], [], [], [0] * rank, t.read, [1] * rank)


@dataclasses.dataclass(frozen=True)
class TrimWindows(ModulePass):
    NAME = "ldsopt-trim-windows"
    SUMMARY = "Trim a convolution's or pooling window's input to the elements its windows read (program level)"

    def run(self, module: ir.Operation) -> None:
        found = []

        def visit(op):
            if (t := match(op)) is not None:
                found.append(t)
            return ir.WalkResult.ADVANCE

        for func in program_ops(module, ("func.func",)):
            func.walk(visit)
        for t in found:
            old = producer(t.op.operands[0])
            trimmed = _trimmed_pad(t)
            if trimmed is None and any(x > 0 and one for x, one in zip(t.excess, t.one_position)):
                trimmed = _slice(t)
            if trimmed is None:
                continue
            t.op.operands[0] = trimmed
            remarks.program_remark(t.op, self.NAME, True, f"input {'x'.join(map(str, t.shape))} trimmed to "
                                   f"{'x'.join(map(str, t.read))}, the elements its windows read")
            if old is not None and old.name == "tensor.pad" and not list(old.results[0].uses):
                old.erase()
