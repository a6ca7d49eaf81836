"""ldsopt-fuse-projections: projections of one input by constant weights (a transformer's Q, K
and V) become one matmul of the weights concatenated along N, so that IREE forms one dispatch
of it (with the consumers the projections share: the cast to f16, the bias), which
ldsopt-matmul-lds takes as one kernel over the wide N, instead of one dispatch a projection
and a dispatch a cast and bias.

Runs on the program (the `func.func`s of the top module, on tensors), before IREE forms
dispatches, after ldsopt-raise-attention (which reads the projections' chains as they were).
IREE 3.13's `--iree-dispatch-creation-enable-fuse-horizontal-contractions` forms such
contractions as one dispatch of several results, which no ldsopt pass takes; one contraction
of concatenated weights is a plain matmul.

Matches, within one function body, two or more contractions that ldsopt-matmul-lds reads as
(batch) matmuls (`linalg.matmul`, `linalg.batch_matmul`, `linalg.contract`, contraction
generics: ldsopt/matmul/match.py's `contraction_form`) with
- one left operand (the same value), one form (indexing maps, body), inits filled with one
  value, and weights of one shape but along N;
- weights computed from constants alone (constants, their broadcasts, transposes, reshapes,
  loads of immutable globals: IREE evaluates their concatenation when it compiles).
Each member's chain of elementwise consumers (its result's one use, an all-parallel
`linalg.generic` reading it in its own order into an empty tensor, its other inputs constants
read along N as their last dim, or not along N) is carried into the fused op as far as the
members' chains are alike (same body and maps; the inputs not read along N the same values);
the inputs read along N are concatenated too. Slices the program already takes of one
tensor's last dim (a Split of GPT-2's fused QKV projection), each used only by splits of it
into heads of one size, are rewritten the same way: slices of the tensor's head split.
Dims other than N may be dynamic (an export's sequence); such a group is fused only where each
member's result is split into heads (`slice_heads`), since IREE copies a plain slice of a
dynamic wide result out in a dispatch of its own (a remark says so); a Split's slices of a
dynamic tensor, where their size along it is the very extent the tensor was made with.
Emits (ldsopt/matmul/projections.py): the concatenation of the weights, one contraction into a
fill of the summed N, the shared consumers on the wide result, and per member a
`tensor.extract_slice` along N that replaces the member's last carried value. Each element is
computed as before (the same products, sums and consumers). Remarks (lds-opt --remarks): at
each group fused, its members' N.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt import remarks
from ldsopt.codegen.loop_split import program_ops
from ldsopt.matmul import projections
from ldsopt.matmul.match import ROOTS
from ldsopt.registry import ModulePass


@dataclasses.dataclass(frozen=True)
class FuseProjections(ModulePass):
    NAME = "ldsopt-fuse-projections"
    SUMMARY = ("Fuse matmuls of one input by constant weights into one matmul of the concatenated weights "
               "(program level)")

    def run(self, module: ir.Operation) -> None:
        for func in program_ops(module, ("func.func",)):
            for g in projections.groups(func, ROOTS):
                ns = [m.n for m in g.members]
                if projections.copied_out(g):
                    remarks.program_remark(g.members[0].op, self.NAME, False,
                                           f"{len(ns)} projections of one input (N = {' + '.join(map(str, ns))}) of "
                                           "a dynamic shape, whose slices of a wide result IREE would copy out, a "
                                           "dispatch each")
                    continue
                remarks.program_remark(g.members[0].op, self.NAME, True,
                                       f"{len(ns)} projections of one input (N = {' + '.join(map(str, ns))}) fused "
                                       f"into one matmul of N = {sum(ns)}, with {len(g.members[0].steps)} "
                                       f"elementwise consumers they share")
                projections.rewrite(g)
            for source, slices in projections.last_dim_slices(func).items():
                with ir.InsertionPoint(slices[0][0]), slices[0][0].location:
                    if projections.slice_heads(source, [(op.results[0], offset) for op, offset in slices],
                                               projections.dynamic_extents(source) or []):
                        remarks.program_remark(slices[0][0], self.NAME, True,
                                               f"{len(slices)} slices of one tensor's last dim read as slices of "
                                               "its head split")
                        for op, _ in slices:
                            op.erase()
