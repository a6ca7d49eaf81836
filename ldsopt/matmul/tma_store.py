"""A walking wgmma kernel's output tiles stored by the tensor memory accelerator (sm_90a).

Why. A persistent kernel (persistent.py) stores each tile from its math warps' registers before
its next tile's wgmmas start; its SMs finish their tiles together, and memory takes all their
stores while the tensor cores wait (bench/results/cuda-matmul/persistent/: 8192x8192x1024 with
an f32 output). Here the math warps write the tile to an LDS stage and one thread hands it to
the copy engine (`cp.async.bulk.tensor`, LDS to global, ldsopt/codegen/tma.py), which drains
it while the next tile's K loop runs.

- The stage: the BM x BN tile in the layout of the engine's boxes: column blocks of 128 bytes
  (32 f32, 64 f16), each block's BM rows in the 128-byte swizzle (`address_map`,
  wgmma_maps.SwizzledColumnBlocks: the 8 rows of a warp's 8-byte pieces fall in 8 distinct
  16-byte units), 1024-byte aligned; a box a block.
- Parts: where the whole tile does not fit beside the operands' LDS tiles (a 128x256 f32 tile
  is 128 KiB), the stage holds B buffers of 1/P of its column blocks each, P the fewest of 2,
  4, ... that fit (`fitting`; B = 2 with `tma-store=double`, else 1), and the tile leaves in P
  parts through them, part p's columns p BN / P on, in buffer p % B.
- A tile's output, part by part: thread 0 waits until the boxes that last used the part's
  buffer (B parts before, counting the previous tile's) have been read out of the stage
  (`free`), the workgroup meets; each thread writes the part's pieces there (the init and the
  epilogue applied, OutputWriter.store_piece) and fences them to the engine's proxy; the
  workgroup meets; thread 0 issues the part's boxes as one bulk group (`finish`). The engine
  clips rows past M. The last parts' boxes drain while the next tile's K loop runs; with one
  buffer the math warps wait for each earlier part's drain, with two a part's drain overlaps
  the next part's writes.
- The output's tensor map is built and published with the operands' (tma_copy.TmaOperands), in
  the output rows of the workgroup's last tile. That tile is therefore stored by the threads from
  the same stage (OutputWriter.copy_out, part by part) once every earlier box is written, which
  also leaves no bulk copy in flight when the kernel ends.

Refused (`refusal`; the output as without it): a kernel that does not walk its tiles or copies
its operands by cp.async, an output of another type than f16, bf16 and f32 or in fewer than
whole 128-byte blocks, an epilogue that stores in another dim order, output rows that cannot
hold one more map, and a stage of one column block past the LDS the plan leaves.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith, scf

from ldsopt.codegen import tma, wgmma
from ldsopt.ir_types import element_bits
from ldsopt.layout.wgmma_maps import SwizzledColumnBlocks
from ldsopt.matmul import tma_copy
from ldsopt.matmul.output_stage import OutputStage

SWIZZLE_BYTES = 128  # a box's row: the 128-byte swizzle's span
UNIT_BYTES = 16  # the swizzle's unit
STAGE_ALIGNMENT = 1024  # the swizzle's pattern: 8 rows of 128 bytes


def refusal(em) -> str | None:
    """Why the wgmma kernel `em` cannot store its tiles by TMA (None: it can, LDS permitting)."""
    p, t = em.p, em.pl.tiling
    elem = p.output.tensor_type.element_type
    if em.walk is None:  # a walk copies its operands by TMA (persistent.refusal)
        return "it does not walk its tiles"
    if str(elem) not in tma.MAP_ELEMTYPES:
        return f"an output of {elem}"
    if t.bn * element_bits(elem) // 8 % SWIZZLE_BYTES:
        return f"a tile of {t.bn} {elem} columns, not whole 128-byte blocks"
    if p.epilogue and list(p.epilogue.out_dims) != list(range(len(p.epilogue.out_dims))):
        return "an epilogue that stores in another dim order"
    if p.epilogue and p.epilogue.extra:
        return "an epilogue that stores several results"
    return tma_copy.maps_refusal(em, em.multicast, len(em.pl.staging) + 1)


def fitting(em, lds_left: int, buffers: int = 1) -> "TmaStore | None":
    """The TMA stores of `em`'s tiles in the fewest parts whose stage fits `lds_left` bytes, a
    tile in parts through `buffers` part buffers (None: not even one 128-byte column block a
    buffer fits)."""
    blocks = em.pl.tiling.bn * element_bits(em.p.output.tensor_type.element_type) // 8 // SWIZZLE_BYTES
    parts = 1
    while blocks % parts == 0:
        store = TmaStore(em, parts, buffers if parts > 1 else 1)
        if store.lds_bytes() <= lds_left:
            return store
        parts *= 2
    return None


class TmaStore:
    """The TMA stores of the walking kernel `em`'s tiles, in `parts` parts of its columns
    through `buffers` part buffers (module doc)."""

    def __init__(self, em, parts: int = 1, buffers: int = 1):
        self.em, self.parts, self.buffers = em, parts, buffers
        self.elem = em.p.output.tensor_type.element_type
        self.elem_bytes = element_bits(self.elem) // 8
        t = em.pl.tiling
        self.block = SWIZZLE_BYTES // self.elem_bytes
        self.cols = t.bn // parts  # a part's, a buffer's
        assert self.cols % self.block == 0 and parts % buffers == 0, (t.bn, parts, buffers)
        # rows x block elements, innermost first, then 1 along the output's batch dims
        self.box = [self.block, t.bm] + [1] * (len(em.p.output.tensor_type.shape) - 2)
        self.stage = OutputStage(t.bm, buffers * self.cols, 0, UNIT_BYTES // self.elem_bytes, t.threads,
                                 self.address_map, STAGE_ALIGNMENT)

    @property
    def address_map(self) -> SwizzledColumnBlocks:
        return SwizzledColumnBlocks(vec=UNIT_BYTES // self.elem_bytes, per_phase=1, max_phase=8,
                                    block=self.block, rows=self.em.pl.tiling.bm, row_elems=self.buffers * self.cols)

    def part_of(self, dn: int, width: int) -> int:
        """The part holding a piece of `width` columns `dn` past the thread's first (whose own
        column in the tile is below 8: the wgmma C layout's lane offset)."""
        part, within = divmod(dn, self.cols)
        assert within - within % 8 + 8 <= self.cols and dn % 8 + width <= 8, (dn, width, self.cols)
        return part

    def stage_col(self, part: int) -> int:
        """The stage column of part `part`'s first: its buffer's."""
        return part % self.buffers * self.cols

    def lds_bytes(self) -> int:
        """The stage, its alignment, and one more tensor map."""
        return self.stage.lds_bytes(self.elem_bytes) + STAGE_ALIGNMENT + tma.MAP_BYTES

    def _issuer(self) -> ir.Value:
        """Whether this thread issues the stores (thread 0)."""
        return arith.cmpi(arith.CmpIPredicate.eq, self.em.tid, self.em.k.const(0))

    def free(self) -> None:
        """Before a part's pieces are written: the boxes that last used its buffer are out of
        the stage (every bulk group but the newest B - 1)."""
        with self.em.when(self._issuer()):
            tma.wait_read(self.buffers - 1)
        self.em.barrier()

    def finish(self, last: ir.Value, copy_out, part: int) -> None:
        """After a part's pieces are written: its boxes issued, or for the workgroup's last tile
        (`last`, i1), every earlier box written (the maps' rows are then free) and the part
        copied out by the threads (`copy_out(part)`, which meets first)."""
        em, k = self.em, self.em.k
        wgmma.proxy_fence()  # this thread's pieces, to the copy engine's proxy
        em.barrier()
        with em.when(self._issuer()):
            branch = scf.IfOp(last, has_else=True)
            with ir.InsertionPoint(branch.then_block):
                tma.wait_written(0)
                scf.yield_([])
            with ir.InsertionPoint(branch.else_block):
                i32 = ir.IntegerType.get_signless(32)
                for b in range(self.cols // self.block):
                    n = em.offset(em.origin["n"], part * self.cols + b * self.block)
                    coords = [arith.index_cast(i32, x) for x in em.output_index(em.origin["m"], n)[::-1]]
                    block = self.stage_col(part) // self.block + b
                    src = tma.shared_pointer(em.out_lds, k.const(block * self.stage.rows * SWIZZLE_BYTES))
                    tma.store(src, em.tma.pointers["out"], coords)
                tma.commit()
                scf.yield_([])
        with em.when(last):
            copy_out(part)
