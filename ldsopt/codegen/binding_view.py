"""Where a memref that a kernel reads or writes lies in its binding (`BindingView`): its strides,
its start (a static part and the run-time offsets of a subview) and how its binding's start is
aligned. ldsopt-lower-copy plans its vectors with it; `kernel.global_alignment` states what it
proves on vector accesses."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Callable

from iree.compiler import ir

from ldsopt.ir_types import element_bits
from ldsopt.remarks import Unmatched

# What a binding goes through before it is viewed (HIP: a buffer resource of it).
CASTS = ("memref.assume_alignment", "amdgpu.fat_raw_buffer_cast")
# The widest vector access to global memory a kernel makes (16 bytes: SPIR-V's vec4 of 32 bits,
# CUDA's and HIP's 128-bit loads): starts aligned to it bound no vector.
WIDEST_ACCESS_BYTES = 16


@dataclasses.dataclass
class BindingView:
    """A memref that is a binding or one subview of one."""

    value: ir.Value              # the memref (a binding, or a subview of one)
    strides: list[int]           # in elements
    offset: int                  # the static part of its start, in elements from the binding's
    dynamic: list[tuple[ir.Value, int]]  # the dynamic part: (index value, its stride in elements)
    base_align: int              # bytes the binding's start (with its offset) is known aligned to


def _dynamic_strides(t: ir.MemRefType) -> list[int]:
    """The dims of `t` whose strides are dynamic, but for those of extent 1: the only index into
    such a dim is 0, so its stride moves nothing (an export's 1x?xN binding has the stride of
    its batch dim read at run time)."""
    strides, _ = t.get_strides_and_offset()
    return [d for d, s in enumerate(strides) if t.is_dynamic_stride_or_offset(s) and t.shape[d] != 1]


def binding_view(value: ir.Value) -> BindingView | Unmatched:
    """The BindingView of a memref that is a binding or one static-stride subview of one
    (through `CASTS`; dims of extent 1 may have any stride there: `_dynamic_strides`); its sizes
    may be dynamic (they say nothing of where a row starts)."""
    mtype = ir.MemRefType(value.type)
    strides, _ = mtype.get_strides_and_offset()
    if any(mtype.is_dynamic_stride_or_offset(s) for s in strides):
        return Unmatched("a view of dynamic strides")
    owner = value.owner if isinstance(value, ir.OpResult) else None
    offset, dynamic, base = 0, [], value
    if owner is not None and owner.name == "memref.subview":
        sub = owner.operation
        if any(mtype.is_dynamic_stride_or_offset(s) for s in ir.DenseI64ArrayAttr(sub.attributes["static_strides"])):
            return Unmatched("a subview of dynamic strides")
        base = sub.operands[0]
        outer = ir.MemRefType(base.type)
        outer_strides, _ = outer.get_strides_and_offset()
        if _dynamic_strides(outer):
            return Unmatched("a subview of a view of dynamic strides")
        dyn_values = iter(list(sub.operands)[1:])
        for d, (o, stride) in enumerate(zip(ir.DenseI64ArrayAttr(sub.attributes["static_offsets"]), outer_strides)):
            at = next(dyn_values) if mtype.is_dynamic_stride_or_offset(o) else o
            if outer.shape[d] == 1:  # its only index is 0
                continue
            if isinstance(at, ir.Value):
                dynamic.append((at, stride))
            else:
                offset += at * stride
    while isinstance(base, ir.OpResult) and base.owner.name in CASTS:
        base = base.owner.operands[0]
    if not (isinstance(base, ir.OpResult) and base.owner.name == "hal.interface.binding.subspan"):
        return Unmatched("copies a view that is not a binding or one subview of one")
    subspan = base.owner.operation
    bound = ir.MemRefType(base.type)
    _, bound_offset = bound.get_strides_and_offset()
    if _dynamic_strides(bound):  # a dynamic extent inside its rows
        return Unmatched("copies a binding of dynamic strides")
    if not bound.is_dynamic_stride_or_offset(bound_offset):  # else the subspan's offset, below
        offset += bound_offset
    return BindingView(value, list(strides), offset, dynamic, _base_alignment(subspan))


def _base_alignment(subspan: ir.Operation) -> int:
    """The bytes a binding's start is known aligned to: its subspan's `alignment` (1 where it
    states none) and what its offset is a multiple of."""
    align = ir.IntegerAttr(subspan.attributes["alignment"]).value if "alignment" in subspan.attributes else 1
    return math.gcd(align, _offset_divisor(subspan.operands[0]))


def _offset_divisor(offset: ir.Value) -> int:
    """What a binding's offset (bytes) is known to be a multiple of: a constant's own value; one
    read at run time, the divisor IREE's `util.assume.int` states of it (the gcd over its
    alternatives, each a call site's; 0 divisible by any), else only 1, as IREE's own codegen
    assumes."""
    at = offset.owner if isinstance(offset, ir.OpResult) else None
    if at is not None and at.name == "arith.constant":
        return ir.IntegerAttr(at.attributes["value"]).value
    if at is None or at.name != "util.assume.int":
        return 1
    alternatives = [str(a) for a in ir.ArrayAttr(ir.ArrayAttr(at.attributes["assumptions"])[offset.result_number])]
    divisors = [re.search(r"udiv = (\d+)", a) for a in alternatives if "umax = 0>" not in a]  # 0: any
    return math.gcd(*(int(d.group(1)) for d in divisors)) if all(divisors) else 1


def row_alignment(source: ir.Value, tensor_type: ir.RankedTensorType, slice_=None, run: int = 1,
                  steps: Callable[[list[int]], list[int]] | None = None) -> int:
    """Elements that the start of each run of `run` contiguous elements of a binding's view is
    known to be a multiple of, where that is short of a 16-byte access (0: every start is
    16-byte aligned, or nothing is known to bound it): the gcd of its binding's start (the
    subspan's `alignment` and offset, in elements), the view's start in it and the steps
    between the runs' starts. Those are the strides of the view's dims but its last (the run's),
    or, given `steps`, what it makes of the dims' strides (a convolution's loops outside its run,
    `GemmView.start_steps`: an NCHW image's `ow + kw` steps by one element). A run-time offset
    counts by its stride; a dynamic stride of a contiguous binding by the static extents inside
    it. A vector of n elements at an index of its run that is a multiple of n is aligned to its
    own size only where n divides this: IREE's SPIR-V lowering writes a misaligned one at its
    index rounded down (at the wrong place), a 16-byte `cp.async` from a misaligned address
    never completes, and on CUDA only the alignment stated (`kernel.global_alignment`) keeps
    LLVM from splitting it. `source` is a binding (CUDA/HIP: a memref, a reshape of one or a
    subview of one; Vulkan: the dispatch-tensor subspan) and `slice_` a Vulkan
    `dispatch.Slice` of it (or None)."""
    if source is None:  # a problem made without a dispatch (the planners' own tests): nothing bounds it
        return 0
    eb = max(1, element_bits(tensor_type.element_type) // 8)
    if isinstance(source.type, ir.MemRefType):
        mtype = ir.MemRefType(source.type)
        strides, _ = mtype.get_strides_and_offset()
        start = source  # a reshape of a binding or of its subview starts where that does
        while isinstance(start, ir.OpResult) and start.owner.name in ("memref.expand_shape", "memref.collapse_shape",
                                                                       *CASTS):
            start = start.owner.operands[0]
        whole = isinstance(start, ir.OpResult) and start.owner.name == "hal.interface.binding.subspan"
        view = None if whole else binding_view(start)
        if not whole and not view:
            return 1
        inner = _static_inner(mtype.shape)
        dim_strides = []
        for d, st in enumerate(strides):
            if mtype.is_dynamic_stride_or_offset(st) and mtype.shape[d] != 1:
                if not whole:  # a subview's dynamic stride: its parent's rows, of any length
                    return 1
                st = inner[d]  # a whole binding is contiguous: its stride is a multiple of this
            dim_strides.append(0 if mtype.shape[d] == 1 else st)
        rows = _steps(dim_strides, run, steps)
        if whole:
            subspan = start.owner.operation
            bound = ir.MemRefType(start.type)
            _, at = bound.get_strides_and_offset()
            rows += [] if bound.is_dynamic_stride_or_offset(at) else [at]
            base = _base_alignment(subspan)
        else:
            rows += [view.offset, *(stride for _, stride in view.dynamic)]
            base = view.base_align
    elif not (isinstance(source, ir.OpResult) and source.owner.name == "hal.interface.binding.subspan"):
        return 0  # a program's value (ldsopt/matmul/split.py plans before dispatches): its dispatch bounds it
    else:
        subspan = source.owner.operation
        base = _base_alignment(subspan)
        shape = (slice_.bound_type if slice_ is not None else tensor_type).shape
        strides = _static_inner(shape)
        each = slice_.steps if slice_ is not None and slice_.steps else [1] * len(shape)
        dim_strides = [s * each[d] for d, s in enumerate(strides)]
        if steps is not None and len(shape) != tensor_type.rank:  # a slice without its dims of size 1
            kept = [d for d, n in enumerate(slice_.sizes) if n != 1]
            if len(kept) != tensor_type.rank:
                return 1
            dim_strides = [dim_strides[d] for d in kept]
        rows = _steps(dim_strides, run, steps)
        if slice_ is not None:
            rows += [o * s if isinstance(o, int) else s for o, s in zip(slice_.offsets, strides)]
    if base % eb:
        return 1
    align = math.gcd(base // eb if base else 0, *(abs(s) for s in rows))
    return 0 if align % max(1, WIDEST_ACCESS_BYTES // eb) == 0 else align


def _steps(dim_strides: list[int], run: int, steps: Callable[[list[int]], list[int]] | None) -> list[int]:
    """The steps between a view's runs' starts (`row_alignment`): `steps` of its dims'
    strides, or the strides of its dims but the last that a run does not cross (those of at
    least `run` elements)."""
    if steps is not None:
        return list(steps(dim_strides))
    return [st for st in dim_strides[:-1] if st >= run]


def _static_inner(shape: list[int]) -> list[int]:
    """Per dim, the product of the static extents inside it: its stride in a contiguous layout,
    or a divisor of it where some are dynamic."""
    return [math.prod(n for n in shape[d + 1:] if n >= 0) for d in range(len(shape))]
