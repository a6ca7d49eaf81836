"""A tensor padded inside a dispatch: the `tensor.pad` of a loaded tensor that IREE's
`--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops` puts beside its
consumer (a convolution, a pooling window), read by the consumer's kernel in the bound tensor
instead of copied into a padded buffer by a dispatch of its own.

`split_pads(g)` takes a graph's pads out of its ops (the consumer is matched on the rest);
`padded_input(g, pad, consumer)` matches one (static low and high padding of a whole loaded
tensor, with a constant, read only by `consumer`) as a `Padded` binding; `through_pad` maps the
consumer's sums of loops over the padded tensor's dims to the bound tensor's, and
`padded_dims` says which dims a read must check: an index outside [0, extent) of one is the
padding value's place (its unsigned compare: a negative index, in the low padding, is too
large)."""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.codegen.dispatch import Binding, Graph
from ldsopt.codegen.elementwise import DimSum
from ldsopt.remarks import Unmatched

PAD = "tensor.pad"


@dataclasses.dataclass
class Padded(Binding):
    """A loaded tensor read through a `tensor.pad` in the dispatch: `tensor_type` and
    `memref()` are the bound tensor's (unpadded); element i of dim d of the padded tensor is
    the bound one's i - low[d], `value` outside it."""

    low: tuple[int, ...] = ()
    high: tuple[int, ...] = ()
    value: ir.Attribute | None = None  # the padding constant

    @property
    def zero(self) -> bool:
        """The padding is +0 (what a zero-filling copy gives)."""
        v = self.value
        if isinstance(v, ir.FloatAttr):
            return ir.FloatAttr(v).value == 0 and not str(v).startswith("-")
        return isinstance(v, ir.IntegerAttr) and ir.IntegerAttr(v).value == 0


def padded_input(g: Graph, pad: ir.Operation, consumer: ir.Operation) -> Padded | Unmatched:
    """`pad` (an op of `g`) as the `Padded` input of `consumer`: static low and high padding
    of a whole-tensor load, by a constant, its result read by `consumer` alone."""
    what = "a tensor.pad fused into the dispatch"
    if any(u.owner != consumer for u in pad.results[0].uses):
        return Unmatched(f"{what} whose result is not only an input of the {consumer.name}")
    source = g.binding_of(pad.operands[0])
    if source is None or type(source) is not Binding or source.slice is not None:
        return Unmatched(f"{what} of a value that is not a whole-tensor load of a binding")
    if len(pad.operands) != 1:
        return Unmatched(f"{what} of dynamic extents; takes static low and high padding")
    yielded = pad.regions[0].blocks[0].operations[-1].operands[0]
    if not (isinstance(yielded, ir.OpResult) and yielded.owner.name == "arith.constant"):
        return Unmatched(f"{what} whose value is computed; takes a constant")
    low, high = (tuple(ir.DenseI64ArrayAttr(pad.attributes[f"static_{a}"])) for a in ("low", "high"))
    return Padded(source.tensor_type, source.source, low=low, high=high, value=yielded.owner.attributes["value"])


def split_pads(g: Graph) -> tuple[Graph, list[ir.Operation]]:
    """`g` without its `tensor.pad` ops, and those ops (in graph order)."""
    return dataclasses.replace(g, ops=[op for op in g.ops if op.name != PAD]), [op for op in g.ops if op.name == PAD]


def padded_inputs(g: Graph, pads: list[ir.Operation], consumer: ir.Operation) -> dict[ir.Value, Padded] | Unmatched:
    """Each of `pads` (`split_pads`'s, of `g`) as a `Padded` input of `consumer`, by its result."""
    out = {}
    for op in pads:
        p = padded_input(g, op, consumer)
        if not isinstance(p, Padded):
            return p
        out[op.results[0]] = p
    return out


def through_pad(sums: tuple[DimSum, ...], pad: Padded) -> tuple[DimSum, ...]:
    """`sums` of a padded tensor's dims as sums of its bound tensor's: element i of dim d is the
    bound one's i - low[d] (a constant that may be negative)."""
    return tuple((terms, const - low) for (terms, const), low in zip(sums, pad.low))


def padded_dims(pad: Padded) -> tuple[tuple[int, int], ...]:
    """(dim, bound extent) of each dim of `pad` padded at either end."""
    return tuple((d, n) for d, (n, lo, hi) in enumerate(zip(pad.tensor_type.shape, pad.low, pad.high)) if lo or hi)
