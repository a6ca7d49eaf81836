"""Reduction bodies: the combining op that folds a value into the accumulator, and its identity.

Shared by ldsopt-vector-distribute (which starts every partial from the identity) and
ldsopt-split-reduction (which starts the first of its two reductions from it).
`subtractions_as_additions` rewrites `out - v` (a float accumulator less a value, which
IREE's canonicalizer makes of a sum of negated values) into `out + (-v)`, the same in IEEE
arithmetic: a combiner with an identity.
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith

_FLOAT_IDENTITY = {"arith.addf": 0.0, "arith.mulf": 1.0, "arith.minimumf": math.inf, "arith.minnumf": math.inf,
                   "arith.maximumf": -math.inf, "arith.maxnumf": -math.inf}
# Of a signless integer of `w` bits; -1 is all ones.
_INT_IDENTITY = {"arith.addi": lambda w: 0, "arith.muli": lambda w: 1, "arith.minsi": lambda w: (1 << (w - 1)) - 1,
                 "arith.maxsi": lambda w: -(1 << (w - 1)), "arith.minui": lambda w: -1, "arith.maxui": lambda w: 0,
                 "arith.andi": lambda w: -1, "arith.ori": lambda w: 0, "arith.xori": lambda w: 0}
_BODY_DIALECTS = ("arith.", "math.")


def identity_attr(kind: str, t: ir.Type) -> ir.Attribute:
    """The value x with `kind(x, y) == y` for every y of type `t`."""
    if isinstance(t, ir.IntegerType):
        return ir.IntegerAttr.get(t, _INT_IDENTITY[kind](ir.IntegerType(t).width))
    return ir.FloatAttr.get(t, _FLOAT_IDENTITY[kind])


def combining_op(root: ir.Operation) -> ir.Operation | None:
    """The op that yields `kind(value from the inputs, output block argument)`, if the body
    of the linalg.generic / linalg.reduce `root` is such a chain of elementwise ops."""
    ops = combining_ops(root)
    return ops[0] if ops is not None and len(ops) == 1 else None


def combining_ops(root: ir.Operation, positions: bool = False) -> list[ir.Operation] | None:
    """Per result of the linalg.generic / linalg.reduce `root`, the op that yields
    `kind(value from the inputs, its output block argument)`, if the body is a chain of
    elementwise ops in which each output argument is read once, by its own combining op
    (so the values combined come from the inputs alone, and with `positions` from the
    element's position too: `linalg.index`); else None."""
    block = root.regions[0].blocks[0]
    n_out = len(root.results)
    out_args = list(block.arguments)[len(block.arguments) - n_out:]
    ops = [op.operation for op in block.operations]
    allowed = ("linalg.yield", "linalg.index") if positions else ("linalg.yield",)
    if any(len(op.regions) or not (op.name in allowed or op.name.startswith(_BODY_DIALECTS)) for op in ops):
        return None
    combines = []
    for out_arg, yielded in zip(out_args, ops[-1].operands):
        if not isinstance(yielded, ir.OpResult):
            return None
        combine = yielded.owner.operation
        if combine.name not in _FLOAT_IDENTITY and combine.name not in _INT_IDENTITY:
            return None
        uses = list(out_arg.uses)
        if len(uses) != 1 or uses[0].owner.operation != combine or len(combine.operands) != 2 \
                or list(combine.operands).count(out_arg) != 1 or combine in combines:
            return None
        combines.append(combine)
    return combines


def subtractions_as_additions(root: ir.Operation) -> None:
    """Rewrites, in the body of `root` where it is a reduction (a linalg.reduce, or a
    linalg.generic with a reduced loop), each `arith.subf` of an output block argument less a
    value into `arith.addf` of it and the value negated (x - y and x + (-y) are the same
    float, signed zeros and NaNs included); any other op is left as it is."""
    if root.name == "linalg.generic":
        if not any("reduction" in str(it) for it in root.attributes["iterator_types"]):
            return
    elif root.name != "linalg.reduce":
        return
    block = root.regions[0].blocks[0]
    n_out = len(root.results)
    out_args = list(block.arguments)[len(block.arguments) - n_out:]
    for op in [op.operation for op in block.operations]:
        if op.name != "arith.subf" or op.operands[0] not in out_args or op.operands[1] in out_args:
            continue
        with ir.InsertionPoint(op), op.location:
            added = arith.addf(op.operands[0], arith.negf(op.operands[1]))
        op.results[0].replace_all_uses_with(added)
        op.erase()
