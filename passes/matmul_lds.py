"""ldsopt-matmul-lds: matmul dispatches to a tiled kernel that stages both operands through LDS.

Contract.
- Matches a dispatch whose root is a `linalg.generic` contraction (IREE generalizes
  `linalg.matmul`, `linalg.batch_matmul` and their transposed-operand forms to one by
  `executable-configurations`; the named ops are taken too, `linalg.contract` and
  `indexing_maps` included): one reduction loop k, an output over the other loops, which
  names them (b?, m, n) in its memory order whatever order the loops run in, one input over
  {m, k} and one over {n, k} in either order (NN, NT, TN, TT), plus an optional batch dim b
  that leads every operand; inputs of one type among f32,
  f16, bf16, result f32; body `out + ext?(a) * ext?(b)`; the output starts as a
  `linalg.fill` of a constant or as a loaded tensor.
- The contraction is stored, or feeds one elementwise consumer that IREE fused into the
  dispatch (bias add, GELU, residual add, scaling, truncf to f16): an all-parallel
  `linalg.generic` over the contraction's output space (b?, m, n), arith/math body ops only,
  reading the contraction's result through the identity map and loaded bindings through
  ascending projections of (b?, m, n) (a bias over n or m, a residual over (m, n)), whose one
  result (any float type) is stored, in (b?, m, n) order or permuted with n last (attention's
  head merge). The contraction's result is then never stored: each output piece goes through
  the consumer's body on vectors (`Emitter._epilogue` in ldsopt/matmul/emit.py). Anything
  else (two consumers, a stored contraction result, more fused ops) is left alone, with the
  reason as a remark.
- Needs a GPU target (#iree_gpu.target around the dispatch or lds-opt --target); a matched
  dispatch without one is an error.

The kernel (ldsopt/matmul/emit.py has it whole): workgroup (x, y, z) computes the BM x BN
tile (y, x) of batch z, the tiling and product scheme (FMA or the target's matrix cores)
that ldsopt/matmul/planner.py finds fastest; each operand's tiles are staged through LDS in a
pipeline of `stages` tiles, as their `StagingLayout` (ldsopt/staging.py) says, which a pass
before this one may have recorded on the root op (ldsopt/matmul/recorded.py).
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.dispatch import Dispatch
from ldsopt.ir_types import element_bits
from ldsopt.kernel import LOWERED_BY
from ldsopt.matmul.dtl_emit import uses_dtl, with_dtl
from ldsopt.matmul.emit_fma import FmaEmitter
from ldsopt.matmul.emit_mma import MmaEmitter
from ldsopt.matmul.match import MatmulProblem, matches
from ldsopt.matmul.planner import plan
from ldsopt.matmul.recorded import STAGED_BY, recorded_staging, with_recorded
from ldsopt.matmul.schemes import MmaScheme, MatmulPlan, check_tilings, parse_tilings
from ldsopt.registry import ModulePass, PassError, option


@dataclasses.dataclass(frozen=True)
class PlanOptions(ModulePass):
    """The options that choose ldsopt-matmul-lds's plan. The passes that record a staging for
    it to emit (ldsopt-dtl-layout, ldsopt-inthread-transpose) rewrite that plan, so they take
    the same options and must be given the same values; a recorded staging of another plan is
    a located error when ldsopt-matmul-lds runs (`with_recorded`)."""

    workgroups_per_cu: int = option(0, "workgroups that must fit an SM/CU together: in its LDS, and on CUDA in its "
                                       "registers (nvvm.minctasm); 0: the target's (2 on CUDA, 1 elsewhere)", min=0)
    mma: bool = option(True, "use the target's matrix-core intrinsic (gfx942 MFMA, CUDA mma.sync) where it has one")
    tiles: str = option("", "tilings to choose from by the plan's cost rule, as BMxBNxTMxTN,... (TMxTN: the FMA "
                            "micro-tile; threads = BM/TM * BN/TN, whole subgroups; any sizes, e.g. 96x96x3x4); "
                            "default 128x128x8x8 down to 32x32x2x2 and skinny ones (16x64x4x4, 64x16x4x4, "
                            "16x32x2x4, 32x16x4x2)", check=check_tilings)
    k_pack: int = option(-1, "K steps of the matrix-core intrinsic per fragment read group, their K slots fed "
                             "in mma.k_order so that a lane's are consecutive K: -1 as many as a 16-byte read "
                             "takes, 0 the natural order, N at most N", min=-1)
    stages: int = option(2, "LDS tiles of each operand in the K pipeline (2: double buffering); operands copied "
                            "without registers run stages - 1 tiles ahead", min=2)

    def planner(self) -> "MatmulLds":
        """ldsopt-matmul-lds with these plan options."""
        return MatmulLds(**{f.name: getattr(self, f.name) for f in dataclasses.fields(PlanOptions)})


@dataclasses.dataclass(frozen=True)
class MatmulLds(PlanOptions):
    NAME = "ldsopt-matmul-lds"
    SUMMARY = "Lower matmul dispatches to tiled kernels staging through LDS in a K pipeline (double-buffered by default)"

    def run(self, module: ir.Operation) -> None:
        for d, p, tgt in matches(module, self):
            pl = self.plan_dispatch(d, p, tgt)
            if STAGED_BY in d.root.attributes:  # they are named before this pass in lowered_by
                d.func.attributes[LOWERED_BY] = d.root.attributes[STAGED_BY]
            emitter = MmaEmitter if isinstance(pl.scheme, MmaScheme) else FmaEmitter
            if any(uses_dtl(s) for s in pl.staging.values()):  # laid out by ldsopt-dtl-layout
                emitter = with_dtl(emitter)
            emitter(d, p, pl, tgt).emit(self.NAME, self.occupancy(tgt))

    def occupancy(self, tgt: target_model.Target) -> int:
        """Workgroups per SM/CU the kernel is planned for. CUDA's default is 2: at one (ptxas
        free to take 255 registers) the inthread-transposed kernels took 163-220 registers and
        ran one workgroup per SM, slower than at 2 on the H200 (bench/results/cuda-matmul/
        README.md, "Measured choices")."""
        return self.workgroups_per_cu or (2 if tgt.backend == "cuda" else 1)

    def lds_budget(self, tgt: target_model.Target) -> int:
        """LDS bytes one workgroup may take: its share of a CU's / SM's, `occupancy` workgroups
        sharing it (target.Target.lds_budget)."""
        return tgt.lds_budget(self.occupancy(tgt))

    def plan_dispatch(self, d: Dispatch, p: MatmulProblem, tgt: target_model.Target) -> MatmulPlan:
        """The plan of this pass's options, staging each operand as recorded on the root op if it is."""
        budget = self.lds_budget(tgt)
        pl = plan(p, tgt, budget, self.mma, parse_tilings(self.tiles), self.k_pack, self.stages)
        if pl is None:
            which = f" of tiles={self.tiles}" if self.tiles else ""
            raise PassError(d.location, f"{self.NAME}: no tiling{which} fits the target's threads (whole subgroups "
                                        f"of {tgt.subgroup_size}, at most {tgt.max_threads}), vectors and LDS")
        try:
            pl = with_recorded(pl, recorded_staging(d.root))
        except ValueError as e:
            raise PassError(d.location, f"{self.NAME}: {e}") from None
        if self.k_pack >= 0 and pl.staging["A"].k_pack > self.k_pack:
            raise PassError(d.location, f"{self.NAME}: the recorded staging reads {pl.staging['A'].k_pack} K steps "
                                        f"at once, more than k-pack={self.k_pack}; give the passes the same k-pack")
        if pl.lds_bytes(element_bits(p.elem_type) // 8) > budget:
            raise PassError(d.location, f"{self.NAME}: the recorded staging needs more LDS than the target has")
        return pl
