"""Thread block clusters on Hopper (sm_90a): the workgroups of a cluster run at once on
neighbouring SMs and each may read the others' LDS (distributed shared memory), which lets
them combine what they computed without a round trip through global memory or a second
dispatch.

- `set_cluster`: a compile-time cluster shape on the kernel (`nvvm.cluster_dim`, PTX
  `.reqnctapercluster`), which a plain launch honours: IREE's runtime launches such a kernel
  as any other, its grid a multiple of the shape. Workgroup (x, y) of a cluster of X x Y has
  rank x % X + (y % Y) X.
- `sync`: `barrier.cluster.arrive` (release) and `barrier.cluster.wait` (acquire) by every
  thread of every workgroup of the cluster: LDS written before it by any of them is seen by
  reads after it, and no workgroup runs past it (or exits, freeing its LDS) before all reach it.
- `store_remote` / `load_shared` / `load_remote`: LDS accesses by 32-bit shared-window
  address (16 bytes, 16 bytes, an f32), the remote ones mapped into workgroup `rank`'s LDS
  (`mapa.shared::cluster`): a remote store does not wait, where a remote load waits a round
  trip between SMs. PTX inline assembly, as NVVM's loads and stores take typed pointers the
  kernels do not build.
- `arrive_remote`: an arrival on the mbarrier at the same LDS address in workgroup `rank`: how
  a workgroup tells another that it is done with LDS the other writes. PTX's default
  semantics (release at CTA scope): the reads it orders are complete wgmma reads, and a
  cluster-scope release measured slower (bench/results/cuda-matmul/multicast/).
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, llvm, memref, nvvm

CLUSTER_DIM = "nvvm.cluster_dim"
PORTABLE_MOST = 8  # workgroups of a cluster every Hopper GPU schedules


def set_cluster(func: ir.Operation, x: int, y: int = 1) -> None:
    """Declares clusters of `x` by `y` workgroups along the grid's x and y on the kernel `func`."""
    func.attributes[CLUSTER_DIM] = ir.Attribute.parse(f"array<i32: {x}, {y}, 1>")


def sync() -> None:
    nvvm.cluster_arrive()
    nvvm.cluster_wait()


def shared_address(buf: ir.Value) -> ir.Value:
    """The 32-bit shared-window address of LDS buffer `buf`'s first byte."""
    return arith.index_cast(ir.IntegerType.get_signless(32), memref.extract_aligned_pointer_as_index(buf))


def store_remote(address: ir.Value, rank: ir.Value, values: list[ir.Value]) -> None:
    """Stores 4 f32 `values` at LDS `address` (16-byte aligned) of workgroup `rank` (i32) of
    this cluster: a remote store, which does not wait for its completion (`sync` does)."""
    asm = ("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, $0, $1;\n"
           "st.shared::cluster.v4.f32 [remote], {$2, $3, $4, $5};\n}\n")
    llvm.InlineAsmOp(None, [address, rank, *values], asm, "r,r,f,f,f,f", has_side_effects=True)


def load_shared(address: ir.Value) -> list[ir.Value]:
    """The 4 f32 at LDS `address` (16-byte aligned) of this workgroup."""
    f32 = ir.F32Type.get()
    loaded = llvm.InlineAsmOp(ir.Type.parse("!llvm.struct<(f32, f32, f32, f32)>"), [address],
                              "ld.shared.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,r",
                              has_side_effects=True).result
    return [llvm.ExtractValueOp(f32, loaded, [i]).result for i in range(4)]


def load_remote(address: ir.Value, rank: ir.Value) -> ir.Value:
    """The f32 at LDS `address` (i32, shared window) of workgroup `rank` (i32) of this
    cluster: a remote load, which waits a round trip between SMs."""
    asm = ("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, $1, $2;\n"
           "ld.shared::cluster.f32 $0, [remote];\n}\n")
    return llvm.InlineAsmOp(ir.F32Type.get(), [address, rank], asm, "=f,r,r", has_side_effects=True).result


def arrive_remote(address: ir.Value, rank: ir.Value) -> None:
    """One arrival on the mbarrier at LDS `address` (i32, shared window) of workgroup `rank`
    (i32) of this cluster."""
    asm = ("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, $0, $1;\n"
           "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n")
    llvm.InlineAsmOp(None, [address, rank], asm, "r,r", has_side_effects=True)
