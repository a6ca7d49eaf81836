"""ldsopt-dtl-layout (seed 003): stage matmul operands global -> LDS directly, in a bank-aware
layout.

Contract. For each matmul dispatch that ldsopt-matmul-lds takes, convolutions included (an
implicit GEMM's chunk is copied from its own gathered index; same matching and planning:
run it just before that pass; the plan, by its plan options or the one a pass before recorded,
is recorded for ldsopt-matmul-lds to follow: ldsopt/matmul/options.py), each operand that
qualifies gets a rewritten `TileLayout` recorded on the root op (ldsopt/matmul/recorded.py;
ldsopt-matmul-lds emits it, by the copies of ldsopt/matmul/copy.py):
- `vector` = one lane of `lane-bytes` (the option; by default the target's: 4 on gfx942, its
  only DMA size, f32: 1, f16/bf16: 2, i8: 4 elements; 16 on CUDA, cp.async's widest; 4 for the
  register path); chunk c = tid + threads * j fills LDS storage index c * vec, so each wave
  writes whole runs of wave_size * lane bytes (ldsopt/layout/dtl.py);
- its LDS map (`lds_layout` in the attribute) = the placement the bank model (ldsopt.banks)
  prices cheapest, counting the first wave's writes and every fragment read of a K step (or
  the best of the kind the `layout` option forces): none, block padding (M0 rule: blocks of
  whole wave runs), the perpDim permutation (+ block padding) or the blocked rotation;
- `copy` = "direct" where the target has a direct-to-LDS copy: gfx942 (`dma_sizes` holds 32:
  `amdgpu.gather_to_lds`) and sm_80+ (`async_copy`: `nvgpu.device_async_copy`); elsewhere
  "registers", the same layout through registers (lavapipe proves it by values).
The func gets `ldsopt.dtl = {A = "...", B = "..."}`: per operand, the copy and layout, or why it
was left alone.

Guards (an operand that fails one keeps ldsopt-matmul-lds's own staging):
- its LDS order must equal its global order (DTL cannot transpose; e.g. an operand that
  ldsopt-inthread-transpose rewrote, or one already rewritten here);
- its elements must pack into lanes (element size 1, 2 or 4 bytes) and its contiguous
  extent must be a multiple of a lane (a lane must not straddle rows; gfx942's 1- and 2-byte
  DMA zero-extends to 4 bytes in LDS, which would break any layout), each run starting at a
  multiple of a lane in memory (`MatmulProblem.run(copied=True)`: a 16-byte cp.async from a
  misaligned address never completes; an NCHW image's run of output columns starts at
  `ow + kw`);
- on gfx942, K must be a multiple of the K step: its DMA cannot zero-fill a K tail (M/N tails
  are clamped: they only feed outputs that are never stored); cp.async zero-fills the chunks
  past K (src-size 0) and the register path reads zeros there, so they take K tails; for the
  same reason gfx942 leaves a convolution's image padded in the dispatch (its border is zeros),
  and every target an operand whose lanes run along a padded innermost dim (an NCHW image's
  row: a lane may straddle the border, and no copy zero-fills its first elements), and an
  operand whose run is strided (every 2nd element of an NCHW image's row at stride 2: a lane
  would carry elements the product does not take);
- the tile must split into whole wave runs over the threads;
- every static division of its index math must be proven exact (ldsopt.magic_div) over its
  range: if not, the pass fails (PassError) rather than emit a wrong map;
- padding must keep the LDS of the plan within the target's budget.

`grids=small` takes only the dispatches that are bound by load latency under register staging,
and leaves the others whole, with the reason as a remark: on a target that copies
asynchronously (cp.async), a plan whose grid gives each workgroup slot of the GPU at most
SMALL_GRID_WAVES workgroups (tiles <= SMALL_GRID_WAVES x SMs x workgroups-per-cu) and whose K
fills the pipeline (at least `stages` K steps). There a deep cp.async pipeline pays; on the
medium grids past them the register staging's bigger tiles win (both measured on the H200:
bench/results/cuda-bert/pipeline/).
`grids=auto` (the default pipeline's) takes those, and also the large products: on CUDA, 16-bit
operands, neither `tiles` nor `workgroups-per-cu` given, a grid of at least LARGE_GRID_WAVES
waves of LARGE_GRID's tiles on the SMs and a K of its stages at least, it stages them by cp.async
in LARGE_GRID's plan (128x256 tiles of 8 warps, one workgroup an SM, 3 stages, and the widest K
step of LARGE_GRID_K_BYTES whose stages fit an SM's LDS: 64 bytes in sm_89's 99 KiB, 128 in
sm_90a's 227 KiB, where `wgmma=false` or a product wgmma refuses keeps mma.sync),
which ldsopt-matmul-lds emits with carried fragments (its `carry-fragments=auto`): faster than
the register staging's 128x128 tiles on the H200 (bench/results/cuda-matmul/sweep-424b3f4 and
grids-auto-886e672). An mma.sync plan at the 128-byte step whose B is stored K-contiguous (NT)
takes LARGE_WALK_STAGES stages where they fit and K fills them, and records that the kernel
walks its tiles (the plan's `walk`, which ldsopt-matmul-lds's `persistent=auto` takes):
faster so for NT on an H100, where NN and TN were not, nor NT on sm_89's 64-byte steps
(bench/results/cuda-matmul/persistent-mma/). Of the small grids it takes, one of no more
workgroups than SMs (BERT's 768-wide products: 96 tiles of 64x64) gets SUB_WAVE_STAGES stages
where K fills them, and carried fragments (ldsopt-matmul-lds's auto): each such SM runs that
workgroup alone, so its LDS and registers may go to the pipeline
(bench/results/cuda-matmul/sub-wave-*).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ldsopt.layout import dtl
from ldsopt.ir_types import element_bits
from ldsopt.matmul.match import MatmulDispatch, MatmulProblem
from ldsopt.matmul.options import PLAN_ATTR, PlanChoice, PlanOptions
from ldsopt.matmul.schemes import MatmulPlan, MmaScheme, parse_tilings
from ldsopt.registry import PassError, option
from ldsopt.layout.tile_layout import Direct, LdsDtl, Registers, TileLayout
from ldsopt.target import Target

RECORD = "ldsopt.dtl"
# `grids=small`: the most workgroups per workgroup slot (SM x occupancy) a taken plan may have.
SMALL_GRID_WAVES = 1.5
# `grids=auto`'s plan for large products (the `tiles`, `workgroups-per-cu`, `k-bytes` and `stages`
# it stands for), and the fewest waves of its tiles on the SMs a grid must have to take it.
LARGE_GRID = {"tiles": "128x256x8x16", "workgroups_per_cu": 1, "stages": 3}
# Its K step: the widest of these whose stages fit, 128 bytes measured faster than 64 where both
# fit (bench/results/cuda-matmul/mma-sync-hopper-lds/).
LARGE_GRID_K_BYTES = (128, 64)
LARGE_GRID_WAVES = 2
# Its mma.sync plan at that widest K step for a B stored K-contiguous (NT): this many stages,
# walking its tiles (ldsopt-matmul-lds's `persistent=auto` reads the plan's `walk`).
LARGE_WALK_STAGES = 4
# `grids=auto`'s stages for a grid of no more workgroups than SMs (at least the `stages` option).
SUB_WAVE_STAGES = 4


def _check_layout(text: str) -> None:
    """auto, a kind (none, pad, perm, rotation) or a layout such as perm<16,8>+block_pad<512,16>."""
    if text != "auto" and text not in dtl.KINDS:
        dtl.DtlSpec.parse(text)


@dataclasses.dataclass(frozen=True)
class DtlLayout(PlanOptions):
    NAME = "ldsopt-dtl-layout"
    SUMMARY = "Stage matmul operands direct-to-LDS (gather_to_lds, cp.async) in a bank-aware LDS layout"

    layout: str = option("auto", "auto (the bank model picks) | none | pad | perm | rotation (the best of that "
                                 "kind) | a layout, e.g. perm<16,8>+block_pad<512,16> (checked, then used as is)",
                         check=_check_layout)
    lane_bytes: int = option(0, "bytes one lane copies: 0 = the target's (gfx942 4, CUDA 16, registers 4); "
                                "4, 8 or 16 (gfx942: 4 only; registers: as wide as the target's vectors)",
                             choices=(0, *dtl.LANE_CHOICES))
    grids: str = option("all", "which dispatches to stage: all; small: only those bound by load latency under "
                               "register staging (cp.async targets, a grid of at most 1.5 workgroups a slot, K "
                               "filling the pipeline); auto: those (with 4 stages where the grid has no more "
                               "workgroups than SMs), and large 16-bit products on CUDA in 128x256 tiles of 8 "
                               "warps, one workgroup an SM", choices=("all", "small", "auto"))

    def run(self, module: ir.Operation) -> None:
        for m in self.planned_matmuls(module, convolutions=True):
            d, p, tgt, pl, choice = m.dispatch, m.problem, m.target, m.plan, m.choice
            budget = choice.lds_budget(tgt)
            chosen, notes = {}, {}
            for role, s in pl.staging.items():
                try:
                    # The other operand as already rewritten: its padding counts against this
                    # one's share of the budget, so that both fit together.
                    so_far = dataclasses.replace(pl, staging={**pl.staging, **chosen})
                    chosen[role] = self.rewrite(p, so_far, role, s, tgt, budget)
                    notes[role] = f"{chosen[role].copy.text} {chosen[role].lds.text}"
                except LeftAlone as why:
                    notes[role] = f"left alone: {why}"
                except ValueError as e:
                    raise PassError(d.location, f"{self.NAME}: operand {role}: {e}") from None
            if chosen:
                self.record(d, pl, choice, chosen)
            d.func.attributes[RECORD] = ir.DictAttr.get({r: ir.StringAttr.get(n) for r, n in sorted(notes.items())})

    def planned(self, d: MatmulDispatch, p: MatmulProblem, tgt: Target) -> tuple[MatmulPlan, PlanChoice] | str:
        """The dispatch's plan and what chose it; under `grids=small`, instead, why the pass
        leaves the dispatch to the other stagings (`small_grid`)."""
        if self.grids == "all":
            return self.plan_dispatch(d, p, tgt)
        large = self.large_grid(d, p, tgt) if self.grids == "auto" else None
        if large is not None:
            return large
        planned = self.small_grid(d, p, tgt)
        if isinstance(planned, str):
            return f"grids={self.grids}: {planned}"
        return (self.sub_wave(d, p, tgt, *planned) if self.grids == "auto" else None) or planned

    def sub_wave(self, d: MatmulDispatch, p: MatmulProblem, tgt: Target, pl: MatmulPlan,
                 choice: PlanChoice) -> tuple[MatmulPlan, PlanChoice] | None:
        """`grids=auto`'s deeper pipeline (SUB_WAVE_STAGES) for a plan whose grid has no more
        workgroups than SMs, where that plan's grid stays so and its K fills the pipeline; None
        otherwise (the plan as it is). No other workgroup shares such an SM: its LDS may go to
        stages."""
        if self.stages >= SUB_WAVE_STAGES or math.prod(pl.grid(p.sizes)) > tgt.compute_units \
                or p.sizes["k"] < SUB_WAVE_STAGES * pl.bk:
            return None
        try:
            deeper = dataclasses.replace(self, stages=SUB_WAVE_STAGES).plan_dispatch(d, p, tgt)
        except PassError:
            return None
        return deeper if math.prod(deeper[0].grid(p.sizes)) <= tgt.compute_units else None

    def large_grid(self, d: MatmulDispatch, p: MatmulProblem, tgt: Target) -> tuple[MatmulPlan, PlanChoice] | None:
        """`grids=auto`'s plan for a large product (LARGE_GRID; the module docstring says which),
        or None: not such a product, a plan recorded before, or LARGE_GRID fits no plan."""
        if tgt.backend != "cuda" or not tgt.async_copy or not tgt.compute_units or element_bits(p.elem_type) != 16 \
                or self.tiles or self.workgroups_per_cu or PLAN_ATTR in d.root.attributes:
            return None
        (t,) = parse_tilings(LARGE_GRID["tiles"])
        tiles = math.ceil(p.sizes["m"] / t.bm) * math.ceil(p.sizes["n"] / t.bn) * p.sizes["b"]
        if tiles < LARGE_GRID_WAVES * tgt.compute_units:
            return None
        for k_bytes in LARGE_GRID_K_BYTES:
            large = dataclasses.replace(self, **LARGE_GRID, k_bytes=k_bytes)
            if p.sizes["k"] < large.stages * k_bytes * 8 // element_bits(p.elem_type):
                continue
            try:
                planned = large.plan_dispatch(d, p, tgt)
            except PassError:
                continue
            return large.large_walk(d, p, tgt, *planned) or planned
        return None

    def large_walk(self, d: MatmulDispatch, p: MatmulProblem, tgt: Target, pl: MatmulPlan,
                   choice: PlanChoice) -> tuple[MatmulPlan, PlanChoice] | None:
        """LARGE_GRID's plan `pl` (these options') walking its tiles in LARGE_WALK_STAGES stages
        where the module docstring says, or None: not mma.sync, not the widest K step, B not
        K-contiguous, a K shorter than the stages, or the stages do not fit."""
        if not isinstance(pl.scheme, MmaScheme) or choice.k_bytes != LARGE_GRID_K_BYTES[0] \
                or p.dims["B"][-1] != "k" or p.sizes["k"] < LARGE_WALK_STAGES * pl.bk:
            return None
        try:
            deeper, deeper_choice = dataclasses.replace(self, stages=LARGE_WALK_STAGES).plan_dispatch(d, p, tgt)
        except PassError:
            return None
        return deeper, dataclasses.replace(deeper_choice, walk=True)

    def small_grid(self, d: MatmulDispatch, p: MatmulProblem, tgt: Target) -> tuple[MatmulPlan, PlanChoice] | str:
        """The dispatch's plan and what chose it, or why it is not one `grids=small` takes: a
        target without cp.async, no plan of these options, a grid that fills the GPU or a K
        shorter than the pipeline."""
        if not tgt.async_copy:
            return "the target has no asynchronous copy to LDS"
        if not tgt.compute_units:
            return "the target's SM count is unknown"
        try:
            pl, choice = self.plan_dispatch(d, p, tgt)
        except PassError as e:
            return e.message.split(": ", 1)[-1]
        t, tiles = pl.tiling, math.prod(pl.grid(p.sizes))
        slots = tgt.compute_units * choice.workgroups_per_cu
        if tiles > SMALL_GRID_WAVES * slots:
            return f"{tiles} workgroups of {t.bm}x{t.bn} fill the {slots} workgroup slots more than {SMALL_GRID_WAVES} times"
        if p.sizes["k"] < pl.stages * pl.bk:
            return f"K = {p.sizes['k']} is fewer than the pipeline's {pl.stages} K steps of {pl.bk}"
        return pl, choice

    def lane(self, tgt: Target) -> int:
        """Bytes one lane copies: the option, else the target's (cp.async's widest on CUDA)."""
        return self.lane_bytes or (16 if tgt.async_copy else dtl.LANE_BYTES)

    def rewrite(self, p: MatmulProblem, pl: MatmulPlan, role: str, s: TileLayout, tgt: Target,
                budget: int) -> TileLayout:
        """`s` staged direct-to-LDS (where the target can) in the layout this pass's option
        says; LeftAlone where a guard refuses, ValueError where the layout cannot be proven."""
        elem_bytes = element_bits(p.elem_type) // 8
        lane = self.lane(tgt)
        if (32 in tgt.dma_bits and lane != 4) or lane // elem_bytes > tgt.vector_elems(8 * elem_bytes):
            raise ValueError(f"{lane}-byte lanes: not a transfer this target has")
        _check_guards(p, pl, s, elem_bytes, lane, 32 in tgt.dma_bits)
        try:
            g = dtl.Geometry(s.tile[0], s.tile[1], elem_bytes, s.threads, tgt.subgroup_size, lane)
        except ValueError:
            raise LeftAlone(f"the {s.tile[0]}x{s.tile[1]} tile is not whole wave runs of {lane}-byte lanes "
                             f"over {s.threads} threads") from None
        others = pl.lds_bytes(elem_bytes) - math.prod(s.lds_shape) * elem_bytes  # the other operand's LDS
        max_alloc = (budget - others) // (s.buffers * elem_bytes)
        model = tgt.bank_model()
        reads = fragment_reads(pl, role, s, tgt.subgroup_size)
        if self.layout == "auto" or self.layout in dtl.KINDS:
            kinds = dtl.KINDS if self.layout == "auto" else (self.layout,)
            spec, _ = dtl.choose(g, reads, model, kinds, s.read_vector, max_alloc)
        else:
            spec = dtl.DtlSpec.parse(self.layout)
            dtl.check(g, spec, reads, model, max_alloc)
        dtl.divisions(g, spec)  # proves every division the emitter will do; ValueError -> PassError
        copy = Direct() if 32 in tgt.dma_bits or tgt.async_copy else Registers()
        return s.placed(spec, g.vec, copy)


class LeftAlone(Exception):
    """An operand a guard refuses; the message says which guard."""


def _check_guards(p: MatmulProblem, pl: MatmulPlan, s: TileLayout, elem_bytes: int, lane: int,
                  dma: bool) -> None:
    if s.lds_dims != s.dims:
        raise LeftAlone("its LDS layout is not its global order as planned (DTL cannot transpose)")
    if isinstance(s.lds, LdsDtl):
        raise LeftAlone(f"already staged as {s.copy.text} {s.lds.text}")
    if lane % elem_bytes:
        raise LeftAlone(f"{elem_bytes}-byte elements do not pack into {lane}-byte lanes")
    vec = lane // elem_bytes
    if p.run_stride(s.operand) > 1:
        raise LeftAlone(f"its run lies {p.run_stride(s.operand)} elements apart along a row (a strided "
                        "convolution's image): a copy moves whole lanes, the register staging keeps what it needs")
    run = p.run(s.operand, copied=True)
    if run % vec:
        raise LeftAlone(f"its aligned contiguous run of {run} elements (its extent, as far as the runs' starts are "
                        f"aligned) is not whole {lane}-byte lanes (the transfer size the target supports)")
    if dma and p.sizes["k"] % pl.bk:
        raise LeftAlone(f"K = {p.sizes['k']} has a tail past the K step {pl.bk}: a DMA cannot zero-fill it")
    if dma and p.view and p.view.padded.get(s.operand):
        raise LeftAlone("an image padded in the dispatch: a DMA cannot zero-fill its border")
    if vec > 1 and p.view and p.view.straddles(s.operand):
        raise LeftAlone("its lanes run along a padded dim and may straddle the border: a copy cannot zero-fill "
                        "their first elements")


def fragment_reads(pl: MatmulPlan, role: str, s: TileLayout, wave_size: int) -> list[dtl.Read]:
    """Every fragment read of one K step of the first wave, as `lane -> (row, col, elements)`
    in the tile: the scheme's reads at each K sub-step and (matrix cores) each repetition."""
    sch = pl.scheme
    if isinstance(sch, MmaScheme):
        along = sch.intrinsic.m if role == "A" else sch.intrinsic.n
        xs = [r * along for r in range(sch.reps[0 if role == "A" else 1])]
    else:
        xs = [0]
    lanes = [sch.reads(role, s.k_contiguous, lane, s.k_pack) for lane in range(wave_size)]
    out = []
    for kk in range(0, pl.bk, sch.k_step * max(s.k_pack, 1)):
        for x in xs:
            dr, dc = (x, kk) if s.k_contiguous else (kk, x)
            for a in range(len(lanes[0])):
                out.append(lambda lane, a=a, dr=dr, dc=dc: (lanes[lane][a][0] + dr, lanes[lane][a][1] + dc,
                                                            lanes[lane][a][2]))
    return out
