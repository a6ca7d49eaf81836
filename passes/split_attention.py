"""ldsopt-split-attention: an attention with few query rows and many keys (decode) becomes
the attentions of S chunks of its keys and their combine, so that IREE makes two dispatches
and the first has S times the workgroups (split-KV, flash-decoding).

Runs on the program (the `func.func`s of the top module, on tensors), before IREE forms
dispatches, beside ldsopt-split-reduction: one dispatch cannot combine what different
workgroups computed without scratch memory, two dispatches can. ldsopt/attention/split.py
has the rewrite and what it takes.

Splits an `iree_linalg_ext.attention` where
- its query rows (per batch and head) are at most `max-rows` (decode: the kernel's workgroup
  per group of rows then has too little to do per key to fill the machine otherwise);
- its groups (batch x heads: a workgroup each unsplit) are fewer than the target's compute
  units (`target.Target.compute_units`; lds-run and lds-bench name the target of the program,
  lds-opt --target too; with no target nothing is split);
- the keys have a divisor S in [2, max-splits] leaving chunks of at least `min-chunk` keys:
  S nearest to `waves` x compute units / groups (ldsopt/reduction/plan.py's choose_splits), or
  `splits` where given.
Anything else is left alone; a dynamic attention (its query rows or keys read at run time)
with a remark saying so.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.attention import split
from ldsopt.codegen.loop_split import program_ops
from ldsopt.reduction.plan import choose_splits
from ldsopt.registry import ModulePass, option
from ldsopt import remarks
from ldsopt.remarks import Unmatched


@dataclasses.dataclass(frozen=True)
class SplitAttention(ModulePass):
    NAME = "ldsopt-split-attention"
    SUMMARY = "Split the keys of decode attention over workgroups and combine them (program level, before dispatches)"

    max_rows: int = option(16, "split only attentions of at most this many query rows", min=1)
    min_chunk: int = option(256, "keys each chunk keeps at least", min=1)
    waves: int = option(4, "aim for this many workgroups per compute unit", min=1)
    max_splits: int = option(64, "chunks at most", min=2)
    splits: int = option(0, "chunks (0: chosen from the target's compute units)", min=0)

    def run(self, module: ir.Operation) -> None:
        tgt = target_model.of_op(module)
        found = []
        for op in program_ops(module, (split.ATTENTION,)):
            c = split.match(op)
            if isinstance(c, Unmatched):
                remarks.program_remark(op, self.NAME, False, c.reason)
            elif c is not None:
                found.append(c)
        for c in found:
            n = self._splits(c, tgt)
            if n is not None:
                split.rewrite(c, n)

    def _splits(self, c: split.Candidate, tgt) -> int | None:
        if c.rows > self.max_rows:
            return None
        if self.splits:
            ok = self.splits >= 2 and c.keys % self.splits == 0
            return self.splits if ok else None
        units = tgt.compute_units if tgt is not None else None
        if not units or c.groups >= units:
            return None
        return choose_splits(c.keys, c.groups, self.waves * units, self.max_splits, self.min_chunk)
