"""Copies global -> LDS that hold no registers, shared by the kernels that stage tiles through
LDS (the matmul's copy strategies, ldsopt/matmul/copy.py; the attention kernel on CUDA): CUDA's
cp.async (`async_copy`, `async_wait`) and the operand as a copy engine reads it (`dma_source`)."""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, memref

from ldsopt.ir_types import element_bits

GLOBAL = "#gpu.address_space<global>"  # what cp.async reads
# What gfx942's gather_to_lds reads: IREE's ROCm lowering makes bindings buffer resources itself,
# so the cast to it is the identity (an `amdgpu.fat_raw_buffer_cast` made a buffer resource of a
# buffer resource, which the AMDGPU backend cannot select, and a cast to global memory one it
# cannot cast back).
FAT_RAW_BUFFER = "#amdgpu.address_space<fat_raw_buffer>"


def async_token() -> ir.Type:
    return ir.Type.parse("!nvgpu.device.async.token")


def async_copy(dst: ir.Value, dst_idx: list[ir.Value], src: ir.Value, src_idx: list[ir.Value], n: int,
               inside: ir.Value | None = None) -> ir.Value:
    """cp.async of n elements; 16-byte copies bypass L1 (`cp.async.cg`, the only 16-byte form
    that skips it; smaller ones are `.ca`). Where `inside` is given, a chunk outside copies no
    source element (srcElements = 0) and the copy zero-fills its n."""
    extra = []
    if inside is not None:
        extra = [arith.select(inside, arith.constant(ir.IndexType.get(), n), arith.constant(ir.IndexType.get(), 0))]
    sizes = ir.DenseI32ArrayAttr.get([1, len(dst_idx), 1, len(src_idx), len(extra)])
    attrs = {"operandSegmentSizes": sizes, "dstElements": ir.IntegerAttr.get(ir.IndexType.get(), n)}
    if n * element_bits(ir.MemRefType(dst.type).element_type) == 128:
        attrs["bypassL1"] = ir.UnitAttr.get()
    return ir.Operation.create("nvgpu.device_async_copy", results=[async_token()],
                               operands=[dst, *dst_idx, src, *src_idx, *extra], attributes=attrs).result


def async_wait(token: ir.Value, in_flight: int) -> None:
    """cp.async.wait_group: every cp.async group of this thread but the `in_flight` newest has
    landed. `token` is any group's (the wait counts groups; it does not read the token), one
    that dominates the wait."""
    i32 = ir.IntegerType.get_signless(32)
    ir.Operation.create("nvgpu.device_async_wait", operands=[token],
                        attributes={"numGroups": ir.IntegerAttr.get(i32, in_flight)})


def dma_source(mem: ir.Value, space: str) -> ir.Value:
    """The binding `mem` relabelled in memory space `space` (GLOBAL, FAT_RAW_BUFFER) by a
    `memref.memory_space_cast`, as a copy engine reads it."""
    t = ir.MemRefType(mem.type)
    return memref.memory_space_cast(ir.MemRefType.get(t.shape, t.element_type, t.layout, ir.Attribute.parse(space)),
                                    mem)
