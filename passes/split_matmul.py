"""ldsopt-split-matmul: a matmul whose output tiles cannot fill the machine and whose K is
long becomes a batch of partial products over S chunks of K and their sum (split-K), so that
IREE makes two dispatches, both ldsopt's: the partials a batch matmul for
ldsopt-matmul-lds with S times the workgroups, the sum (with the matmul's fused consumer)
a reduction over S for ldsopt-vector-distribute.

Runs on the program (the `func.func`s of the top module, on tensors), before IREE forms
dispatches, beside ldsopt-split-reduction: one dispatch cannot sum what different workgroups
computed without scratch memory or float atomics (which would make the sum's order, and so
its rounding, change from run to run), two dispatches can. IREE 3.13's own
`--iree-dispatch-creation-split-matmul-reduction=S` splits every matmul of the program by one
S, a divisor of K or nothing, and reads the chunks of A as a batch that ldsopt-matmul-lds did
not take; this pass chooses S per matmul, from the target.

Matches a `linalg.matmul`, `linalg.batch_matmul`, `linalg.contract` or `linalg.generic` that
ldsopt-matmul-lds would take as a dispatch (passes/matmul_lds.py: any storage order, one batch
dim or none; f32, f16, bf16 into f32, i8 into i32), of static shapes, with no lowering the
user chose (`compilation_info`, `lowering_config`) and a result of the accumulator's type (an
f16 x f16 -> f16 product is left alone), such that, on the target (`target.of_op`: lds-run and lds-bench
name the program's, lds-opt --target too; none: nothing is split):
- the plan that ldsopt-matmul-lds would choose for it gives fewer workgroups (output tiles
  times batch) than the target has compute units;
- K has a divisor S in [2, `max-splits`] leaving chunks of at least `min-chunk` (chunks are
  views of the operands: a K with none, a prime, is left alone);
- of those S, the one of least cost (ldsopt/matmul/split.py's `cost`: the matmul plan's cost
  model, plus the second dispatch and the partials' round trip through memory) costs at most
  1 / `min-gain` of the unsplit product (a margin for what the model does not know).
`splits` = S forces a split into S chunks where S divides K with chunks of at least
`min-chunk`, whatever the tiles and the costs (tests use it on lavapipe, whose few cores the
tiles of small products fill).
The rewrite is ldsopt/matmul/split.py's. Sums of S partials instead of one running sum change
float results by rounding only; i8 products sum exactly in i32. Remarks (ldsopt.remarks'
program remarks: lds-opt --remarks): at each split, its chunks and costs; at each matmul left
alone, why, but at those that fill the machine (most of a model's).
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt import remarks
from ldsopt import target as target_model
from ldsopt.codegen.loop_split import program_ops
from ldsopt.matmul import split
from ldsopt.matmul.options import PlanOptions
from ldsopt.registry import ModulePass, option


@dataclasses.dataclass(frozen=True)
class SplitMatmul(ModulePass):
    NAME = "ldsopt-split-matmul"
    SUMMARY = "Split the K of matmuls with few output tiles over workgroups and sum the partials (program level)"

    max_splits: int = option(64, "chunks of K at most", min=2)
    min_chunk: int = option(256, "elements of K each chunk keeps at least", min=1)
    min_gain: float = option(1.25, "split only where the cost model's time falls by this factor at least", min=1.0)
    splits: int = option(0, "chunks of K (0: the cost model's choice)", min=0)

    def run(self, module: ir.Operation) -> None:
        tgt = target_model.of_op(module)
        if tgt is None or not tgt.compute_units:
            return
        found = []
        for op in program_ops(module, split.ROOTS):
            c = split.candidate(op)
            if c:
                found.append(c)
            elif op.name != "linalg.generic":  # a generic that is no contraction is no matmul left alone
                remarks.program_remark(op, self.NAME, False, c.reason)
        for c in found:
            choice = self._choose(c, tgt)
            if isinstance(choice, str):
                if choice:
                    remarks.program_remark(c.op, self.NAME, False, choice)
                continue
            unsplit, best = choice
            remarks.program_remark(c.op, self.NAME, True,
                                   f"K = {c.form.sizes['k']} split into {best.splits} chunks: {best.tiles} workgroups "
                                   f"instead of {unsplit.tiles}, cost {best.time:.3g} instead of {unsplit.time:.3g}")
            split.rewrite(c, best.splits)

    def _choose(self, c: split.Candidate, tgt: target_model.Target) -> tuple[split.Cost, split.Cost] | str:
        """(the unsplit cost, the chosen split's), or why the matmul is left alone ("" where it
        fills the machine: no remark)."""
        choice = PlanOptions().options_choice(tgt)
        unsplit = split.cost(c, 1, tgt, choice)
        if unsplit is None:
            return "no matmul plan fits the target"
        if unsplit.tiles >= tgt.compute_units and not self.splits:
            return ""
        k = c.form.sizes["k"]
        counts = split.split_counts(k, self.max_splits, self.min_chunk)
        if self.splits:
            counts = [self.splits] if self.splits in counts else []
        if not counts:
            what = f"splits={self.splits} does not divide it" if self.splits else \
                f"it has no divisor in [2, {self.max_splits}] leaving chunks of at least {self.min_chunk}"
            return f"{unsplit.tiles} workgroups on {tgt.compute_units} compute units, but K = {k}: {what}"
        costs = [x for x in (split.cost(c, s, tgt, choice) for s in counts) if x is not None]
        if not costs:
            return "no matmul plan fits the target's chunks"
        best = min(costs, key=lambda x: x.time)
        if not self.splits and best.time * self.min_gain > unsplit.time:
            return (f"{unsplit.tiles} workgroups on {tgt.compute_units} compute units, but the best split "
                    f"({best.splits} chunks) costs {best.time:.3g} against {unsplit.time:.3g} unsplit, less than "
                    f"{self.min_gain:g} times less")
        return unsplit, best
