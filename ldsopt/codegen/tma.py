"""Hopper's tensor memory accelerator (TMA, sm_90a) as the kernels use it: tensor maps built on
the device, tile copies global -> LDS by one thread, and the mbarriers that count their bytes.

- A tensor map (128 bytes, PTX `.tensormap`) describes a global tensor: its address, dims and
  strides, the box a copy moves, the element type and the LDS swizzle. CUDA programs encode it
  on the host; IREE's runtime passes a kernel only its bindings, so it is made on the device:
  `build_descriptor`: warp 0 zero-fills 128 bytes of LDS and one lane writes the fields
  (`tensormap.replace`); `publish`: the warp copies it to global memory with the proxy fence
  the copy engine needs (`tensormap.cp_fenceproxy`); `acquire`: the issuing thread's fence
  before its copies read it (`fence.proxy.tensormap::generic.acquire`). Where the map lives in
  global memory is the caller's choice; it must be 128-byte aligned and private to the
  workgroup while its copies run.
- `load`: `cp.async.bulk.tensor` of one box at integer coordinates (innermost dim first) into
  LDS, completing bytes on an mbarrier; coordinates past the tensor read zeros (the hardware's
  fill), so tails need no guards.
- `store`: the reverse, one box from LDS to global memory, in a bulk async-group of the
  issuing thread (`commit`); elements past the tensor are not written. `wait_read` waits until
  the thread's groups have read their LDS (it may be written again), `wait_written` until
  their writes are done.
- mbarriers: `init` (once, by one thread, before a barrier), `expect_bytes` (the arrival that
  announces a phase's bytes, by the issuing thread), `wait` (every thread that reads the LDS
  the phase fills, by phase parity; NVVM's op loops until the phase completes).
The global stride field is written in bytes, as PTX defines it. (Triton writes it in 16-byte
units for PTX ISA 8.5 and older, against a ptxas defect; IREE 3.13 emits 8.4, and on the H200's
driver the byte strides are the ones that give the right values: bench/results/cuda-matmul/tma/.)
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, llvm, memref, nvvm, scf

MAP_BYTES = 128
MAP_ALIGNMENT = 128
ELEMTYPES = ("f16", "bf16")  # the 16-bit types the operand maps are built for
MAP_ELEMTYPES = ELEMTYPES + ("f32",)  # what build_descriptor takes (an f32 output's map too)


def _i(width: int) -> ir.Type:
    return ir.IntegerType.get_signless(width)


def shared_pointer(buf: ir.Value, byte_offset: ir.Value | None = None) -> ir.Value:
    """A `!llvm.ptr<3>` to LDS buffer `buf`'s first byte (plus `byte_offset`, an index)."""
    addr = memref.extract_aligned_pointer_as_index(buf)
    if byte_offset is not None:
        addr = arith.addi(addr, byte_offset)
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr<3>"), arith.index_cast(_i(64), addr))


def generic_pointer(address: ir.Value) -> ir.Value:
    """A generic `!llvm.ptr` at i64 `address`."""
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr"), address)


def build_descriptor(scratch: ir.Value, offset: int, lane: ir.Value, warp: ir.Value, address: ir.Value,
                     elem: ir.Type, dims: list[int], strides: list[int], box: list[int]) -> None:
    """Warp 0 builds the tensor map of the tensor at global `address` (i64) with `dims`
    (innermost first), byte `strides` of the outer dims and `box`, `elem` (MAP_ELEMTYPES) in the
    128-byte swizzle, in LDS `scratch` (an i8 buffer) at byte `offset` (MAP_BYTES). `lane`,
    `warp`: this thread's (index)."""
    if str(elem) not in MAP_ELEMTYPES:
        raise ValueError(f"no tensor map of {elem}")
    index = ir.IndexType.get()
    c = lambda v, w=32: arith.constant(_i(w), v)  # noqa: E731
    first = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, warp, arith.constant(index, 0)))
    with ir.InsertionPoint(first.then_block):
        base = arith.constant(index, offset)
        llvm.store(c(0), shared_pointer(scratch, arith.addi(base, arith.muli(lane, arith.constant(index, 4)))))
        _warp_sync()
        leader = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, lane, arith.constant(index, 0)))
        with ir.InsertionPoint(leader.then_block):
            at = shared_pointer(scratch, base)
            field = lambda name: ir.Attribute.parse(f"#nvvm.tensormap_field<{name}>")  # noqa: E731
            nvvm.tensormap_replace(field("global_address"), at, new_value=address)
            nvvm.tensormap_replace(field("rank"), at, new_value=c(len(dims) - 1))
            for i, (d, b) in enumerate(zip(dims, box)):
                nvvm.tensormap_replace(field("box_dim"), at, new_value=c(b), ord=i)
                nvvm.tensormap_replace(field("global_dim"), at, new_value=c(d), ord=i)
                nvvm.tensormap_replace(field("element_stride"), at, new_value=c(1), ord=i)
            for i, s in enumerate(strides):
                nvvm.tensormap_replace(field("global_stride"), at, new_value=c(s, 64), ord=i)
            nvvm.tensormap_replace(field("elemtype"), at, new_value_attr=ir.Attribute.parse(
                f"#nvvm.tensormap_elemtype<{elem}>"))
            nvvm.tensormap_replace(field("swizzle_mode"), at, new_value_attr=ir.Attribute.parse(
                "#nvvm.tensormap_swizzle_mode<b128>"))
            scf.yield_([])
        _warp_sync()
        scf.yield_([])


def publish(scratch: ir.Value, offset: int, warp: ir.Value, dest: ir.Value) -> None:
    """Warp 0 copies the tensor map at byte `offset` of LDS `scratch` to global `dest` (i64,
    MAP_ALIGNMENT-aligned), with the proxy fence that the copy engine's reads need."""
    index = ir.IndexType.get()
    first = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, warp, arith.constant(index, 0)))
    with ir.InsertionPoint(first.then_block):
        source = arith.index_cast(_i(32), arith.addi(memref.extract_aligned_pointer_as_index(scratch),
                                                     arith.constant(index, offset)))
        llvm.InlineAsmOp(None, [dest, source],
                         f"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
                         f"[$0], [$1], {MAP_BYTES};", "l,r", has_side_effects=True)
        scf.yield_([])


def acquire(dest: ir.Value) -> None:
    """The issuing thread's acquire of the tensor map published at global `dest` (i64)."""
    llvm.InlineAsmOp(None, [dest], f"fence.proxy.tensormap::generic.acquire.gpu [$0], {MAP_BYTES};", "l",
                     has_side_effects=True)


def _warp_sync() -> None:
    llvm.InlineAsmOp(None, [], "bar.warp.sync -1;", "", has_side_effects=True)


def init(bar: ir.Value, count: int) -> None:
    nvvm.mbarrier_init(bar, arith.constant(_i(32), count))


def fence_init() -> None:
    """Makes the mbarrier inits visible to the copy engine (before the barrier that publishes them)."""
    nvvm.fence_mbarrier_init()


def expect_bytes(bar: ir.Value, n: int) -> None:
    nvvm.mbarrier_arrive_expect_tx(bar, arith.constant(_i(32), n))


def wait(bar: ir.Value, parity: ir.Value) -> None:
    """Waits for the phase of parity `parity` (i32) of mbarrier `bar` to complete."""
    nvvm.mbarrier_try_wait_parity(bar, parity, arith.constant(_i(32), 0x989680))


def load(dest: ir.Value, desc: ir.Value, coords: list[ir.Value], bar: ir.Value,
         multicast: ir.Value | None = None) -> None:
    """One box of the tensor map at generic pointer `desc` at `coords` (i32, innermost first)
    into LDS `dest` (`!llvm.ptr<3>`), its bytes completed on mbarrier `bar`; with `multicast`
    (an i16 mask of cluster ranks), into the same LDS offset of each of those workgroups, the
    bytes completed on each one's mbarrier at `bar`'s offset."""
    cluster = llvm.addrspacecast(ir.Type.parse("!llvm.ptr<7>"), dest)  # PTX ISA 8.4 has the cluster form only
    nvvm.cp_async_bulk_tensor_shared_cluster_global(cluster, desc, coords, bar, [], multicast_mask=multicast)


def store(src: ir.Value, desc: ir.Value, coords: list[ir.Value]) -> None:
    """One box of the tensor map at generic pointer `desc` at `coords` (i32, innermost first)
    from LDS `src` (`!llvm.ptr<3>`), in this thread's current bulk async-group."""
    nvvm.cp_async_bulk_tensor_global_shared_cta(desc, src, coords)


def commit() -> None:
    """Closes this thread's bulk async-group of stores."""
    nvvm.cp_async_bulk_commit_group()


def wait_read(newer: int = 0) -> None:
    """Until at most `newer` of this thread's bulk groups still read their LDS."""
    nvvm.cp_async_bulk_wait_group(newer, read=True)


def wait_written(newer: int = 0) -> None:
    """Until at most `newer` of this thread's bulk groups are not yet written in full."""
    nvvm.cp_async_bulk_wait_group(newer)
