"""ldsopt-fold-rotate-half: RoPE's rotate_half of a projection's heads becomes a projection by
rotated weights, so that RoPE is elementwise (x * cos + x_rot * sin of two projections that
ldsopt-fuse-projections makes one matmul), one dispatch that ldsopt-lower-elementwise takes,
instead of IREE's copy of a slice and a gather per rotated tensor.

Runs on the program (the `func.func`s of the top module, on tensors), before IREE forms
dispatches and before ldsopt-fuse-projections (which fuses the new projections with the others
of their input).

Matches (ldsopt/matmul/rotate_half.py) a `tensor.concat` along the last dim of
`negf(x[..., d/2:])` and `x[..., :d/2]` (an exported Llama graph's rotate_half: Slice, Neg,
Concat), x of last dim d a view of a projection `A W` (a contraction ldsopt-matmul-lds reads,
W computed from constants alone): its result through elementwise generics of one input (an f16
graph's cast), a `tensor.expand_shape` splitting N alone into [heads, d], and transposes that
keep d last. A dynamic dim (an export's dynamic sequence) is taken where the halves' size along
it is the very value x's producer was made with (its init's `tensor.empty`): all of it.
Emits: W R (W's heads' halves swapped, the first negated: a view, a slice, a negation and a
concat of the constant W, which IREE evaluates when it compiles), `A (W R)` into the
projection's init, the same view of it, in place of the concat. Each element is the product
it was, negated where rotate_half negates it (exact). Anything else is left alone. Remarks
(lds-opt --remarks): at each rotate_half folded, its head size.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt import remarks
from ldsopt.codegen.loop_split import program_ops
from ldsopt.matmul import rotate_half
from ldsopt.registry import ModulePass


@dataclasses.dataclass(frozen=True)
class FoldRotateHalf(ModulePass):
    NAME = "ldsopt-fold-rotate-half"
    SUMMARY = "Compute RoPE's rotate_half of a projection as a projection by rotated weights (program level)"

    def run(self, module: ir.Operation) -> None:
        for func in program_ops(module, ("func.func",)):
            found = [m for op in func.regions[0].blocks[0].operations
                     if (m := rotate_half.match(op.operation)) is not None]
            for m in found:
                remarks.program_remark(m.concat, self.NAME, True,
                                       f"rotate_half of a projection's heads (d = {m.head}) computed as a "
                                       "projection by rotated weights")
                m.rewrite()
