"""ldsopt-transpose-weights: a matmul whose constant right operand (a weight) is stored K x N, N
contiguous, reads instead a copy stored N x K, which is made once, when the module loads: IREE
hoists the transpose of a constant into an initializer. Where the target's kernels read such a
weight better K-contiguous, the product then gets them.

Runs on the program (the `func.func`s of the top module, on tensors), before IREE forms
dispatches, after ldsopt-fuse-projections (whose concatenated weights it transposes whole).

Matches contractions that ldsopt-matmul-lds reads as (batch) matmuls (`linalg.matmul`,
`linalg.batch_matmul`, `linalg.contract`, contraction generics: ldsopt/matmul/match.py's
`contraction_form`) whose B operand is computed from constants alone (constants, their
broadcasts and reshapes, loads of immutable globals: projections.is_constant), of a static
shape whose last two dims are its K and then its N, any batch dims before them. Which of those
it rewrites (`mode`):
- `refused` (the default): where the planner's wgmma scheme (sm_90a) refuses the product as
  stored and takes it reading B as N x K (`planner.wgmma_refusal`: its 16-byte copies need
  each operand's contiguous dim a multiple of 8): a language model's logits over a vocabulary
  of 50257 are then a wgmma product instead of mma.sync's; on any other target nothing;
- `all`: every match, on any target (the program is computed the same; which form is faster
  depends on the product and the target: bench/results/cuda-matmul/wave-tiles-2b34081/);
- `none`: nothing.
Emits, once per weight however many contractions read it, `linalg.transpose` of its last two
dims into an empty N x K tensor, behind a fence (`loop_split.fence`: without it IREE folds the
transpose back into the contraction's map of B), and each contraction's map of B reading (..., n,
k). The products, and the order in which each sum adds them, are unchanged. Remarks (lds-opt
--remarks): at each contraction rewritten, its weight's shape.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir
from iree.compiler.dialects import linalg, tensor

from ldsopt import remarks
from ldsopt import target as target_model
from ldsopt.codegen.loop_split import fence, program_ops
from ldsopt.matmul import planner
from ldsopt.matmul.match import ROOTS, contraction_form, program_problem
from ldsopt.matmul.projections import is_constant
from ldsopt.registry import ModulePass, option

@dataclasses.dataclass(frozen=True)
class TransposeWeights(ModulePass):
    NAME = "ldsopt-transpose-weights"
    SUMMARY = "Read constant K x N matmul weights from N x K copies made at load (program level)"

    mode: str = option("refused", "which weights: refused (where sm_90a's wgmma refuses the K x N form and takes "
                                  "the N x K one), all, none", choices=("refused", "all", "none"))

    def run(self, module: ir.Operation) -> None:
        if self.mode == "none":
            return
        tgt = target_model.of_op(module)
        copies: dict[ir.Value, ir.Value] = {}
        for op in program_ops(module, ROOTS):
            form = contraction_form(op)
            if not form or form.dynamic:
                continue
            pos, mem = form.roles["B"]
            weight = op.operands[pos]
            wtype = ir.RankedTensorType(weight.type)
            if mem != ("k", "n") or form.batch_at.get("B") or not is_constant(weight) or \
                    not wtype.has_static_shape or not self._wanted(op, form, tgt):
                continue
            if weight not in copies:
                copies[weight] = _transposed(weight)
            op.operands[pos] = copies[weight]
            maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
            results = list(maps[pos].results)
            maps[pos] = ir.AffineMap.get(maps[pos].n_dims, maps[pos].n_symbols,
                                         results[:-2] + [results[-1], results[-2]])
            op.attributes["indexing_maps"] = ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps])
            remarks.program_remark(op, self.NAME, True,
                                   f"weight {'x'.join(map(str, wtype.shape))} read from a copy stored N x K")

    def _wanted(self, op: ir.Operation, form, tgt: target_model.Target | None) -> bool:
        """Whether `mode` rewrites this contraction (module doc): for `refused`, the planner's
        wgmma refusal of the product as stored, and its acceptance of it reading B as N x K."""
        if self.mode == "all":
            return True
        if tgt is None:
            return False
        p = program_problem(op, form)
        return planner.wgmma_refusal(p, tgt) is not None and \
            planner.wgmma_refusal(dataclasses.replace(p, dims={**p.dims, "B": ("n", "k")}), tgt) is None


def _transposed(weight: ir.Value) -> ir.Value:
    """`weight` (..., K, N) transposed to (..., N, K) behind a fence, made right after the
    weight's producer."""
    wtype = ir.RankedTensorType(weight.type)
    shape = list(wtype.shape)
    rank = len(shape)
    with ir.InsertionPoint.after(weight.owner), weight.owner.location:
        empty = tensor.empty(shape[:-2] + [shape[-1], shape[-2]], wtype.element_type)
        moved = linalg.transpose(weight, outs=[empty],
                                 permutation=list(range(rank - 2)) + [rank - 1, rank - 2]).results[0]
        return fence(moved)
