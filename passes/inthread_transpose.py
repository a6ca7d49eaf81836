"""ldsopt-inthread-transpose (seed 002): stage a matmul operand that is not K-contiguous in
global memory K-contiguous in LDS, transposing it in registers on the way (Triton AMD's
in-thread transpose: the "thread rake" and the shared-encoding swap).

Contract.
- Runs right before ldsopt-matmul-lds, on the dispatches that pass takes (its matching; a
  matched dispatch without a GPU target is an error here as there). It plans each dispatch as
  ldsopt-matmul-lds does (`PlanOptions.planned_matmuls`, ldsopt/matmul/options.py), but costs
  each candidate plan (tiling, K step) as it would restage it (`staged`): on gfx942 a K-strided
  operand's MFMA fragments read 16 (8) bits at a time cost their extra LDS reads
  (planner.narrow_reads), so that a plan whose K tile gives each thread the 2 K rows the
  transpose needs wins where the rest of the cost allows (attention's P x V: 32x64 tiles of 64
  K, not 64x32 of 32 K); where the chosen plan restages nothing, ldsopt-matmul-lds plans the
  same plan. For each operand that qualifies, it records the rewritten `TileLayout`
  (ldsopt/layout/tile_layout.py) on the root op, `ldsopt.staging = {B = {...}}` (and, once every operand is K-contiguous, the
  others restaged for the wider reads below), its own name in `ldsopt.staged_by` and, unless
  a pass before it did, the plan (`ldsopt.matmul_plan`), which ldsopt-matmul-lds follows;
  ldsopt-matmul-lds emits the recorded staging and names this pass before itself in the
  kernel's `ldsopt.lowered_by`. Nothing else in the IR changes.
- The rewritten staging. Each thread reads `rake = 64 / element bits` consecutive K rows (8
  i8, 4 f16/bf16, 2 f32), each one vector along M or N, so that the global reads stay coalesced
  along the contiguous dim; the vector shrinks until the raked chunks split evenly over the
  threads (Triton replicates threads instead; here each element has exactly one). The thread
  transposes that register tile (`vector.transpose`; gfx942 packs 16-bit columns with
  v_perm_b32) and writes each column, `rake` K-consecutive elements (64 bits), to LDS, which
  then holds the tile K-contiguous: the fragment reads along K become vectors (4 f16 for MFMA
  16x16x16 and for FMA: ds_read_b64 on gfx942) instead of single elements. With every operand
  K-contiguous, ldsopt-matmul-lds's fragment reads take two K steps at once, their K slots fed
  in mma.k_order (`packing`, ldsopt/matmul/planner.py): 8 consecutive K a lane, one 16-byte read
  (ds_read_b128; ld.shared.v4 for mma.sync's four 4-byte reads); the transposed layouts are chosen for those
  reads, and the other, K-contiguous operands are recorded restaged for them. The LDS address map
  and the thread -> chunk order are the ones of fewest bank conflicts, by the shared bank
  model (ldsopt/layout/banks.py) over the first wave's LDS writes (each lane's `rake`-element
  columns: b64 in phases of 16 lanes on 32 x 4 B banks) and its fragment reads, then of
  affine addresses (no row XOR, no swizzle: a padded layout reads at immediate offsets, an
  XORed one computes every fragment address in the K loop; seen in the CUDA PTX), then least
  LDS. Candidates: consecutive threads along M/N (lanes cols, Triton's), after taking 1, 2 or 4
  row chunks down K (`lane_rows`: a phase of 16 b64 writes then covers two K offsets, which a
  16-byte swizzle unit needs: threads along N alone leave 8 extra cycles per warp on CUDA's
  writes, 16 on gfx942's; every global read instruction still covers whole 128-byte lines);
  lanes rows, down all the K blocks, only when forced (consecutive lanes read rows 4 apart; slower
  on the H200); with or without a row XOR (layout.RowXor: LDS rows r and r + vector land in different halves of the banks,
  which the 4 rows a lane writes and those of its neighbour need when an LDS row is 64 bytes);
  row pads of 0..2 units or rotating swizzles (layout.RotatingSwizzle, Triton's
  amd_rotating_shared) of 1 or 2 units; within the operand's planned LDS plus half of what the
  plan leaves free of ldsopt-matmul-lds's budget. A unit holds whole writes and reads, so both
  stay vectors. Picked (model), CUDA and gfx942 f16/bf16 NN/TN: lanes cols, lane_rows 2, row
  XOR 4, rotating<8,2,4>: 0 extra cycles on writes and 16-byte reads. (In the natural K order,
  4-byte reads: lanes cols + row XOR 4 + rotating<4,1,8>; without the XOR it costs 8 on
  writes on CUDA, 16 on gfx942.)
- Measurements (H200, with and without this pass, ncu): bench/results/cuda-matmul/README.md.
- `prefetch` (CUDA, copy=registers; by default 2 there, none elsewhere; 0 turns it off): the
  raked operand's staging says `prefetch = P`, and ldsopt-matmul-lds then prefetches, each K
  step kt, the L1 lines of the thread's global reads of tile kt+P (`prefetch.global.L1`, which
  holds no register), so the loads ptxas sinks after the math hit L1. Only rakes are
  prefetched: prefetching the K-contiguous register-staged operands too was slower
  (bench/results/cuda-matmul/README.md).
- Options force parts of the layout, to measure variants: `rake-bits` (64, or 128: 8 K rows
  of 16-bit, 16-byte writes, narrower global reads), `lanes`, `lane-rows`, `row-xor`, `pad`,
  `swizzle` (vec,perPhase,maxPhase; 0 none); a forced layout may use any LDS (ldsopt-matmul-lds
  checks its budget), and one no candidate has is a located error. The plan options
  (`PlanOptions`: workgroups-per-cu, mma, tiles, k-pack, stages) choose the plan, recorded
  for ldsopt-matmul-lds to follow (ldsopt/matmul/options.py says how options meet a record).
- `copy=direct` (CUDA sm_80+; an error elsewhere): the rake's rows are cp.async copies into
  the thread's own slots of a staging buffer of `stages - 1` tiles (consecutive lanes,
  consecutive slots; the copies run that many tiles ahead),
  waited for after the K step's math and read back there to be transposed: the next tile's
  global reads hold no registers across the math, where ptxas otherwise issues them after it
  (bench/results/cuda-matmul/README.md). Opt-in: with the K-contiguous operand in registers
  it measured slower, next to ldsopt-dtl-layout's cp.async for that operand faster.

A dispatch whose operands a pass before this one staged (ldsopt-dtl-layout in the default
pipeline, `grids=small`) is left as that pass recorded it, with a remark.

A convolution (implicit GEMM, ldsopt/matmul/implicit_gemm.py) is restaged like a matmul: an
NCHW image read along the output's columns is N-contiguous, and each raked row is gathered at
its own index by the register staging (a strided run's vectors read wide, every s-th kept;
a padded border's elements zeros). With `copy=direct` a convolution is left, with a remark:
a copy cannot keep every s-th element nor zero a border.

Guards; an operand that fails one keeps its planned staging:
- already K-contiguous in LDS (K-contiguous in global memory: NN's A, NT's B; or rewritten
  already, which makes the pass idempotent);
- K per thread < 2 (Triton's shape[K] / (threadsPerWarp[K] * warpsPerCTA[K]) >= 2): the
  planned global read spreads the tile's K rows so thinly over the threads that none holds
  a register tile to transpose;
- fragment reads no wider from K-contiguous LDS than planned: nothing to gain, only register
  shuffles. MFMA 16x16x4 f32 takes one K element per lane and step, so it gains only from
  reads of 4 steps at once (k_pack 4, which needs every operand K-contiguous); FMA kernels (lavapipe,
  CUDA f32) read 4-wide vectors along M or N as planned and along K transposed (Triton applies
  the transpose only to MFMA/WMMA operands); CUDA's f16/bf16 mma.sync reads the K-strided
  operand by ldmatrix.trans, 16 bytes a lane as planned (ldsopt/layout/mma.py, `MatrixLoad`), and
  that kernel is the faster on the H200 (bench/results/cuda-bert/ldmatrix/). Option `force`
  (or a forced layout option) restages these too, which tests the transposed staging on
  targets without matrix cores (lavapipe) and on CUDA;
- no vector width splits the raked chunks evenly over the threads;
- types must match and tiles be 2-D (Triton's): ldsopt-matmul-lds takes only operands of one
  element type, and its tiles are 2-D (a batch dim is the workgroup's z, outside the tile).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ldsopt.layout.banks import BankModel
from ldsopt.ir_types import element_bits
from ldsopt.matmul.match import MatmulDispatch, MatmulProblem
from ldsopt.matmul.options import PlanChoice, PlanOptions
from ldsopt.matmul.planner import address_maps, cheapest, with_k_pack
from ldsopt.matmul.recorded import staged_by
from ldsopt.matmul.schemes import MatmulPlan, MmaScheme
from ldsopt.registry import OptionError, PassError, option
from ldsopt.layout.tile_layout import COPIES, Direct, Lanes, LdsRows, Registers, RowChunks, TileLayout

# Bits each thread writes to LDS per transposed column by default (Triton: sizePerThread[K] =
# 64 / elemBits); option rake-bits takes 128.
WRITE_BITS = 64
AUTO = -1
# K steps ahead of the rake's L1 prefetch on CUDA (2, 3 and 4 measured alike on the H200:
# bench/results/cuda-matmul/prefetch/).
PREFETCH_STEPS = 2
# Row chunks consecutive threads take down K before moving along M/N (lanes cols): 2 puts
# the rows written by the 16 lanes of a b64 phase at two K offsets, which 16-byte fragment
# reads need for conflict-free writes (every lane's 64-bit column at the same K offset fills
# only half of each 16-byte swizzle unit), and keeps each global read a whole 128-byte line.
LANE_ROWS = (1, 2, 4)


def _check_swizzle(swizzle: tuple[int, ...]) -> None:
    """empty, 0, or vec,perPhase,maxPhase (positive)."""
    if swizzle not in ((), (0,)) and (len(swizzle) != 3 or min(swizzle) < 1):
        raise ValueError("a rotating swizzle is 0 (none) or three positive numbers vec,perPhase,maxPhase")


@dataclasses.dataclass(frozen=True)
class InthreadTranspose(PlanOptions):
    NAME = "ldsopt-inthread-transpose"
    SUMMARY = "Stage matmul operands that are not K-contiguous K-contiguous in LDS, transposed in registers"

    force: bool = option(False, "also restage operands whose fragment reads would not get wider (FMA kernels), "
                                "to run the transposed staging on targets without matrix cores")
    rake_bits: int = option(WRITE_BITS, "bits of K each thread holds per column of its register tile",
                            choices=(64, 128))
    lanes: str = option("auto", "which chunks consecutive threads take: cols (along M/N), rows (down K; "
                                "only when forced: its global reads are not coalesced), or auto (cols)",
                       choices=("auto", "cols", "rows"))
    lane_rows: int = option(AUTO, "row chunks consecutive threads take down K before moving along M/N (lanes cols): "
                                  "1, 2 or 4; -1 the bank model's choice", choices=(AUTO, *LANE_ROWS))
    row_xor: int = option(AUTO, "LDS row r stored at r ^ (r / row-xor % 2); 0 none; -1 the bank model's choice",
                          min=AUTO)
    pad: int = option(AUTO, "elements after each LDS row (no swizzle); -1 the bank model's choice", min=AUTO)
    swizzle: tuple[int, ...] = option((), "rotating swizzle vec,perPhase,maxPhase (0 for none); "
                                          "empty: the bank model's choice", check=_check_swizzle)
    copy: str = option("registers", "how the rake's rows reach registers: registers (global loads) or direct "
                                    "(cp.async into a staging buffer, read back there; CUDA sm_80+)",
                     choices=("registers", "direct"))
    prefetch: int = option(AUTO, "K steps ahead at which the rake's global reads are prefetched into L1 "
                                 "(copy=registers; CUDA): -1 the target's (2 on CUDA, none elsewhere), 0 none", min=AUTO)

    def check_options(self) -> None:
        if self.prefetch > 0 and self.copy_kind is not Registers:
            raise OptionError(f"option 'prefetch' of pass '{self.NAME}': prefetch={self.prefetch} needs "
                              "copy=registers (the direct copy holds no registers to prefetch for)", "prefetch")

    def run(self, module: ir.Operation) -> None:
        for m in self.planned_matmuls(module, convolutions=True):
            try:
                restaged = self.following(m.choice).restaged(m.plan, m.target, element_bits(m.problem.elem_type))
            except ValueError as e:
                raise PassError(m.dispatch.location, f"{self.NAME}: {e}") from None
            rewritten = {role: t for role, t in restaged.items() if t is not None}
            if rewritten:
                self.record(m.dispatch, m.plan, m.choice, rewritten)

    def planned(self, d: MatmulDispatch, p: MatmulProblem, tgt) -> tuple[MatmulPlan, PlanChoice] | str:
        """The dispatch's plan (PlanOptions.planned), unless a pass before staged its operands."""
        if staged_by(d.root):
            return f"its operands are staged already (by {', '.join(staged_by(d.root))})"
        if p.view is not None and self.copy_kind is not Registers:
            return ("copy=direct: a convolution's raked rows are gathered through registers (a padded border's "
                    "zeros, a strided run's kept elements)")
        return super().planned(d, p, tgt)

    def staged(self, pl: MatmulPlan, tgt, bits: int) -> MatmulPlan:
        """`pl` with the operands this pass restages restaged: what the plan's cost rule costs,
        so that the plan is chosen knowing which operands the transpose reads wide (a forced
        layout that no candidate has is costed as planned, and is an error for the plan
        chosen)."""
        try:
            new = self._restaged(pl, tgt, bits, cheapest_maps=False)
        except ValueError:
            return pl
        return dataclasses.replace(pl, staging={r: new[r] or s for r, s in pl.staging.items()})

    def restaged(self, pl: MatmulPlan, tgt, bits: int) -> dict[str, TileLayout | None]:
        """Each operand's rewritten staging (None: a guard keeps the planned one), its transposed
        ones copied as option `copy` says."""
        new = self._restaged(pl, tgt, bits)
        if self.copy_kind is Registers:
            prefetch = self.prefetch if self.prefetch != AUTO else PREFETCH_STEPS if tgt.l1_prefetch else 0
            if prefetch and not tgt.l1_prefetch:
                raise ValueError(f"prefetch={prefetch} needs a global -> L1 prefetch (CUDA)")
            copy = Registers(prefetch)
        elif not tgt.async_copy:
            raise ValueError("copy=direct needs cp.async (CUDA sm_80+)")
        else:
            copy = Direct()
        return {r: dataclasses.replace(t, copy=copy) if t is not None and t.thread_map.transposed else t
                for r, t in new.items()}

    def _restaged(self, pl: MatmulPlan, tgt, bits: int, cheapest_maps: bool = True) -> dict[str, TileLayout | None]:
        """Each operand's transposed staging (None: a guard keeps the planned one). Each may take
        its planned LDS plus half of what the plan leaves free of ldsopt-matmul-lds's budget.
        `cheapest_maps` as in `transposed`."""
        model = tgt.bank_model()
        budget = self.lds_budget(tgt)
        spare = (budget * 8 // bits - sum(math.prod(s.lds_shape) for s in pl.staging.values())) // 2

        def restage(pack: int) -> dict[str, TileLayout | None]:
            return {role: transposed(dataclasses.replace(s, k_pack=pack), pl.scheme, bits, model, self,
                                     math.prod(s.lds_shape) + spare, cheapest_maps) for role, s in pl.staging.items()}

        # Once every operand is K-contiguous, both can read their K slots in groups of several
        # steps (ldsopt/matmul/planner.py, `packing`): the transposed ones choose their address maps for those
        # reads, the others are restaged for them. Else each keeps the planned reads.
        planned = pl.staging["A"].k_pack
        pack = pl.scheme.k_pack(pl.bk, bits, tgt, self.k_pack) \
            if isinstance(pl.scheme, MmaScheme) and self.k_pack else planned
        if pack != planned:
            new = restage(pack)
            if any(new.values()) and all(new[r] or s.k_contiguous for r, s in pl.staging.items()):
                return {r: new[r] or with_k_pack(s, pl.scheme, pack, bits // 8, model)
                        for r, s in pl.staging.items()}
        return restage(planned)

    @property
    def copy_kind(self) -> type:
        """Option `copy` as the layout's copy (`tile_layout.Registers` or `Direct`)."""
        return COPIES[self.copy]

    @property
    def forced_lanes(self) -> Lanes | None:
        """Option `lanes` as the thread map's; None for auto."""
        return None if self.lanes == "auto" else Lanes(self.lanes)

    def wants(self, c: TileLayout) -> bool:
        """Whether candidate `c` agrees with every forced option."""
        forced_swizzle = None if not self.swizzle else () if self.swizzle == (0,) else self.swizzle
        tm, lds = c.thread_map, c.lds
        return (tm.lanes is (self.forced_lanes or Lanes.COLS)
                and (self.lane_rows == AUTO or tm.lane_rows == self.lane_rows)
                and (self.row_xor == AUTO or lds.row_xor == self.row_xor)
                and (self.pad == AUTO or (lds.pad == self.pad and not lds.swizzle))
                and (forced_swizzle is None or lds.swizzle == forced_swizzle))

    @property
    def forced(self) -> bool:
        return self.forced_lanes is not None or self.row_xor != AUTO or self.pad != AUTO or bool(self.swizzle) or \
            self.lane_rows != AUTO


def k_per_thread(s: TileLayout) -> int:
    """K rows each thread covers in the planned global read of a K-strided tile (rows = K)."""
    rows, cols = s.tile
    along_k = max(1, s.threads // (cols // s.vector))
    return rows // along_k


def transposed(s: TileLayout, scheme, bits: int, model: BankModel, opts: InthreadTranspose | None = None,
               lds_elems: float | None = None, cheapest_maps: bool = True) -> TileLayout | None:
    """`s` raked, transposed in registers and K-contiguous in LDS; None where a guard says no
    (`opts.force`, or a forced part of the layout: even where the fragment reads get no wider).
    `opts` may force parts of the layout (ValueError if no candidate has them); the LDS map
    takes at most `lds_elems` elements (default what `s` takes; forced layouts are not limited:
    ldsopt-matmul-lds checks its budget).
    `cheapest_maps=False` takes the first candidate address map, not the bank model's choice:
    the same operands are transposed, for the plan's cost rule, which costs no bank conflicts,
    at a small part of the bank model's time."""
    opts = opts or InthreadTranspose()
    maps = candidates(s, scheme, bits, opts)
    if not maps:
        return None
    lds_elems = math.inf if opts.forced else lds_elems or math.prod(s.lds_shape)
    chosen = [c for c in maps if opts.wants(c) and math.prod(c.lds_shape) <= lds_elems]
    if not chosen:
        raise ValueError(f"no staging of operand {s.operand} has the forced lanes, row-xor, pad and swizzle")
    return cheapest(chosen, scheme, bits // 8, model) if cheapest_maps else chosen[0]


def candidates(s: TileLayout, scheme, bits: int, opts: InthreadTranspose) -> list[TileLayout]:
    """Every transposed staging of `s` the pass considers (`transposed` keeps those its forced
    options and its LDS allow); none where a guard says no."""
    if s.k_contiguous or k_per_thread(s) < 2:
        return []
    rows, cols = s.tile
    rake = min(opts.rake_bits // bits, rows)
    # Not where the planned fragment reads are as wide: a matrix load (CUDA's ldmatrix.trans)
    # reads the K-strided operand 16 bytes a lane already, faster than the transposed staging
    # (bench/results/cuda-bert/ldmatrix/README.md).
    read = max(n for _, _, n in scheme.reads(s.operand, True, 0, s.k_pack))
    if read <= s.read_vector and not (opts.force or opts.forced):
        return []
    vec = s.vector
    while (rows // rake * (cols // vec)) % s.threads:  # the chunks must split evenly over the threads
        if vec == 1:
            return []
        vec //= 2
    base = dataclasses.replace(s, thread_map=RowChunks(s.tile, vec, rake), read_vector=read, lds=LdsRows.padded(rows))
    return address_maps(base, (Lanes.COLS, Lanes.ROWS), (0, base.vector) if base.vector > 1 else (0,), opts.pad,
                        lane_rows=LANE_ROWS)
