"""ldsopt-pin-attention-reshapes: a reshape through which an attention reads a computed Q, K or
V stays on the computed value, so that IREE reads the fused projection under it in place.

Runs on the program (the `func.func`s of the top module, on tensors), before IREE forms
dispatches, after ldsopt-fuse-projections (whose slices of the wide projection it protects).

Matches each `iree_linalg_ext.attention` of the program (raised by ldsopt-raise-attention, or a
PyTorch export's SDPA as IREE's torch lowering writes it) whose Q, K or V is a
`tensor.expand_shape` or `tensor.collapse_shape` of a value a `linalg.generic` computes (its
body more than a yield): Llama's RoPE, whose result is split into (K/V head, repeat) for
grouped-query attention (ONNX) or merged into [batch x heads] before SDPA (PyTorch). IREE would
move the reshape up through the computing ops onto the projection's head slices, which it then
copies out, a dispatch each (two for the PyTorch Llama block).

Emits a fence (`loop_split.fence`, an `iree_tensor_ext.compute_barrier.end`) between the value
and the reshape: it stops reshapes moving up across it and is gone once IREE has formed
dispatches.

Left alone: a reshape of moved data (a head transpose, a broadcast), of a slice or of an
argument, where IREE's moving it is what lets the attention read the projection in place.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.attention.raising import ATTENTION
from ldsopt.codegen.loop_split import fence, program_ops
from ldsopt.registry import ModulePass

_RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape")


def _computes(value: ir.Value) -> bool:
    """A `linalg.generic` computes `value` (its body has an op besides the yield)."""
    op = value.owner.operation if isinstance(value, ir.OpResult) else None
    return op is not None and op.name == "linalg.generic" and len(op.regions[0].blocks[0].operations) > 1


@dataclasses.dataclass(frozen=True)
class PinAttentionReshapes(ModulePass):
    NAME = "ldsopt-pin-attention-reshapes"
    SUMMARY = "Keep the reshape of an attention's computed Q, K or V on the computed value (program level)"

    def run(self, module: ir.Operation) -> None:
        for op in program_ops(module, (ATTENTION,)):
            for operand in list(op.operands)[:3]:  # Q, K, V
                reshape = operand.owner.operation if isinstance(operand, ir.OpResult) else None
                if reshape is None or reshape.name not in _RESHAPES or not _computes(reshape.operands[0]):
                    continue
                computed = reshape.operands[0]
                with ir.InsertionPoint(reshape), reshape.location:
                    reshape.operands[0] = fence(computed)
