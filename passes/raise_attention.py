"""ldsopt-raise-attention: the decomposed attention of an imported graph (two batch matmuls
around a scaled, masked softmax, with the head transposes and reshapes) becomes one
`iree_linalg_ext.attention`, so that IREE forms one dispatch of it, which ldsopt-attention
takes as one flash-attention kernel.

Runs on the program (the `func.func`s of the top module, on tensors), before `iree-compile
--compile-to=executable-configurations` forms dispatches, beside ldsopt-split-reduction.
Matches (ldsopt/attention/raising.py has the chain): `batch_matmul(softmax(S * c + mask), V)`
with `S = batch_matmul(Q, K^T)`, the softmax as `linalg.softmax` or its decomposition into
generics (max, subtract, exp, sum, divide), the scale by a scalar constant (multiplied or
divided, optional), the mask added (optional, any tensor broadcast over some loops), each
operand read through a collapse of [batch, heads] and a transpose of a [batch, seq, heads,
dim] projection or directly; the output, expanded and transposed back, written in that order.
The raised op computes what the chain computes: S * c + mask, softmax over the keys, times V,
with S and the softmax in f32 (as IREE's attention does for f16 operands; an f32 chain is the
same arithmetic). A causal mask held as a constant (0 at and below the diagonal, one value of
-1e4 or less past it) is computed from its indices in a generic of its own, the same values,
which ldsopt-attention reads as causal (raising.py). Anything else is left alone, and so is a
chain whose softmax result is read elsewhere.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.attention import raising
from ldsopt.codegen.loop_split import program_ops
from ldsopt.registry import ModulePass


@dataclasses.dataclass(frozen=True)
class RaiseAttention(ModulePass):
    NAME = "ldsopt-raise-attention"
    SUMMARY = "Raise decomposed attention (batch matmuls around a softmax) to iree_linalg_ext.attention (program level)"

    def run(self, module: ir.Operation) -> None:
        chains = [c for c in map(raising.match, program_ops(module, ("linalg.batch_matmul",))) if c is not None]
        for ordinal, chain in enumerate(chains):
            chain.raise_(ordinal)

