"""Which ops of a dispatch only set up its operands (`is_plumbing`): the analysis in dispatch.py
passes over them, and a kernel keeps them where they are, its cloned body reading their
results as they are (uniform values).

- Constants, bindings (at offsets passed as push constants: constant loads, casts and the
  range facts IREE states for them), empty tensors and fills of inits; a dynamic extent's two
  i32 constants joined into an i64, and its workload ordinal (`PLUMBING`).
- What shapes a flat binding (CUDA/HIP) and scalar conversions of the dispatch's pushed
  constants (a mean's row length as a float): taken with dynamic shapes only (`SHAPING`;
  dispatch.py refuses them on static shapes).
- A scalar operand pushed as constants (`pushed_scalar`): IREE shares one executable among
  dispatches that differ by a constant and passes it as i32 bits, bitcast back to f32 (an f16
  truncated first); made of constant loads and constants alone, through casts only.
"""

from __future__ import annotations

from iree.compiler import ir

SHAPING = ("affine.apply", "memref.expand_shape", "arith.sitofp", "arith.uitofp", "arith.index_cast")
PLUMBING = ("arith.constant", "hal.interface.binding.subspan", "amdgpu.fat_raw_buffer_cast", "tensor.empty",
            "linalg.fill", "hal.interface.constant.load", "arith.index_castui", "util.assume.int",
            "arith.extui", "arith.shli", "arith.ori", "iree_tensor_ext.dispatch.workload.ordinal", *SHAPING)
# The casts that make a pushed scalar of constant loads (`pushed_scalar`).
SCALAR_CASTS = ("arith.bitcast", "arith.trunci", "arith.extui", "arith.shli", "arith.ori")


def pushed_scalar(op: ir.Operation) -> bool:
    """A scalar made of the dispatch's pushed constants and constants alone, by SCALAR_CASTS."""
    if op.name not in SCALAR_CASTS or not all(
            isinstance(r.type, (ir.IntegerType, ir.FloatType, ir.IndexType)) for r in op.results):
        return False
    for v in op.operands:
        owner = v.owner.operation if isinstance(v, ir.OpResult) else None
        if owner is None or not (owner.name in ("hal.interface.constant.load", "arith.constant")
                                 or pushed_scalar(owner)):
            return False
    return True


def is_plumbing(op: ir.Operation) -> bool:
    return op.name in PLUMBING or pushed_scalar(op)
