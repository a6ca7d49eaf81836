"""The wgmma kernel's operand tiles copied by the tensor memory accelerator (ldsopt/codegen/tma.py)
instead of cp.async: one thread issues a K step's boxes, an mbarrier per LDS tile counts their
bytes, and every thread waits on it by phase parity before its wgmmas read the tile.

- Boxes: a K-contiguous operand's tile is one box of the K step's 64 elements (128 bytes) by
  its BM (BN) rows; an M/N-contiguous one's is a box of 64 M/N elements by the step's 64 K rows
  per 64-column block, one block after the other (wgmma_maps.SwizzledColumnBlocks). The copy
  engine writes each in the 128-byte swizzle, which is the layout wgmma's descriptors read.
- Tails: boxes past M, N or K read zeros, so the K tail adds nothing and rows past M or N feed
  outputs that are never stored.
- The tensor maps: built by warp 0 at the kernel's start and published in global memory where
  no other workgroup looks while the K loop runs: the output rows of this workgroup's cluster
  (its own tile's, unclustered), map i at the first 128-byte boundary of the band's row
  i / per row, which the output overwrites after the loop. Where the copy engine stores the
  output too (tma_store.py), the output's map follows the operands'.
- The mbarrier of LDS tile s completes one phase per K tile t = s, s + S, ...: the issuing
  thread's arrival announces the tile's bytes, the copies complete them; K tile t is waited for
  with parity (t / S) % 2. Tiles past the last K step are not issued (nothing waits for them).
- Multicast (`Multicast`, a cluster of CM x CN workgroups, x along N): the CN workgroups of a
  row band share A's tiles and the CM of a column share B's. Each issues slice x % CN of A's
  box (its rows, or K rows of an MN-major block, in whole 8-row swizzle groups) and slice
  y % CM of B's to all workgroups that share it, which each receive the whole tile's bytes on
  their own mbarrier. The copies are issued by a producer warp past the math warps (its lane
  0), which alone waits for other workgroups: before its copies refill an LDS tile, every
  workgroup they land in must be done with it. Each math warp, once its wgmmas of a K tile
  are done, arrives on a second mbarrier of that LDS tile in each workgroup that writes into
  it (CM + CN - 1 of them, itself included: count writers x math warps), and the producer
  waits for that phase. The math warps wait only for their data, S - 1 tiles ahead.
  Rank 0 alone builds and publishes the maps, in its band's rows, which the whole cluster
  reads: a cluster barrier after the mbarriers' inits publishes both, and one after the K
  loops keeps the output from overwriting them while any workgroup still issues copies.

Refused (`refusal`, the kernel keeps cp.async): operands that are not whole bindings of a static
row-major layout (slices, convolutions' gathers, fused prologues), a loaded init or an epilogue
input bound to the output (the output holds the maps while the loop runs), an N that the tiles do
not divide or a band too narrow or short to hold the maps (a 128-byte map at a 128-byte boundary a
row; unshared, both in the tile's first row), a K split over a cluster, a K step other than 64
elements of a 16-bit type, a shared K loop no longer than its cp.async tiles, and a plan that
leaves no LDS for the mbarriers and the maps. A cluster shape is refused (`multicast_refusal`) where
the tiles do not fill whole clusters, a shared box does not split into whole swizzle groups, or the
cluster is larger than a portable one.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf

from ldsopt.codegen import cluster, tma
from ldsopt.codegen.kernel import lds_alloc
from ldsopt.codegen.dispatch import Binding
from ldsopt.ir_types import element_bits

BOX_K = 64  # elements of a K step: one 128-byte swizzled row of a 16-bit type
MN_BLOCK = 64  # M/N elements of one box of an M/N-contiguous operand


SWIZZLE_ROWS = 8  # rows of one 128-byte swizzle pattern: a slice of a box starts on one


@dataclasses.dataclass(frozen=True)
class Multicast:
    """The cluster whose workgroups share their operands' boxes: `cm` along M (sharing B's),
    `cn` along N (sharing A's); 1 x 1: none."""

    cm: int = 1
    cn: int = 1

    @classmethod
    def parse(cls, text: str) -> "Multicast":
        parts = text.lower().split("x")
        if len(parts) != 2 or not all(x.isdigit() and int(x) >= 1 for x in parts):
            raise ValueError(f"'{text}' is not CMxCN with CM, CN at least 1")
        return cls(int(parts[0]), int(parts[1]))

    @property
    def shared(self) -> bool:
        return self.cm * self.cn > 1

    @property
    def writers(self) -> int:
        """Workgroups whose copies land in each one's LDS (itself included)."""
        return self.cm + self.cn - 1

    def count(self, role: str) -> int:
        """Workgroups that share operand `role`'s boxes."""
        return self.cn if role == "A" else self.cm

    def __str__(self) -> str:
        return f"{self.cm}x{self.cn}"


def check_multicast(text: str) -> None:
    """CMxCN: workgroups of a cluster along M and along N (1x1: no cluster)"""
    Multicast.parse(text)


def lds_bytes(pl, multicast: Multicast = Multicast()) -> int:
    """LDS the TMA copies take beside the plan's tiles: an mbarrier per LDS tile (two under a
    multicast), the maps' scratch, and the alignment of each."""
    return 8 * pl.stages * (2 if multicast.shared else 1) + tma.MAP_BYTES * len(pl.staging) + tma.MAP_ALIGNMENT


def maps_per_row(em, multicast: Multicast) -> int:
    """Maps each output row of the cluster's band holds at 128-byte boundaries, whatever the
    row's own alignment."""
    width = multicast.cn * em.pl.tiling.bn * element_bits(em.p.output.tensor_type.element_type) // 8
    return max(0, (width - tma.MAP_ALIGNMENT + 1) // tma.MAP_BYTES)


def multicast_refusal(em, multicast: Multicast) -> str | None:
    """Why the kernel `em` cannot share its boxes over clusters of `multicast`; None if it can."""
    if not multicast.shared:
        return None
    if em.p.row_stats:
        return "row sums (their barriers are the whole workgroup's)"
    if multicast.cm * multicast.cn > cluster.PORTABLE_MOST:
        return f"a cluster of {multicast.cm * multicast.cn} workgroups, more than {cluster.PORTABLE_MOST}"
    gx, gy, _ = em.pl.grid(em.p.sizes)
    if gx % multicast.cn or gy % multicast.cm:
        return f"{gy}x{gx} tiles that clusters of {multicast} do not fill"
    for role in em.pl.staging:
        rows, count = em.pl.staging[role].tile[0], multicast.count(role)
        if rows % (SWIZZLE_ROWS * count):
            return f"operand {role}'s box of {rows} rows in {count} slices of whole swizzle groups"
    return None


def _static(t: ir.RankedTensorType) -> bool:
    return all(d >= 0 for d in t.shape)


def refusal(em, lds_budget: int, multicast: Multicast = Multicast()) -> str | None:
    """Why the kernel `em` (a WgmmaEmitter) cannot take its operands by TMA within `lds_budget`
    bytes of LDS a workgroup, shared over clusters of `multicast`; None if it can."""
    p, pl = em.p, em.pl
    if pl.lds_bytes(element_bits(p.elem_type) // 8) + lds_bytes(pl, multicast) > lds_budget:
        return "no LDS left for the mbarriers and the maps"
    if pl.split > 1:
        return "a K split over a cluster"
    if pl.bk != BOX_K or str(p.elem_type) not in tma.ELEMTYPES:
        return f"a K step of {pl.bk} {p.elem_type}"
    if p.prologues or p.view is not None:
        return "an operand computed by a prologue or gathered by a convolution"
    for role, b in p.operands.items():
        if b.is_slice or not _static(b.tensor_type):
            return f"operand {role} is a slice or has a dynamic shape"
        if b.tensor_type.shape[-1] * element_bits(p.elem_type) // 8 % 16:
            return f"operand {role}'s rows are not a multiple of 16 bytes"
    if isinstance(p.init, Binding) or p.output.slice is not None or not _static(p.output.tensor_type):
        return "a loaded init, or an output slice"
    if p.epilogue and any(x is not None and isinstance(x[0], Binding) and x[0].source == p.output.source
                          for x in p.epilogue.inputs):
        return "an epilogue input bound to the output"
    if p.sizes["n"] % pl.tiling.bn:
        return "an N tail"
    if multicast.shared and em.n_steps < pl.stages:
        return f"{em.n_steps} K steps, all copied by the prologue's cp.async"
    return multicast_refusal(em, multicast) or maps_refusal(em, multicast, len(pl.staging))


def maps_refusal(em, multicast: Multicast, count: int) -> str | None:
    """Why the output rows of the kernel `em`'s band cannot hold `count` tensor maps; None if
    they can."""
    pl, p = em.pl, em.p
    per_row = maps_per_row(em, multicast)
    band = p.sizes["m"] - (pl.grid(p.sizes)[1] // multicast.cm - 1) * multicast.cm * pl.tiling.bm
    if not multicast.shared and per_row < count:
        # Unshared, a map a row measured slower than cp.async on the BERT-size products
        # (bench/results/cuda-matmul/tma-rows/): the maps' chain delays the first copies.
        return f"an output tile row too short to hold all {count} tensor maps"
    if not per_row or min(band, pl.tiling.bm) < math.ceil(count / per_row):
        return "output rows too narrow or too few to hold the tensor maps"
    return None


def tensor_dims(shape: list[int], elem_bytes: int) -> tuple[list[int], list[int]]:
    """Dims (innermost first) and byte strides of the outer dims of a row-major tensor of `shape`."""
    dims = list(shape)[::-1]
    return dims, [math.prod(dims[:i + 1]) * elem_bytes for i in range(len(dims) - 1)]


class TmaOperands:
    """The TMA copies of the kernel `em`'s operands, shared over clusters of `multicast` (module doc)."""

    def __init__(self, em, multicast: Multicast = Multicast()):
        self.em, self.mc = em, multicast
        # Under a multicast a producer warp past the tile's threads issues the copies (its
        # lane 0) and waits for the writers' releases, so that the math warps never do.
        self.issuer_tid = em.pl.tiling.threads if multicast.shared else 0
        self.bars = self._barriers()
        self.empty = self._barriers() if multicast.shared else None
        self.roles = list(em.pl.staging)
        # the operands' maps, then the output's where the copy engine stores it (tma_store.py)
        self.maps = self.roles + (["out"] if em.tma_store is not None else [])
        self.scratch = lds_alloc([tma.MAP_BYTES * len(self.maps)], ir.IntegerType.get_signless(8), tma.MAP_ALIGNMENT)
        self.bytes = sum(math.prod(s.lds_shape[1:]) for s in em.pl.staging.values()) \
            * element_bits(em.p.elem_type) // 8

    def _barriers(self) -> ir.Value:
        """One mbarrier per LDS tile."""
        return lds_alloc([self.em.pl.stages], ir.IntegerType.get_signless(64), 8)

    # --- at the kernel's start ---

    def build(self) -> None:
        """Thread 0 inits the mbarriers, warp 0 of the publishing workgroup builds the tensor
        maps in LDS."""
        em, k = self.em, self.em.k
        self.first = arith.cmpi(arith.CmpIPredicate.eq, em.tid, k.const(0))
        self.issuer = arith.cmpi(arith.CmpIPredicate.eq, em.tid, k.const(self.issuer_tid)) if self.issuer_tid \
            else self.first
        self.lane, self.warp = arith.remui(em.tid, k.const(32)), arith.divui(em.tid, k.const(32))
        self._ranks()
        with em.when(self.publisher):
            for i, name in enumerate(self.maps):
                mem, elem, box = (em.out, em.tma_store.elem, em.tma_store.box) if name == "out" else \
                    (em.mem[name], em.p.elem_type, self._box(name))
                dims, strides = tensor_dims(ir.MemRefType(mem.type).shape, element_bits(elem) // 8)
                tma.build_descriptor(self.scratch, i * tma.MAP_BYTES, self.lane, self.warp,
                                     self._global_address(mem), elem, dims, strides, box)
        only = scf.IfOp(self.first)
        with ir.InsertionPoint(only.then_block):
            for s in range(em.pl.stages):
                tma.init(self._bar(k.const(s)), 1)
                if self.empty is not None:
                    tma.init(self._bar(k.const(s), self.empty), self.mc.writers * em.pl.tiling.threads // 32)
            tma.fence_init()
            scf.yield_([])

    def _ranks(self) -> None:
        """This workgroup's place in its cluster: `part` of each operand's shared box it issues,
        the origin of its cluster's output `band`, whether it publishes the maps (None: it is
        alone), the masks of
        the workgroups that share each box, and (each math warp's lanes) the writer into its
        LDS whose mbarriers each lane arrives on. Unshared: the whole boxes, its own tile."""
        em, k, mc = self.em, self.em.k, self.mc
        if not mc.shared:  # a tile walk's last tile, which it stores last (persistent.py)
            band = em.walk.last_origin() if em.walk is not None else em.origin
            self.band = (band["m"], band["n"])
            self.publisher = None
            return
        i16, i32 = ir.IntegerType.get_signless(16), ir.IntegerType.get_signless(32)
        rank_n = arith.remui(k.block_id("x"), k.const(mc.cn))
        rank_m = arith.remui(k.block_id("y"), k.const(mc.cm))
        self.part = {"A": rank_n, "B": rank_m}
        self.band = (arith.subi(em.origin["m"], arith.muli(rank_m, k.const(em.pl.tiling.bm))),
                     arith.subi(em.origin["n"], arith.muli(rank_n, k.const(em.pl.tiling.bn))))
        self.publisher = arith.cmpi(arith.CmpIPredicate.eq, arith.addi(rank_n, rank_m), k.const(0))
        row = sum(1 << i for i in range(mc.cn))
        column = sum(1 << (i * mc.cn) for i in range(mc.cm))
        as_i16 = lambda x: arith.index_cast(i16, x)  # noqa: E731
        self.mask = {"A": as_i16(arith.shli(k.const(row), arith.muli(rank_m, k.const(mc.cn)))),
                     "B": as_i16(arith.shli(k.const(column), rank_n))}
        # lane i < CN: row peer i; then the column's others, in order past this workgroup's row.
        j = arith.subi(self.lane, k.const(mc.cn))
        j = arith.addi(j, arith.select(arith.cmpi(arith.CmpIPredicate.uge, j, rank_m), k.const(1), k.const(0)))
        in_row = arith.cmpi(arith.CmpIPredicate.ult, self.lane, k.const(mc.cn))
        peer = arith.select(in_row, arith.addi(arith.muli(rank_m, k.const(mc.cn)), self.lane),
                            arith.addi(rank_n, arith.muli(j, k.const(mc.cn))))
        self.peer = arith.index_cast(i32, peer)
        # every math warp releases, from its lanes < writers
        self.releasing = arith.andi(arith.cmpi(arith.CmpIPredicate.ult, em.tid, k.const(em.pl.tiling.threads)),
                                    arith.cmpi(arith.CmpIPredicate.ult, self.lane, k.const(mc.writers)))

    def publish(self) -> None:
        """Warp 0 of the publishing workgroup copies the maps to its band's output rows."""
        self.desc = dict(zip(self.maps, self._map_addresses()))
        with self.em.when(self.publisher):
            for i, name in enumerate(self.maps):
                tma.publish(self.scratch, i * tma.MAP_BYTES, self.warp, self.desc[name])
        self.pointers = {r: tma.generic_pointer(d) for r, d in self.desc.items()}

    def start(self) -> None:
        """After the barrier that publishes the mbarriers' inits and the maps (a cluster barrier
        under a multicast): the thread that issues the copies acquires the maps."""
        only = scf.IfOp(self.issuer)
        with ir.InsertionPoint(only.then_block):
            for name in self.maps:
                tma.acquire(self.desc[name])
            scf.yield_([])

    def _map_addresses(self) -> list[ir.Value]:
        """Where the maps go (i64): map i in slot i % per row at the first 128-byte boundary of
        row i / per row of the band (`maps_per_row`)."""
        em, k = self.em, self.em.k
        i64 = ir.IntegerType.get_signless(64)
        per_row = maps_per_row(em, self.mc)
        rows = []
        for r in range(math.ceil(len(self.maps) / per_row)):
            at = self._element_address(em.out, em.output_index(em.offset(self.band[0], r), self.band[1]),
                                       element_bits(em.p.output.tensor_type.element_type) // 8)
            rows.append(arith.andi(arith.addi(at, k.const(tma.MAP_ALIGNMENT - 1, i64)),
                                   k.const(-tma.MAP_ALIGNMENT, i64)))
        return [arith.addi(rows[i // per_row], k.const(i % per_row * tma.MAP_BYTES, i64)) if i % per_row
                else rows[i // per_row] for i in range(len(self.maps))]

    def _element_address(self, mem: ir.Value, idx: list[ir.Value], elem_bytes: int) -> ir.Value:
        i64 = ir.IntegerType.get_signless(64)
        shape = ir.MemRefType(mem.type).shape
        linear = None
        for i, x in enumerate(idx):
            term = arith.muli(x, self.em.k.const(math.prod(shape[i + 1:])))
            linear = term if linear is None else arith.addi(linear, term)
        return arith.addi(self._global_address(mem), arith.index_cast(i64, arith.muli(linear, self.em.k.const(elem_bytes))))

    def _global_address(self, mem: ir.Value) -> ir.Value:
        """The i64 address of `mem`'s first element (its base plus its offset)."""
        meta = memref.ExtractStridedMetadataOp(mem)
        base = memref.extract_aligned_pointer_as_index(mem)
        elem_bytes = element_bits(ir.MemRefType(mem.type).element_type) // 8
        at = arith.addi(base, arith.muli(meta.offset, self.em.k.const(elem_bytes)))
        return arith.index_cast(ir.IntegerType.get_signless(64), at)

    # --- the tensor and its boxes ---

    def _full_index(self, role: str, r, c) -> list:
        """Operand `role`'s tensor index (outermost first) of its matrix element (r, c): its outer
        matrix dim at r, its contiguous one at c, the batch dims at this workgroup's."""
        return self.em.p.operand_index(role, self.em.batch, [r, c])

    def _box(self, role: str) -> list[int]:
        """The box (innermost first): 64 elements along the contiguous dim, the tile's extent
        along the outer matrix dim (BM/BN rows, or the K step's rows), 1 along the batch dims."""
        s = self.em.pl.staging[role]
        box = {"r": s.tile[0] // self.mc.count(role), "c": BOX_K if s.k_contiguous else MN_BLOCK}
        p = self.em.p
        batch_dims = len(p.batch_shape) if p.batch_shape else int(p.batched)
        return [box.get(x, 1) for x in p.operand_index(role, ["b"] * batch_dims, ["r", "c"])][::-1]

    def _bar(self, s: ir.Value, bars: ir.Value | None = None) -> ir.Value:
        """The mbarrier of LDS tile `s` among `bars` (the copies' by default)."""
        return tma.shared_pointer(self.bars if bars is None else bars, arith.muli(s, self.em.k.const(8)))

    # --- each K tile ---

    def slot(self, tile: ir.Value) -> ir.Value:
        """The LDS tile of K tile `tile`: the K tiles take them in turn."""
        return arith.remui(tile, self.em.k.const(self.em.pl.stages))

    @property
    def ahead(self) -> int:
        """K tiles the copies run ahead of the products: tile kt + ahead is issued once the
        step kt - 1 is done with its LDS tile."""
        return self.em.pl.stages - 1

    @property
    def by_cp_async(self) -> int:
        """The first K tiles, copied by the math warps' cp.async under a multicast (started
        before the maps are built, whose chain of fences would delay the first copies of the
        whole cluster); none unshared."""
        return self.ahead if self.mc.shared else 0

    def release(self, step: ir.Value) -> None:
        """Under a multicast, at K step `step` of a math warp, once its wgmmas of K tile step - 1
        are done: its lanes arrive on that LDS tile's empty mbarrier in each workgroup that
        writes into it (where a later K tile refills it: the writers wait for those arrivals
        only)."""
        k, i32 = self.em.k, ir.IntegerType.get_signless(32)
        stages = self.em.pl.stages
        last = self.em.n_steps - stages + 1  # the steps 1 <= step < last release a tile refilled
        if not self.mc.shared or last <= 1:
            return
        refilled = arith.andi(arith.cmpi(arith.CmpIPredicate.uge, step, k.const(1)),
                              arith.cmpi(arith.CmpIPredicate.ult, step, k.const(last)))
        release = scf.IfOp(arith.andi(refilled, self.releasing))
        with ir.InsertionPoint(release.then_block):
            empty = arith.index_cast(i32, memref.extract_aligned_pointer_as_index(self.empty))
            slot = self.slot(arith.addi(step, k.const(stages - 1)))  # (step - 1) % S
            cluster.arrive_remote(arith.addi(empty, arith.index_cast(i32, arith.muli(slot, k.const(8)))), self.peer)
            scf.yield_([])

    def produce(self) -> None:
        """The producer warp's loop (under a multicast): each TMA tile in K order, issued as soon
        as the workgroups it lands in have released its LDS tile."""
        k = self.em.k
        loop = scf.ForOp(k.const(self.by_cp_async), k.const(self.em.n_steps), k.const(1))
        with ir.InsertionPoint(loop.body):
            self.issue(loop.induction_variable)
            scf.yield_([])

    def issue(self, tile: ir.Value) -> None:
        """The issuing thread announces K tile `tile`'s bytes and starts its boxes (its slices
        of them, to the workgroups that share them) into its LDS tile, under a multicast once
        the workgroups it writes into have released the K tile S before. A tile past the last
        K step: nothing."""
        em, k, stages = self.em, self.em.k, self.em.pl.stages
        eb = element_bits(em.p.elem_type) // 8
        buf = self.slot(tile)
        i32 = ir.IntegerType.get_signless(32)
        k_tile, origin, live = self._place(tile)
        go = scf.IfOp(arith.andi(self.issuer, live))
        with ir.InsertionPoint(go.then_block):
            if self.mc.shared:
                freed = scf.IfOp(arith.cmpi(arith.CmpIPredicate.uge, tile, k.const(stages)))
                with ir.InsertionPoint(freed.then_block):
                    # the phase of the K tile S before: (tile / S - 1) % 2
                    phase = arith.remui(arith.addi(arith.divui(tile, k.const(stages)), k.const(1)), k.const(2))
                    tma.wait(self._bar(buf, self.empty), arith.index_cast(i32, phase))
                    scf.yield_([])
            bar = self._bar(buf)
            tma.expect_bytes(bar, self.bytes)
            k0 = arith.muli(k_tile, k.const(em.pl.bk))  # no K split (`refusal`)
            for role in self.roles:
                s = em.pl.staging[role]
                start = arith.muli(buf, k.const(math.prod(s.lds_shape[1:]) * eb))
                # this workgroup's slice of a shared box: rows (K-major) or K rows (MN-major) part * rows in
                skip = None
                if self.mc.count(role) > 1:
                    skip = arith.muli(self.part[role], k.const(s.tile[0] // self.mc.count(role)))
                    start = arith.addi(start, arith.muli(skip, k.const(BOX_K * eb)))
                # K-major: one box of the tile's rows; MN-major: one per 64-column block, K rows down.
                for j in range(1 if s.k_contiguous else s.tile[1] // MN_BLOCK):
                    if s.dims[0] == "k":
                        r, c = k0, em.offset(origin[s.dims[1]], j * MN_BLOCK)
                    else:
                        r, c = origin[s.dims[0]], k0
                    if skip is not None:
                        r = arith.addi(r, skip)
                    coords = [arith.index_cast(i32, x) for x in self._full_index(role, r, c)[::-1]]
                    dest = tma.shared_pointer(em.lds[role], arith.addi(start, k.const(j * MN_BLOCK * BOX_K * eb)))
                    tma.load(dest, self.pointers[role], coords, bar,
                             self.mask[role] if self.mc.count(role) > 1 else None)
            scf.yield_([])

    def _place(self, it: ir.Value) -> tuple[ir.Value, dict[str, ir.Value], ir.Value]:
        """(K tile, output tile origin, whether issued at all) of pipeline iteration `it`: the
        workgroup's own tile's K tile `it` below its steps, or under a tile walk (persistent.py)
        its j-th tile's K tile below all its tiles' steps."""
        em, k = self.em, self.em.k
        if em.walk is None:
            return it, em.origin, arith.cmpi(arith.CmpIPredicate.ult, it, k.const(em.n_steps))
        j, k_tile = em.walk.of_iteration(it)
        return k_tile, em.walk.origin(j), arith.cmpi(arith.CmpIPredicate.ult, it, em.walk.iterations)

    def wait(self, tile: ir.Value) -> None:
        """Every thread waits for K tile `tile`'s bytes (a TMA tile of the K steps: its LDS
        tile's mbarrier has completed a phase for each TMA tile before it there)."""
        k = self.em.k
        phase = arith.divui(self.em.offset(tile, -self.by_cp_async), k.const(self.em.pl.stages))
        parity = arith.index_cast(ir.IntegerType.get_signless(32), arith.remui(phase, k.const(2)))
        tma.wait(self._bar(self.slot(tile)), parity)

