"""The options that choose a matmul plan (`PlanOptions`: workgroups-per-cu, mma, tiles, k-pack,
stages, k-bytes, cluster-k, multicast, row-sums-cluster), shared by ldsopt-matmul-lds and the
passes that restage its operands before it (ldsopt-inthread-transpose, ldsopt-dtl-layout),
their one match-and-plan step
(`PlanOptions.planned_matmuls`), and the plan they record once.

The first of these passes that records a staging on a matmul's root op also records what
chose the plan it restaged (`PlanChoice`, the occupancy resolved for the target):
`ldsopt.matmul_plan = {by = "ldsopt-inthread-transpose", k_bytes = 64, k_pack = -1, mma = true,
stages = 2, tiling = "128x128x8x8", workgroups_per_cu = 1}`. Every pass after it (a second staging pass,
ldsopt-matmul-lds) plans that dispatch from the record, not from its own options, so the
stagings recorded and the kernel emitted are of one plan. An option left at its default
follows the record; one given another value that the record contradicts (a `tiles` list
without the recorded tiling, another `mma`, `k-pack`, `stages`, `k-bytes` or `workgroups-per-cu`) is an
error at the dispatch, naming the option and the record: give the plan options to the first
of these passes in the pipeline (or the same ones to each).

On sm_90a (`--target cuda-sm90a`) a product that the wgmma scheme takes (planner.wgmma_refusal)
gets its plan (`wgmma_planned`) unless `mma=false` or a recorded plan says otherwise (`tiles`
chooses among its tilings those of a warpgroup per 64 rows, the others going to mma.sync;
`stages`, where given, caps its LDS tiles; `workgroups-per-cu` sets its LDS budget;
`cluster-k` its K split over a cluster, planner.split_fits, 0 by planner.auto_split;
`row-sums-cluster` the cluster that shares A's row sums, row_stats.shared_by):
the staging passes leave it to ldsopt-matmul-lds, with that as their remark. A product the
scheme does not take keeps the other plans, and ldsopt-matmul-lds says why on its dispatch
(`ldsopt.wgmma_refused = "..."`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from iree.compiler import ir

from ldsopt import remarks
from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Dispatch
from ldsopt.ir_types import element_bits
from ldsopt.matmul import row_stats
from ldsopt.matmul.match import MatmulDispatch, MatmulProblem, matches
from ldsopt.matmul.planner import K_BYTES, WGMMA_STAGES, auto_split, plan, wgmma_plan, wgmma_refusal
from ldsopt.matmul.tma_copy import Multicast, check_multicast
from ldsopt.matmul.recorded import record_staging, recorded_staging, with_recorded
from ldsopt.matmul.schemes import (TILINGS, WGMMA_TILINGS, MatmulPlan, Tiling, check_k_bytes, check_tilings,
                                   parse_tilings)
from ldsopt.registry import ModulePass, PassError, option
from ldsopt.layout.tile_layout import TileLayout

# On the root op: what chose the plan of the stagings recorded there (`PlanChoice.attr`).
PLAN_ATTR = "ldsopt.matmul_plan"
STAGES_DEFAULT = 2
WGMMA_PASS = "ldsopt-matmul-lds"  # the pass that emits the wgmma scheme; the stagings leave it those
# On a dispatch that sm_90a's wgmma scheme does not take (it keeps mma.sync): why not.
WGMMA_REFUSED = "ldsopt.wgmma_refused"
# On a wgmma dispatch that asked for a multicast (`multicast`) and keeps unshared copies: why.
MULTICAST_REFUSED = "ldsopt.multicast_refused"

# A 16-bit product whose K is one K step (at most K_BYTES' widest) has no K pipeline to speak
# of: each workgroup loads its tiles, multiplies and stores, and only other resident workgroups
# hide those latencies. On CUDA such a product, left to the default tilings and occupancy, is
# planned in 64 x 64 tiles of 4 warps for 6 workgroups an SM, at the plan's own K step and two
# stages whatever the pipeline's `stages` and `k-bytes` (which would leave its K shorter than
# the pipeline, and ldsopt-dtl-layout's cp.async staging out); where that fits, else as usual.
# Chosen by measuring attention's Q x K^T (K = 64 f16) on the H200: bench/results/cuda-bert/short_k.
SHORT_K_TILINGS = (Tiling(64, 64, 8, 4),)
SHORT_K_WORKGROUPS = 6
# CUDA's default tilings: a 64 x 64 tile is 4 warps of 32 x 32 (the short-K one) rather than 8 of
# 32 x 16, which measured faster on the H200 for the BERT-base shapes cp.async stages
# (bench/results/cuda-bert/short_k and the README of bench/results/cuda-bert).
CUDA_TILINGS = tuple(SHORT_K_TILINGS[0] if t == Tiling(64, 64, 4, 4) else t for t in TILINGS)


@dataclasses.dataclass(frozen=True)
class PlanChoice:
    """What chooses a matmul plan, resolved for a target: the tilings to choose from (one when
    recorded: the chosen one), whether to use the matrix cores, the k-pack limit, the LDS
    tiles per operand, the workgroups per CU the LDS budget is shared by, the bytes of K
    per K step, and whether the kernel should walk its tiles (ldsopt-matmul-lds's
    `persistent=auto` then walks it where it can, whatever its scheme)."""

    tilings: tuple[Tiling, ...]
    mma: bool
    k_pack: int
    stages: int
    workgroups_per_cu: int
    k_bytes: int
    walk: bool = False

    def lds_budget(self, tgt: target_model.Target) -> int:
        """LDS bytes one workgroup may take: its share of a CU's / SM's (target.Target.lds_budget)."""
        return tgt.lds_budget(self.workgroups_per_cu)

    def attr(self, by: str) -> ir.DictAttr:
        (t,) = self.tilings
        i64 = ir.IntegerType.get_signless(64)
        return ir.DictAttr.get({
            "by": ir.StringAttr.get(by), "tiling": ir.StringAttr.get(f"{t.bm}x{t.bn}x{t.tm}x{t.tn}"),
            "mma": ir.BoolAttr.get(self.mma), "k_pack": ir.IntegerAttr.get(i64, self.k_pack),
            "stages": ir.IntegerAttr.get(i64, self.stages),
            "workgroups_per_cu": ir.IntegerAttr.get(i64, self.workgroups_per_cu),
            "k_bytes": ir.IntegerAttr.get(i64, self.k_bytes),
            **({"walk": ir.BoolAttr.get(True)} if self.walk else {})})


def recorded_plan(d: Dispatch, pass_name: str) -> tuple[PlanChoice, str] | None:
    """The plan choice recorded on the dispatch's root op and the pass that recorded it; a
    located error of `pass_name` if it does not parse (IR written by hand)."""
    if PLAN_ATTR not in d.root.attributes:
        return None
    try:
        a = ir.DictAttr(d.root.attributes[PLAN_ATTR])
        (tiling,) = parse_tilings(ir.StringAttr(a["tiling"]).value)
        choice = PlanChoice((tiling,), ir.BoolAttr(a["mma"]).value, ir.IntegerAttr(a["k_pack"]).value,
                            ir.IntegerAttr(a["stages"]).value, ir.IntegerAttr(a["workgroups_per_cu"]).value,
                            ir.IntegerAttr(a["k_bytes"]).value, "walk" in a and ir.BoolAttr(a["walk"]).value)
        if choice.k_pack < -1 or choice.stages < 2 or choice.workgroups_per_cu < 1 or choice.k_bytes < 16:
            raise ValueError("out of range")
        check_k_bytes(choice.k_bytes)
        return choice, ir.StringAttr(a["by"]).value
    except (ValueError, KeyError, TypeError):
        raise PassError(d.location, f"{pass_name}: {PLAN_ATTR} = {d.root.attributes[PLAN_ATTR]} is not a recorded "
                                    "plan (by, tiling BMxBNxTMxTN, mma, k_pack, stages, workgroups_per_cu, k_bytes[, "
                                    "walk])") from None


@dataclasses.dataclass(frozen=True)
class PlannedMatmul:
    """A matmul dispatch that a pass takes, and its plan and what chose it."""

    dispatch: MatmulDispatch
    problem: MatmulProblem
    target: target_model.Target
    plan: MatmulPlan
    choice: PlanChoice


@dataclasses.dataclass(frozen=True)
class PlanOptions(ModulePass):
    """The options that choose ldsopt-matmul-lds's plan; the passes that record a staging for
    it take them too (this module's docstring says which one counts)."""

    workgroups_per_cu: int = option(0, "workgroups that must fit an SM/CU together: in its LDS, and on CUDA in its "
                                       "registers (nvvm.minctasm); 0: the target's (2 on CUDA, 1 elsewhere)", min=0)
    mma: bool = option(True, "use the target's matrix-core intrinsic (gfx942 MFMA, CUDA mma.sync) where it has one")
    wgmma: bool = option(True, "on sm_90a, the wgmma scheme for the products it takes (false: mma.sync's plan, "
                               "in the LDS of the sm_90a target's SM)")
    tiles: str = option("", "tilings to choose from by the plan's cost rule, as BMxBNxTMxTN,... (TMxTN: the FMA "
                            "micro-tile; threads = BM/TM * BN/TN, whole subgroups; any sizes, e.g. 96x96x3x4); "
                            "default 128x128x8x8 down to 32x32x2x2 and skinny ones (16x64x4x4, 64x16x4x4, "
                            "16x32x2x4, 32x16x4x2)", check=check_tilings)
    k_pack: int = option(-1, "K steps of the matrix-core intrinsic per fragment read group, their K slots fed "
                             "in mma.k_order so that a lane's are consecutive K: -1 as many as a 16-byte read "
                             "takes, 0 the natural order, N at most N", min=-1)
    stages: int = option(STAGES_DEFAULT, "LDS tiles of each operand in the K pipeline (2: double buffering); "
                                         "operands copied without registers run stages - 1 tiles ahead; the wgmma "
                                         "scheme (sm_90a) takes as many as fit of at least 3, at most this where "
                                         "given, else planner.WGMMA_STAGES", min=2)
    k_bytes: int = option(0, "bytes of K each K step stages (BK; 64: 64 i8, 32 f16/bf16 or 16 f32 elements); 0: "
                             "the plan's cost rule chooses 64 or 128 (planner.K_BYTES)", min=0, check=check_k_bytes)
    cluster_k: int = option(0, "the wgmma scheme (sm_90a): workgroups of a thread block cluster that share an "
                               "output tile, each multiplying its chunk of K, the partial sums added through "
                               "distributed shared memory (0: the plan's rule, planner.auto_split: 2 where the "
                               "unsplit plan's tiles are 64x64 and its K loop long; 1: none)", min=0, max=8)
    multicast: str = option("1x1", "the wgmma scheme's TMA copies shared over thread block clusters of CMxCN "
                                   "workgroups (ldsopt/matmul/tma_copy.py): the CN along N share A's tiles, the "
                                   "CM along M share B's, each copying its slice to all; kernels that cannot "
                                   "(no TMA, tiles that do not fill whole clusters) stay unshared, saying why on the "
                                   f"dispatch ({MULTICAST_REFUSED})",
                            check=check_multicast)
    row_sums_cluster: int = option(1, "the wgmma scheme (sm_90a), where the dispatch sums A's rows for its "
                                      "consumer (ldsopt-fold-norm): at most this many workgroups of a thread "
                                      "block cluster along N share the sums, each summing every C-th K step, the "
                                      "partial sums added through distributed shared memory (1: none; opt-in: "
                                      "slower where measured, bench/results/cuda-models/row-share/)", min=1, max=8)

    def occupancy(self, tgt: target_model.Target) -> int:
        """Workgroups per SM/CU these options plan for. CUDA's default is 2: at one (ptxas
        free to take 255 registers) the inthread-transposed kernels took 163-220 registers and
        ran one workgroup per SM, slower than at 2 on the H200 (bench/results/cuda-matmul/
        README.md, "Measured choices")."""
        return self.workgroups_per_cu or (2 if tgt.backend == "cuda" else 1)

    def lds_budget(self, tgt: target_model.Target) -> int:
        """LDS bytes one workgroup may take at these options' `occupancy`."""
        return tgt.lds_budget(self.occupancy(tgt))

    def options_choice(self, tgt: target_model.Target) -> PlanChoice:
        """The plan choice of these options on `tgt` (no recorded plan)."""
        tilings = CUDA_TILINGS if tgt.backend == "cuda" and not self.tiles else parse_tilings(self.tiles)
        return PlanChoice(tilings, self.mma, self.k_pack, self.stages, self.occupancy(tgt), self.k_bytes)

    def choice(self, d: Dispatch, tgt: target_model.Target) -> PlanChoice:
        """The dispatch's plan choice: the one recorded on its root op if a pass recorded one
        (an option of this pass not at its default that contradicts it is a located error),
        else these options'."""
        recorded = recorded_plan(d, self.NAME)
        if recorded is None:
            return self.options_choice(tgt)
        rec, by = recorded
        (t,) = rec.tilings
        agrees = {"tiles": t in parse_tilings(self.tiles), "mma": self.mma == rec.mma,
                  "k_pack": self.k_pack == rec.k_pack, "stages": self.stages == rec.stages,
                  "workgroups_per_cu": self.workgroups_per_cu == rec.workgroups_per_cu,
                  "k_bytes": self.k_bytes == rec.k_bytes,
                  # a recorded plan is never the wgmma scheme's, which alone splits and multicasts
                  "wgmma": True, "cluster_k": True, "multicast": True, "row_sums_cluster": True}
        for f in dataclasses.fields(PlanOptions):
            value = getattr(self, f.name)
            if value != f.default and not agrees[f.name]:
                shown = str(value).lower() if isinstance(value, bool) else value
                raise PassError(d.location, f"{self.NAME}: option {f.name.replace('_', '-')}={shown} contradicts the "
                                            f"plan {by} recorded ({PLAN_ATTR} = {d.root.attributes[PLAN_ATTR]}); "
                                            "give the plan options to the first pass that plans the matmul")
        return rec

    def short_k(self, choice: PlanChoice, p: MatmulProblem, tgt: target_model.Target) -> PlanChoice | None:
        """`choice` (these options', not a recorded one) as SHORT_K_TILINGS at SHORT_K_WORKGROUPS,
        two stages, the plan's K step, where they apply: CUDA, a 16-bit product of one K step, M
        and N of a tile at least, and neither the tilings nor the workgroups per SM given; None
        elsewhere."""
        one_step = p.sizes["k"] * element_bits(p.elem_type) // 8 <= max(K_BYTES)
        if tgt.backend != "cuda" or element_bits(p.elem_type) != 16 or not one_step or \
                min(p.sizes["m"], p.sizes["n"]) < 64 or self.tiles or self.workgroups_per_cu:
            return None
        return dataclasses.replace(choice, tilings=SHORT_K_TILINGS, workgroups_per_cu=SHORT_K_WORKGROUPS, stages=2,
                                   k_bytes=0)

    def following(self, choice: PlanChoice):
        """This pass with the plan options of `choice` (its other options kept)."""
        return dataclasses.replace(self, tiles=",".join(f"{t.bm}x{t.bn}x{t.tm}x{t.tn}" for t in choice.tilings),
                                   mma=choice.mma, k_pack=choice.k_pack, stages=choice.stages,
                                   workgroups_per_cu=choice.workgroups_per_cu, k_bytes=choice.k_bytes)

    def planned_matmuls(self, module: ir.Operation, prologues: bool = False, convolutions: bool = False,
                        dynamic: bool = False) -> Iterator[PlannedMatmul]:
        """The match-and-plan step of the matmul passes: each matmul dispatch this pass takes
        (`match.matches`; with a fused prologue where `prologues`, a convolution where
        `prologues` or `convolutions`, a dynamic M where `dynamic`) and its plan (`planned`);
        one that `planned` leaves gets the reason as a missed remark."""
        for d, p, tgt in matches(module, self, prologues=prologues, convolutions=convolutions, dynamic=dynamic):
            hopper = self.wgmma_planned(d, p, tgt)
            if hopper is not None and self.NAME != WGMMA_PASS:
                remarks.missed(d.func, self.NAME, f"left to {WGMMA_PASS}'s wgmma scheme (sm_90a)")
                continue
            planned = hopper if hopper is not None else self.planned(d, p, tgt)
            if not isinstance(planned, str) and p.row_stats:
                planned = row_stats.refusal(p, *planned, tgt) or planned
            if isinstance(planned, str):
                remarks.missed(d.func, self.NAME, planned)
                continue
            yield PlannedMatmul(d, p, tgt, *planned)

    def wgmma_planned(self, d: MatmulDispatch, p: MatmulProblem,
                      tgt: target_model.Target) -> tuple[MatmulPlan, PlanChoice] | None:
        """The wgmma scheme's plan and its choice (planner.wgmma_plan, for `workgroups_per_cu`
        workgroups an SM, one by default) where
        the target has wgmma (sm_90a), the matrix cores are wanted, no pass recorded a plan and
        the scheme takes the product (`wgmma_refusal`), among its tilings (WGMMA_TILINGS, or
        those of `tiles` with a warpgroup of threads per 64 rows: e.g. 192x256x8x16); else None
        (such a product keeps the mma.sync plan)."""
        if not tgt.wgmma or not self.mma or not self.wgmma or PLAN_ATTR in d.root.attributes:
            return None
        refusal = wgmma_refusal(p, tgt)
        if refusal is not None:
            if self.NAME == WGMMA_PASS:  # said once, on the dispatch, by the pass that would emit it
                d.func.attributes[WGMMA_REFUSED] = ir.StringAttr.get(refusal)
            return None
        tilings = tuple(t for t in parse_tilings(self.tiles) if t.threads == t.bm // 64 * 128) if self.tiles \
            else WGMMA_TILINGS
        occupancy = self.workgroups_per_cu or 1
        most = self.stages if self.stages != STAGES_DEFAULT else WGMMA_STAGES  # `stages` given: the most
        budget = tgt.lds_budget(occupancy) - row_stats.reserved_lds(p)
        pl = wgmma_plan(p, tgt, budget, tilings, most, self.cluster_k or 1) if tilings else None
        # row sums need whole rows, a multicast TMA copies (unsplit): no split. Chunk statistics
        # split: the summing warps make them from their registers (chunk_stats.emit_registers).
        if pl is not None and not self.cluster_k and not p.row_stats and not Multicast.parse(self.multicast).shared:
            pl = auto_split(p, tgt, pl, lambda split: wgmma_plan(p, tgt, budget, tilings, most, split))
        if pl is None and self.cluster_k > 1:
            raise PassError(d.location, f"{self.NAME}: cluster-k={self.cluster_k}: no wgmma tiling splits this "
                                        f"product's K steps over {self.cluster_k} workgroups (planner.split_fits)")
        if pl is None:
            return None
        if not Multicast.parse(self.multicast).shared:  # a multicast takes the cluster
            pl = dataclasses.replace(pl, row_share=row_stats.shared_by(p, pl, self.row_sums_cluster))
        return pl, PlanChoice((pl.tiling,), True, 0, pl.stages, occupancy, pl.bk * element_bits(p.elem_type) // 8)

    def planned(self, d: MatmulDispatch, p: MatmulProblem,
                tgt: target_model.Target) -> tuple[MatmulPlan, PlanChoice] | str:
        """The dispatch's plan and its choice (`plan_dispatch`), or why this pass leaves the
        dispatch (a pass that leaves some says which in its own `planned`)."""
        return self.plan_dispatch(d, p, tgt)

    def plan_dispatch(self, d: Dispatch, p: MatmulProblem,
                      tgt: target_model.Target) -> tuple[MatmulPlan, PlanChoice]:
        """The dispatch's plan by `choice`, costed as `staged` says, staging each operand as
        recorded on the root op if it is; and the choice with its K step resolved."""
        choice = self.choice(d, tgt)
        bits = element_bits(p.elem_type)
        short = None if PLAN_ATTR in d.root.attributes else self.short_k(choice, p, tgt)
        pl = None
        for choice in ([short] if short else []) + [choice]:
            pl = plan(p, tgt, choice.lds_budget(tgt), choice.mma, choice.tilings, choice.k_pack, choice.stages,
                      choice.k_bytes, lambda candidate: self.following(choice).staged(candidate, tgt, bits))
            if pl is not None:
                break
        budget = choice.lds_budget(tgt)
        if pl is None:
            which = f" of tiles={self.tiles}" if self.tiles else ""
            raise PassError(d.location, f"{self.NAME}: no tiling{which} fits the target's threads (whole subgroups "
                                        f"of {tgt.subgroup_size}, at most {tgt.max_threads}), vectors and LDS")
        try:
            pl = with_recorded(pl, recorded_staging(d.root))
        except ValueError as e:
            raise PassError(d.location, f"{self.NAME}: {e}") from None
        if choice.k_pack >= 0 and pl.staging["A"].k_pack > choice.k_pack:
            raise PassError(d.location, f"{self.NAME}: the recorded staging reads {pl.staging['A'].k_pack} K steps "
                                        f"at once, more than k-pack={choice.k_pack}")
        if pl.lds_bytes(bits // 8) > budget:
            raise PassError(d.location, f"{self.NAME}: the recorded staging needs more LDS than the target has")
        return pl, dataclasses.replace(choice, k_bytes=pl.bk * bits // 8)

    def staged(self, pl: MatmulPlan, tgt: target_model.Target, bits: int) -> MatmulPlan:
        """`pl` as this pass would record it, which the plan's cost rule costs: as planned
        (a pass that restages operands for the cost's sake says how)."""
        return pl

    def record(self, d: Dispatch, pl: MatmulPlan, choice: PlanChoice, staging: dict[str, TileLayout]) -> None:
        """Records `staging` on the root op for ldsopt-matmul-lds, and the plan choice if no pass recorded one."""
        record_staging(d.root, staging, self.NAME)
        if PLAN_ATTR not in d.root.attributes:
            d.root.attributes[PLAN_ATTR] = dataclasses.replace(choice, tilings=(pl.tiling,)).attr(self.NAME)
