"""The wgmma scheme's product and output (schemes.WgmmaScheme, sm_90a): Hopper's warpgroup
matrix multiply, emitted as NVVM's `nvvm.wgmma.*` ops, which IREE's CUDA lowering turns into
PTX `wgmma.mma_async` (inline assembly of the NVVM-to-LLVM patterns).

- LDS: each operand's tile is BM (BN) rows of the 64-element K step, 128 bytes a row, in the
  128-byte swizzle (16-byte unit u of row r at unit u ^ r % 8, `wgmma_maps.SwizzledRows`), copied
  there without registers (the direct-to-LDS idea of seed 003 on NVIDIA): by the tensor memory
  accelerator where the kernel allows it (`tma`, ldsopt/matmul/tma_copy.py: one thread a K
  step, the engine writing the swizzle), else by cp.async (copy.CpAsyncRows); each LDS tile
  1024-byte aligned (`alignment` on its `memref.alloc`; the swizzle
  XORs address bits, so the tile must start where its pattern does).
  An operand contiguous along M or N (A [k, m], B [k, n]) is held MN-major, as wgmma reads a
  16-bit operand transposed: each block of 64 M/N columns is its 64 K rows of 128 bytes in
  that swizzle, one block after the other (`wgmma_maps.SwizzledColumnBlocks`).
- Descriptors: an operand in that swizzle is described by one 64-bit matrix descriptor (the
  start address / 16 in bits 0-13, the leading byte offset / 16 in 16-29, the stride byte
  offset / 16 in 32-45, the swizzle mode in 62-63, 1 = 128 bytes). K-major: the stride is 1024
  bytes from one 8-row group to the next, the leading offset unused (1); the 16-element K
  slice j starts 32 j bytes into the rows (the hardware applies the swizzle to the address it
  forms). MN-major: the stride is 1024 bytes from one 8-K-row group to the next, the leading
  offset the 8 KiB from one 64-column block to the next; K slice j starts 16 j rows (2 KiB j)
  in. The descriptor of K slice j of LDS tile b is the base one plus (b * tile bytes + slab +
  slice) / 16; warpgroup g's A slab starts 8 KiB g in (64 rows, or the g-th 64-column
  block).
- The K loop (S >= 3 LDS tiles; the copies run S - 1 tiles ahead): step kt fences the
  accumulator registers (`wgmma.fence`), issues BK / 16 wgmmas m64nBNk16 on tile kt % S into
  the accumulator, commits them as one group and waits until at most that group is in flight
  (`wgmma.wait_group 1`: step kt - 1's are done, this step's run on); then waits for tile
  kt + 1's copies (`cp.async.wait_group S - 3`), makes them visible to the async proxy that
  wgmma reads through (`fence.proxy.async.shared::cta`, each thread for its own copies), and
  one barrier: tile kt + 1 is published, and every warpgroup is done with tile kt - 1, into
  whose LDS tile the copies of tile kt + S - 1 then start. After the loop, `wgmma.wait_group 0`.
  By TMA the same loop waits on tile kt + 1's mbarrier instead (each thread, by phase parity:
  the bytes are in LDS and visible to wgmma's proxy), and thread 0 issues tile kt + S - 1's
  boxes after the barrier. With the boxes shared over a cluster (`multicast`,
  tma_copy.Multicast: the workgroups of a row band share A's, those of a column B's), the
  kernel declares the cluster and a producer warp past the math warps: its loop issues each
  tile once the workgroups it lands in released its LDS tile; the math warps' loop releases
  tile kt - 1's to them after `wait.group 1` and waits for tile kt + 1, with no workgroup
  barrier. The first S - 1 tiles are the math warps' cp.async ones (landed before the loop,
  while warp 0 builds the maps), and their barriers after the loops are named ones of the
  math warps alone.
- The accumulator: one `!llvm.struct` of BN / 2 f32 per thread, the m16n8 C layout of mma.sync
  along N (lane l of warp w of the warpgroup holds rows 16 w + l / 4 (+ 8), columns 8 i + 2 (l
  % 4) (+ 1) of each 8 columns i), stored by the OutputWriter (output.py) in 2-element pieces:
  into the output stage where the LDS the operands leave holds it (the tile then leaves in
  16-byte row pieces), else straight to the output.
- A K split over a cluster (`MatmulPlan.split` = S > 1, planner.split_fits): the kernel is
  declared with clusters of S workgroups along x (codegen/cluster.py); workgroup x multiplies
  the K steps of chunk x % S of tile x / S. After its products, the rows of warp w are summed
  by the workgroup of rank w % S: once the cluster syncs (every workgroup's operand tiles are
  free), the others store their partial sums into its LDS (remote 16-byte stores through
  `mapa`, which do not wait, into the operands' tiles), the cluster syncs again, the summing
  warps add them from their own LDS in rank order from their own, and alone run the
  consumer and store (no output stage under a split). The sum is deterministic: its order,
  and so its rounding, is the plan's.
- Row sums of A shared over a cluster (`MatmulPlan.row_share` = C > 1, row_stats.py): the
  kernel is declared with clusters of C workgroups along x, C N tiles of one row band, which
  sum every C-th K step of their rows each and add the C partial sums after the loop.
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, llvm, nvvm, scf, vector

from ldsopt.codegen import cluster, wgmma
from ldsopt.codegen.async_copy import async_wait
from ldsopt.layout.tile_layout import ATTR, TileLayout
from ldsopt.matmul import planner, tma_copy, tma_store
from ldsopt.matmul.emit import Emitter
from ldsopt.matmul.planner import pow2_dividing
from ldsopt.matmul.tma_copy import Multicast, TmaOperands


class WgmmaEmitter(Emitter):
    """Hopper's warpgroup MMA on operands in swizzled LDS rows (module doc)."""

    CLUSTERS = True
    ROW_SUMS_LAST = True
    WALK_ITERATIONS = True  # a walk's TMA copies count its iterations on their mbarriers (tma_copy.py)

    def __init__(self, *args, tma_budget: int | None = None, multicast: Multicast = Multicast(),
                 tma_store_buffers: int = 0, **kwargs):
        """`tma_budget`: the LDS bytes a workgroup may take where the operands may be copied by
        TMA (`tma_copy.refusal`), None where they may not; `multicast`: the cluster that shares
        them where the kernel takes TMA and that cluster (else unshared, `multicast_refused`
        says why); `tma_store_buffers`: a walking kernel's tiles (`walk_tiles`) stored by TMA where
        they can be (tma_store.py), a tile in parts through that many part buffers (0: not)."""
        super().__init__(*args, **kwargs)
        self.tma_store_buffers = tma_store_buffers
        if self.pl.stages < 3:
            raise ValueError(f"the wgmma scheme needs 3 LDS tiles or more (the plan has {self.pl.stages})")
        self.acc_struct = wgmma.acc_struct(self.pl.tiling.bn)
        if self.pl.split > 1 or self.pl.row_share > 1:
            cluster.set_cluster(self.d.func, self.pl.split * self.pl.row_share)
        self.tma: TmaOperands | None = None
        self.multicast, self.multicast_refused = Multicast(), None
        if multicast.shared:
            self.multicast_refused = "no TMA copies (tma=false)" if tma_budget is None else \
                tma_copy.refusal(self, tma_budget, multicast)
            self.multicast = Multicast() if self.multicast_refused else multicast
        self.by_tma = tma_budget is not None and tma_copy.refusal(self, tma_budget, self.multicast) is None
        self.extra_lds += tma_copy.lds_bytes(self.pl, self.multicast) if self.by_tma else 0
        if self.multicast.shared:
            cluster.set_cluster(self.d.func, self.multicast.cn, self.multicast.cm)
            # a producer warp past the math warps issues the copies (tma_copy.TmaOperands)
            self.k.workgroup_size = (self.pl.tiling.threads + 32, 1, 1)
            self.early_epilogue = False  # the producer warp's threads read no epilogue operand

    @property
    def producing(self) -> bool:
        """Whether a producer warp issues the copies (under a multicast)."""
        return self.multicast.shared

    def _math_warps(self) -> ir.Value:
        """Whether this thread is one of the tile's math warps' (not the producer warp's)."""
        return arith.cmpi(arith.CmpIPredicate.ult, self.tid, self.k.const(self.pl.tiling.threads))

    def walk_refusal(self) -> str | None:
        if not self.by_tma:
            return "its operands are not copied by TMA"
        if self.multicast.shared:
            return "it runs in clusters (a multicast or a K split)"
        return None

    def barrier(self) -> None:
        """With a producer warp, a barrier of the math warps alone (named barrier 1)."""
        if not self.producing:
            return super().barrier()
        i32 = ir.IntegerType.get_signless(32)
        nvvm.barrier(barrier_id=arith.constant(i32, 1),
                     number_of_threads=arith.constant(i32, self.pl.tiling.threads))

    def plan_output_stage(self, lds_left: int):
        """No output stage under a K split: its barriers would sit in the branch of the warps
        that store (`store`). A walking kernel's stage is drained by TMA stores where one column
        block fits, the tile leaving in as few parts as fit (tma_store.py)."""
        if self.pl.split > 1:
            return None
        if self.tma_store_buffers and tma_store.refusal(self) is None:
            store = tma_store.fitting(self, lds_left, self.tma_store_buffers)
            if store is not None:
                self.tma_store, self.output_stage = store, store.stage
                return self.output_stage
        return super().plan_output_stage(lds_left)

    # --- LDS and descriptors ---

    def _alloc(self, s: TileLayout) -> ir.Value:
        buf = wgmma.alloc_swizzled(list(s.lds_shape), self.p.elem_type)
        buf.owner.attributes[ATTR] = s.attr()
        return buf

    def _descriptors(self) -> None:
        """Each operand's base descriptor (its LDS tile 0, this warpgroup's slab of A)."""
        self.desc = {}
        for role, buf in self.lds.items():
            # this warpgroup's 64 rows of A
            slab = arith.muli(self.warpgroup, self.k.const(self.pl.scheme.M * self._row_bytes())) if role == "A" else None
            # K-major: unused; MN-major: from one 64-column block of bk rows to the next.
            leading = 0 if self.pl.staging[role].k_contiguous else self._row_bytes() * self.pl.bk
            self.desc[role] = wgmma.descriptor(self.k.const, buf, leading, slab)

    def _row_bytes(self) -> int:
        return self.pl.bk * self.elem_bytes

    @property
    def elem_bytes(self) -> int:
        return ir.FloatType(self.p.elem_type).width // 8

    def _descriptor(self, role: str, buf_units: ir.Value, j: int) -> ir.Value:
        """The descriptor of K slice j (16 elements) of the LDS tile `buf_units` / 16 bytes in:
        16 j elements into its rows (K-major), or 16 j rows down (MN-major)."""
        i64 = ir.IntegerType.get_signless(64)
        step = self.pl.scheme.K * (self.elem_bytes if self.pl.staging[role].k_contiguous else self._row_bytes())
        return arith.addi(arith.addi(self.desc[role], buf_units), self.k.const(j * step // 16, i64))

    # --- the scheme's part of the kernel ---

    def thread_origins(self) -> None:
        k = self.k
        self.warpgroup = arith.divui(self.tid, k.const(128))
        warp = arith.remui(arith.divui(self.tid, k.const(32)), k.const(4))
        lane = arith.remui(self.tid, k.const(32))
        self.frag_origin = {
            "A": arith.addi(arith.muli(self.warpgroup, k.const(self.pl.scheme.M)),
                            arith.addi(arith.muli(warp, k.const(16)), arith.divui(lane, k.const(4)))),
            "B": arith.muli(arith.remui(lane, k.const(4)), k.const(2))}
        self._descriptors()
        if self.by_tma:
            self.tma = TmaOperands(self, self.multicast)

    def acc_init(self, value: ir.Value) -> list[ir.Value]:
        return [wgmma.acc_splat(self.pl.tiling.bn, value)]

    def k_group(self) -> int:
        return self.pl.bk

    def multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value],
                 fragments: list[ir.Value] | None = None) -> list[ir.Value]:
        """Issues the wgmmas of LDS tile `buf` (all of its K step) and commits them as a group."""
        i64 = ir.IntegerType.get_signless(64)
        sch = self.pl.scheme
        tile_bytes = {r: math.prod(s.lds_shape[1:]) * self.elem_bytes for r, s in self.pl.staging.items()}
        units = {r: arith.index_cast(i64, arith.muli(buf, self.k.const(b // 16))) for r, b in tile_bytes.items()}
        (value,) = acc
        wgmma.fence()
        for j in range(self.pl.bk // sch.K):
            value = wgmma.mma_async(value, self.pl.tiling.bn, self._descriptor("A", units["A"], j),
                                    self._descriptor("B", units["B"], j), self.p.elem_type,
                                    self.pl.staging["A"].k_contiguous, self.pl.staging["B"].k_contiguous)
        wgmma.commit()
        return [value]

    def past_steps(self, steps: int) -> int:
        """The cp.async copies of tiles past the last K step read nothing (zero-fill), in a loop
        of their own: step kt starts tile kt + stages - 1, past K from kt = n_steps - stages +
        1 on. A product of few K steps otherwise reads its last tile stages - 1 more times
        (bench/results/cuda-matmul/no-reread/). By TMA they are not issued at all: one loop."""
        if self.by_tma:
            return 0
        return steps - max(0, min(steps, self.n_steps - self.pl.stages + 1))

    def _start_pipeline(self) -> None:
        """By TMA, the tiles the copies run ahead: under a multicast the math warps' cp.async
        ones (`TmaOperands.by_cp_async`), started before warp 0 builds and publishes the maps;
        unshared, boxes issued once the maps are published."""
        if self.tma is None:
            return super()._start_pipeline()
        with self.when(self._math_warps() if self.producing else None):
            for tile in range(self.tma.by_cp_async):
                self._start_copies(self.k0(self.k.const(tile)), self.k.const(tile), None)
        self.tma.build()
        self.tma.publish()
        # the mbarriers' inits and the maps, before any thread waits on them or copies by them
        cluster.sync() if self.multicast.shared else gpu.barrier()
        self.tma.start()
        for tile in range(self.tma.by_cp_async, self.tma.ahead):
            self.tma.issue(self.k.const(tile))

    def _k_step(self, kt: ir.Value, acc: list[ir.Value], carried: list[ir.Value]) -> list[ir.Value]:
        k, stages = self.k, self.pl.stages
        if self.tma is not None:
            acc = self.multiply(self.tma.slot(kt), 0, acc)
            wgmma.wait(1)  # step kt - 1's wgmmas are done
            self.tma.release(kt)  # to the producer warps that refill its LDS tile (a multicast)
            following = self.offset(kt, 1)
            steps = self.walk.iterations if self.walk is not None else k.const(self.n_steps)
            more = arith.cmpi(arith.CmpIPredicate.ult, following, steps)
            if self.tma.by_cp_async:  # those tiles landed before the loop
                more = arith.andi(more, arith.cmpi(arith.CmpIPredicate.uge, following, k.const(self.tma.by_cp_async)))
            more = scf.IfOp(more)
            with ir.InsertionPoint(more.then_block):
                self.tma.wait(following)
                scf.yield_([])
            if not self.producing:
                gpu.barrier()  # every warpgroup is done with LDS tile (kt - 1) % S
                self.tma.issue(self.offset(kt, self.tma.ahead))
            return acc
        acc = self.multiply(arith.remui(kt, k.const(stages)), 0, acc)
        wgmma.wait(1)  # step kt - 1's wgmmas are done: its LDS tile may be refilled
        self._wait_copies(stages - 3)  # tile kt + 1 has landed
        gpu.barrier()
        tile = self.offset(kt, stages - 1)
        self._start_copies(self.k0(tile), arith.remui(tile, k.const(stages)), None, self.past_tile())
        return acc

    def _land(self, regs: dict[str, list], buf: ir.Value, slot: ir.Value | None) -> None:
        """The prologue's landing of tile 0: S - 1 tiles in flight, the S - 2 newer ones stay
        (under a multicast: the math warps' cp.async tiles, all landed)."""
        if self.producing:  # the math warps' copies, in a branch: no token outside it
            with self.when(self._math_warps()):
                nvvm.cp_async_wait_group(0)
                wgmma.proxy_fence()
            return
        if self.tma is not None:
            self.tma.wait(self.k.const(0))
            return
        self.first_group = self.group  # a token outside the K loop, for the wait after it
        self._wait_copies(self.pl.stages - 2)

    def _wait_copies(self, newer: int, token: ir.Value | None = None) -> None:
        """Waits until at most `newer` cp.async groups of this thread are in flight (whatever
        group `token` names: the count decides), then makes its copies visible to wgmma's
        async proxy (before the barrier that publishes them)."""
        async_wait(token or self.group, newer)
        wgmma.proxy_fence()

    def products(self, acc0: list[ir.Value]) -> tuple[list[ir.Value], bool]:
        """With a producer warp, the math warps' K loop, and the producer warp's (`produce`)
        beside it, whose accumulators are undefined (no thread of it reads them)."""
        if not self.producing:
            return super().products(acc0)
        loops = scf.IfOp(self._math_warps(), [a.type for a in acc0], has_else=True)
        with ir.InsertionPoint(loops.then_block):
            acc, peel = super().products(acc0)
            scf.yield_(acc)
        with ir.InsertionPoint(loops.else_block):
            self.tma.produce()
            # Undefined, not acc0: instructions that define the accumulator's registers while
            # its wgmmas are in flight make ptxas serialize every wgmma of the kernel (C7515).
            scf.yield_([llvm.UndefOp(a.type).result for a in acc0])
        return list(loops.results), peel

    def finish_products(self, acc: list[ir.Value]) -> list[ir.Value]:
        """The accumulators once the last wgmma group is done; the copies of the tiles past K
        (clamped re-reads into LDS tiles no step reads) waited for too. Under a K split, the
        summing warps' accumulators then hold the whole K's sums (`_sum_over_cluster`)."""
        wgmma.wait(0)
        if self.tma is None:
            self._wait_copies(0, self.first_group)
        if self.multicast.shared:
            cluster.sync()  # every workgroup has issued its copies by the maps the output overwrites
        return self._sum_over_cluster(acc) if self.pl.split > 1 else acc

    def _sum_over_cluster(self, acc: list[ir.Value]) -> list[ir.Value]:
        """The rows of warp w are summed by workgroup w % split of the cluster (its summing
        warps): once every workgroup's products are done (a cluster barrier: its operands'
        LDS tiles are free), each other workgroup's warp w stores its partial sums into the
        summing workgroup's LDS (`_partial_address`: remote stores, which do not wait), a
        second barrier publishes them, and the summing warp adds them from its own LDS in rank
        order from its own on. Deterministic: each sum's order is fixed by the plan."""
        k, c = self.k, self.pl.split
        (value,) = acc
        elems = wgmma.acc_elements(value, self.pl.tiling.bn)
        i32 = ir.IntegerType.get_signless(32)
        warp = arith.index_cast(i32, arith.divui(self.tid, k.const(32)))
        lane = arith.index_cast(i32, arith.remui(self.tid, k.const(32)))
        rank = arith.index_cast(i32, self.rank)
        owner = arith.remui(warp, k.const(c, i32))
        owned = arith.divui(warp, k.const(c, i32))  # the warp's place among its owner's summing warps
        self.summing = arith.cmpi(arith.CmpIPredicate.eq, owner, rank)
        bases = (cluster.shared_address(self.lds["A"]), cluster.shared_address(self.lds["B"]))
        wgmma.proxy_fence()
        cluster.sync()  # every workgroup's wgmmas are done with its LDS tiles
        send = scf.IfOp(self.summing, has_else=True)
        with ir.InsertionPoint(send.else_block):
            # this workgroup's place among the owner's senders: the ranks after the owner's, in order
            sender = arith.remui(arith.subi(arith.addi(rank, k.const(c - 1, i32)), owner), k.const(c, i32))
            for j in range(len(elems) // 4):
                cluster.store_remote(self._partial_address(bases, sender, owned, j, lane), owner, elems[4 * j:4 * j + 4])
            scf.yield_([])
        with ir.InsertionPoint(send.then_block):
            scf.yield_([])
        cluster.sync()  # the partial sums have landed
        total = scf.IfOp(self.summing, [value.type], has_else=True)
        with ir.InsertionPoint(total.then_block):
            sums = list(elems)
            for sender in range(c - 1):
                for j in range(len(elems) // 4):
                    loaded = cluster.load_shared(self._partial_address(bases, k.const(sender, i32), owned, j, lane))
                    for e, x in enumerate(loaded):
                        sums[4 * j + e] = arith.addf(sums[4 * j + e], x)
            scf.yield_([wgmma.acc_from_elements(sums)])
        with ir.InsertionPoint(total.else_block):
            scf.yield_([value])
        return [total.result]

    def _partial_address(self, bases: tuple[ir.Value, ir.Value], sender: ir.Value, owned: ir.Value, j: int,
                         lane: ir.Value) -> ir.Value:
        """The LDS address (i32) of the 16-byte chunk j of lane `lane` of summing warp `owned`
        from sender `sender`: unit ((sender * owned warps + owned) * chunks + j) * 32 + lane of
        A's tiles, then B's (`bases`: their addresses; planner.split_fits checked they hold them)."""
        k, i32 = self.k, ir.IntegerType.get_signless(32)
        per_owner = planner.summing_warps(self.pl.tiling, self.pl.split)
        chunks = self.pl.tiling.bn // 8
        unit = arith.addi(arith.muli(arith.addi(arith.muli(sender, k.const(per_owner, i32)), owned),
                                     k.const(chunks * 32, i32)), arith.addi(lane, k.const(j * 32, i32)))
        at = arith.muli(unit, k.const(16, i32))
        a_bytes = k.const(math.prod(self.pl.staging["A"].lds_shape) * self.elem_bytes, i32)
        in_a = arith.cmpi(arith.CmpIPredicate.ult, at, a_bytes)
        return arith.select(in_a, arith.addi(bases[0], at), arith.addi(bases[1], arith.subi(at, a_bytes)))

    def store(self, acc: list[ir.Value]) -> None:
        """The output, stored by the warps holding whole sums (all math warps, unsplit)."""
        if self.pl.split == 1 and not self.producing:
            return super().store(acc)
        guard = scf.IfOp(self.summing if self.pl.split > 1 else self._math_warps())
        with ir.InsertionPoint(guard.then_block):
            super().store(acc)
            scf.yield_([])

    # --- the output ---

    def output_pieces(self) -> list[tuple[int, int, int, int, int]]:
        width = pow2_dividing(math.gcd(2, self.p.out_run), 2)
        return [(0, 4 * i + 2 * half + e, width, 8 * half, 8 * i + e)
                for i in range(self.pl.tiling.bn // 8) for half in (0, 1) for e in range(0, 2, width)]

    def lane_output(self, lane: int) -> tuple[int, int]:
        return lane // 4, 2 * (lane % 4)

    def flat(self, acc: ir.Value) -> ir.Value:
        f32 = ir.F32Type.get()
        n = self.pl.tiling.bn // 2
        return vector.from_elements(ir.VectorType.get([n], f32),
                                    [llvm.ExtractValueOp(f32, acc, [i]).result for i in range(n)])
