"""Thread block clusters on Hopper (sm_90a): the workgroups of a cluster run at once on
neighbouring SMs and each may read the others' LDS (distributed shared memory), which lets
them combine what they computed without a round trip through global memory or a second
dispatch.

- `set_cluster`: a compile-time cluster shape on the kernel (`nvvm.cluster_dim`, PTX
  `.reqnctapercluster`), which a plain launch honours: IREE's runtime launches such a kernel
  as any other, its grid a multiple of the shape.
- `sync`: `barrier.cluster.arrive` (release) and `barrier.cluster.wait` (acquire) by every
  thread of every workgroup of the cluster: LDS written before it by any of them is seen by
  reads after it, and no workgroup runs past it (or exits, freeing its LDS) before all reach it.
- `store_shared` / `load_remote`: 16-byte LDS accesses by 32-bit shared-window address, the
  remote one mapped into workgroup `rank`'s LDS (`mapa.shared::cluster`); PTX inline assembly,
  as NVVM's loads take typed pointers the kernels do not build.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, llvm, memref, nvvm

CLUSTER_DIM = "nvvm.cluster_dim"
PORTABLE_MOST = 8  # workgroups of a cluster every Hopper GPU schedules


def set_cluster(func: ir.Operation, x: int) -> None:
    """Declares clusters of `x` workgroups along the grid's x on the kernel `func`."""
    func.attributes[CLUSTER_DIM] = ir.Attribute.parse(f"array<i32: {x}, 1, 1>")


def sync() -> None:
    nvvm.cluster_arrive()
    nvvm.cluster_wait()


def shared_address(buf: ir.Value) -> ir.Value:
    """The 32-bit shared-window address of LDS buffer `buf`'s first byte."""
    return arith.index_cast(ir.IntegerType.get_signless(32), memref.extract_aligned_pointer_as_index(buf))


def store_shared(address: ir.Value, values: list[ir.Value]) -> None:
    """Stores 4 f32 `values` at LDS `address` (16-byte aligned) of this workgroup."""
    llvm.InlineAsmOp(None, [address, *values], "st.shared.v4.f32 [$0], {$1, $2, $3, $4};", "r,f,f,f,f",
                     has_side_effects=True)


def load_remote(address: ir.Value, rank: ir.Value) -> list[ir.Value]:
    """The 4 f32 at LDS `address` (16-byte aligned) of workgroup `rank` (i32) of this cluster."""
    f32 = ir.F32Type.get()
    asm = ("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, $4, $5;\n"
           "ld.shared::cluster.v4.f32 {$0, $1, $2, $3}, [remote];\n}\n")
    loaded = llvm.InlineAsmOp(ir.Type.parse("!llvm.struct<(f32, f32, f32, f32)>"), [address, rank], asm,
                              "=f,=f,=f,=f,r,r", has_side_effects=True).result
    return [llvm.ExtractValueOp(f32, loaded, [i]).result for i in range(4)]
