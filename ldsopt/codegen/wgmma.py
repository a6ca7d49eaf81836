"""Hopper's warpgroup MMA as the kernels emit it (sm_90a): the 128-byte-swizzle matrix
descriptors, the f32 accumulator struct, and the two forms of `wgmma.mma_async` the kernels
issue, shared by the matmul's wgmma scheme (ldsopt/matmul/emit_wgmma.py) and the Hopper
attention kernel (ldsopt/attention/emit_wgmma.py).

- A matrix descriptor (64 bits): the start address / 16 in bits 0-13, the leading byte offset
  / 16 in 16-29, the stride byte offset / 16 in 32-45, the swizzle mode in 62-63 (1: 128
  bytes). In the 128-byte swizzle the stride is 1024 bytes, from one 8-row group of 128-byte
  rows to the next (8-K-row groups, MN-major); the leading offset is unused K-major (1) and,
  MN-major, the bytes from one 64-column block to the next.
- `mma_async`: both operands from LDS by descriptors, NVVM's `nvvm.wgmma.mma_async` (IREE's
  CUDA lowering makes it PTX inline assembly).
- `mma_async_register_a`: A from registers (4 x .b32 a thread, each two f16 / bf16: the
  m16n8k16 A fragment of the thread's warp's 16 rows), B by descriptor. NVVM's op has no
  register-A form, so it is PTX inline assembly written here, in the same shape as NVVM's.
- The accumulator: `!llvm.struct` of N / 2 f32 a thread, the m16n8 C layout of mma.sync along
  N (wgmma_maps.accumulator_coords).
"""

from __future__ import annotations

from collections.abc import Callable

from iree.compiler import ir
from iree.compiler.dialects import arith, llvm, memref, nvvm

from ldsopt.codegen.kernel import lds_alloc

STRIDE_1024 = (1024 >> 4) << 32   # the stride byte offset field: an 8-row group of 128-byte rows
SWIZZLE_128B = 1 << 62
ADDRESS_BITS = (1 << 14) - 1      # the start address / 16
SWIZZLE_ALIGNMENT = 1024          # bytes of one 8-row pattern of 128-byte rows: an LDS tile's alignment
SWIZZLE_ROW_BYTES = 128
K_STEP = 16                       # K of one 16-bit wgmma
TYPES = {"f16": "f16", "bf16": "bf16"}
Const = Callable[[int, ir.Type], ir.Value]


def _i64() -> ir.Type:
    return ir.IntegerType.get_signless(64)


def alloc_swizzled(shape: list[int], elem: ir.Type) -> ir.Value:
    """An LDS buffer aligned where the 128-byte swizzle's pattern starts."""
    return lds_alloc(shape, elem, SWIZZLE_ALIGNMENT)


def descriptor(const: Const, buf: ir.Value, leading_bytes: int, byte_offset: ir.Value | None = None) -> ir.Value:
    """The 128-byte-swizzle descriptor of LDS buffer `buf` (plus `byte_offset`, an index, where
    given), with the leading byte offset `leading_bytes` (0: unused, K-major); `const` makes
    the kernel's constants (Kernel.const)."""
    i64 = _i64()
    addr = arith.index_cast(i64, memref.extract_aligned_pointer_as_index(buf))
    if byte_offset is not None:
        addr = arith.addi(addr, arith.index_cast(i64, byte_offset))
    field = arith.andi(arith.shrui(addr, const(4, i64)), const(ADDRESS_BITS, i64))
    leading = leading_bytes // 16 if leading_bytes else 1
    return arith.ori(field, const(STRIDE_1024 | SWIZZLE_128B | leading << 16, i64))


def k_major_bytes(row: int, k: int) -> int:
    """Where a K-major descriptor (leading offset unused) finds element (row, k), k < 64, of a
    16-bit operand, in bytes from its start address (PTX's canonical layout in the 128-byte
    swizzle): 8-row groups 1024 bytes apart (the stride offset), 128-byte rows, 16-byte unit
    k / 8 at unit k / 8 ^ row % 8."""
    return row // 8 * 1024 + row % 8 * 128 + ((k // 8) ^ (row % 8)) * 16 + k % 8 * 2


def mn_major_bytes(k: int, x: int, leading_bytes: int) -> int:
    """Where an MN-major descriptor finds element (k, x) (x along M or N) of a 16-bit operand:
    blocks of 64 x `leading_bytes` apart (the leading offset), in each 8-K-row groups 1024
    bytes apart (the stride offset), 128-byte rows of 64 x swizzled as `k_major_bytes`'."""
    return x // 64 * leading_bytes + k // 8 * 1024 + k % 8 * 128 + ((x % 64 // 8) ^ (k % 8)) * 16 + x % 8 * 2


def advanced(const: Const, desc: ir.Value, byte_offset: int) -> ir.Value:
    """`desc` with its start address `byte_offset` bytes on (a multiple of 16: the hardware
    applies the swizzle to the address it forms)."""
    return arith.addi(desc, const(byte_offset // 16, _i64())) if byte_offset else desc


def acc_struct(n: int) -> ir.Type:
    return ir.Type.parse("!llvm.struct<(" + ", ".join(["f32"] * (n // 2)) + ")>")


def acc_splat(n: int, value: ir.Value) -> ir.Value:
    acc = llvm.UndefOp(acc_struct(n)).result
    for i in range(n // 2):
        acc = llvm.InsertValueOp(acc, value, [i]).result
    return acc


def acc_elements(acc: ir.Value, n: int) -> list[ir.Value]:
    f32 = ir.F32Type.get()
    return [llvm.ExtractValueOp(f32, acc, [i]).result for i in range(n // 2)]


def acc_from_elements(elems: list[ir.Value]) -> ir.Value:
    acc = llvm.UndefOp(acc_struct(2 * len(elems))).result
    for i, x in enumerate(elems):
        acc = llvm.InsertValueOp(acc, x, [i]).result
    return acc


def mma_async(acc: ir.Value, n: int, desc_a: ir.Value, desc_b: ir.Value, elem: ir.Type,
              a_k_major: bool, b_k_major: bool) -> ir.Value:
    """acc += A B, one m64nNk16 wgmma, both operands by descriptor. wgmma's A is row-major and
    its B column-major when K-major; the other layout is read transposed."""
    attr = ir.Attribute.parse
    t = TYPES[str(elem)]
    return nvvm.WgmmaMmaAsyncOp(
        acc.type, acc, desc_a, desc_b, attr(f"#nvvm.shape<m = 64, n = {n}, k = {K_STEP}>"),
        attr(f"#nvvm.wgmma_type<{t}>"), attr(f"#nvvm.wgmma_type<{t}>"), attr("#nvvm.wgmma_type<f32>"),
        attr("#nvvm.wgmma_scale_out<one>"), attr("#nvvm.wgmma_scale_in<one>"), attr("#nvvm.wgmma_scale_in<one>"),
        attr(f"#nvvm.mma_layout<{'row' if a_k_major else 'col'}>"),
        attr(f"#nvvm.mma_layout<{'col' if b_k_major else 'row'}>")).result


def mma_async_register_a(acc: ir.Value, n: int, a_regs: list[ir.Value], desc_b: ir.Value, elem: ir.Type,
                         b_k_major: bool) -> ir.Value:
    """acc += A B, one m64nNk16 wgmma with A from registers (`a_regs`: 4 i32, each two 16-bit
    elements, the low half the first) and B by descriptor, read transposed unless K-major."""
    outs = n // 2
    d = ", ".join(f"${i}" for i in range(outs))
    a = ", ".join(f"${outs + i}" for i in range(4))
    asm = ("{\n.reg .pred p;\n"
           f"setp.ne.b32 p, ${outs + 5}, 0;\n"
           f"wgmma.mma_async.sync.aligned.m64n{n}k{K_STEP}.f32.{TYPES[str(elem)]}.{TYPES[str(elem)]} "
           f"{{{d}}}, {{{a}}}, ${outs + 4}, p, 1, 1, {0 if b_k_major else 1};\n}}\n")
    # Outputs, then A's registers, B's descriptor, scale-d; the accumulator's inputs tied to the outputs.
    constraints = ",".join(["=f"] * outs + ["r"] * 4 + ["l", "r"] + [str(i) for i in range(outs)])
    i32 = ir.IntegerType.get_signless(32)
    operands = [*a_regs, desc_b, arith.constant(i32, 1), *acc_elements(acc, n)]
    return llvm.InlineAsmOp(acc_struct(n), operands, asm, constraints, has_side_effects=True).result


def proxy_fence() -> None:
    """fence.proxy.async.shared::cta: this thread's generic-proxy writes to LDS (its cp.async
    copies, once waited for) are visible to wgmma, which reads through the async proxy; before
    the barrier that publishes them."""
    nvvm.FenceProxyOp(nvvm.ProxyKind.async_shared, space=nvvm.SharedSpace.shared_cta)


def settled(values: list[ir.Value]) -> list[ir.Value]:
    """`values` (i32) passed through an empty assembly statement with side effects: computed
    before it, where the next `fence` follows, so that LLVM does not sink their computation
    between the wgmmas that read them (ptxas would then fence each of those wgmmas itself,
    "warpgroup.arrive is injected")."""
    i32 = ir.IntegerType.get_signless(32)
    return [llvm.InlineAsmOp(i32, [v], "", "=r,0", has_side_effects=True).result for v in values]


def fence() -> None:
    """wgmma.fence: the accumulator and A registers written before are what the next wgmmas read."""
    nvvm.WgmmaFenceAlignedOp()


def commit() -> None:
    nvvm.WgmmaGroupSyncAlignedOp()


def wait(in_flight: int) -> None:
    nvvm.WgmmaWaitGroupSyncOp(in_flight)
