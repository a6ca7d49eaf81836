"""ldsopt-matmul-lds: matmul dispatches to a tiled kernel that stages both operands through LDS.

Contract.
- Matches a dispatch whose root is a `linalg.generic` contraction (IREE generalizes
  `linalg.matmul`, `linalg.batch_matmul` and their transposed-operand forms to one by
  `executable-configurations`; the named ops are taken too, `linalg.contract` and
  `indexing_maps` included): one reduction loop k, an output over the other loops, which
  names them (b?, m, n) in its memory order whatever order the loops run in, one input over
  {m, k} and one over {n, k} in either order (NN, NT, TN, TT), plus optional batch dims b
  that lead the output and sit anywhere in each input (one; two where ldsopt-split-matmul
  splits the K of a batch matmul: its chunks of K read A [b, m, k] as [b, m, chunk, k /
  chunks]; workgroup z runs over their product); inputs of one type among f32,
  f16, bf16, result f32, body `out + ext?(a) * ext?(b)` (addf, mulf, extf); or f16 x f16 ->
  f16 and bf16 x bf16 -> bf16 (`out + a * b` in the 16-bit type, as some importers write an f16
  model), accumulated in f32 like the others and rounded to the result's type once, at the
  store (before a fused consumer, which reads the 16-bit result); or inputs i8,
  result i32, body `out + extsi(a) * extsi(b)` (addi, muli, extsi: the named ops' default,
  signed cast). The output starts as a `linalg.fill` of a constant, as a loaded tensor, or
  as a loaded tensor broadcast by a fused `linalg.generic` along ascending dims with no
  arithmetic (a grouped convolution's bias, as torch-mlir starts its accumulator, which
  IREE keeps in the dispatch where a reshape stands between them), added at the store.
  Left to IREE, with the reason as a remark: other type combinations (i8 -> i8, i8 x f16,
  i16, f8), unsigned i8 (`arith.extui`: a body that is not the one above), and a fused
  consumer whose result is i1.
- The contraction is stored, or feeds one elementwise consumer that IREE fused into the
  dispatch (bias add, GELU, residual add, scaling, truncf to f16): an all-parallel
  `linalg.generic` over the contraction's output space (b?, m, n), arith/math body ops and
  `linalg.index` (a causal mask computed from the output's position) only,
  reading the contraction's result through the identity map and loaded bindings through
  projections of (b?, m, n) (a bias over n or m, a residual over (m, n); in another order, a
  residual over (n, m), each lane of an output vector loads its own element), whose result (or
  each of its results, stored directly: LeViT's BatchNorm stored twice; any float type, or an
  integer of 8 bits or more; an i8 matmul's consumer reads the i32 sums: `arith.sitofp` and a
  scale, dequantization; an i32 bias; or a requantization to i8, scaled in f32, rounded, a zero
  point added, clamped to [-128, 127]) is stored, in (b?, m, n) order or permuted: with n last
  (attention's head merge) as vectors, otherwise (a transposed store: FocalNet's 1x1 convolution
  stored channels last, SqueezeBERT's) each lane's element alone at its own output index. A
  binding it reads may be a static, unit-stride slice of a wider tensor (MobileBERT's residual,
  a projection IREE keeps in a wider buffer), read through the slice's view, where the operands,
  a loaded init and a prologue's inputs must be whole tensors (left to IREE, said so). The
  contraction's result is then never stored: each output piece goes through the consumer's body
  on vectors (`Emitter._epilogue` in ldsopt/matmul/emit.py). Anything else (two consumers, a
  stored contraction result, more fused ops) is left alone, with the reason as a remark.
- An operand may be computed in the dispatch by an elementwise producer that IREE fused
  before the contraction (IREE 3.13 fuses dequantizations: `extf`/`sitofp` of narrower
  weights or activations times a per-channel scale, minus a zero point; it leaves a plain
  f32 scaling in a dispatch of its own): an all-parallel `linalg.generic` whose one result
  is only that operand, written in its loops' order, arith/math body ops only, reading
  loaded bindings through ascending projections of its loops (weights over all of them or
  broadcast along the batch, a scale over one). Its result is never stored: the operand's
  tile reads load its inputs and apply its body on vectors before the LDS store
  (`Emitter._operand_vector`), so LDS, the plan and the product see the contraction's
  operand type. The passes that restage or copy an operand without registers
  (ldsopt-inthread-transpose, ldsopt-dtl-layout) leave such a dispatch to this pass.
- A convolution (a contraction whose image is read through sums of loops, as IREE
  generalizes `linalg.conv_2d_*`: NHWC or NCHW, any kernel size, stride and dilation, and the
  1x1 ones whose filters have no batch dim) is taken as an implicit GEMM
  (ldsopt/matmul/implicit_gemm.py): M, N and K are groups of its loops, its operands are
  gathered by the register staging, its output and fused consumer (a BatchNorm's scale and
  shift, a bias, ReLU, a residual) are indexed at its own dims; an image padded with zeros
  in the dispatch (a fused `tensor.pad`) is read in its bound tensor, zeros outside it.
  Depthwise and grouped convolutions, a convolution with a fused producer and a padding of
  another value are left alone with the reason. ldsopt-inthread-transpose leaves a
  convolution to this pass; ldsopt-dtl-layout may stage its operands (each chunk copied from
  its own gathered index).
- Dynamic shapes (`lds-run --keep-dynamic`: a serving export's sequence length): a contraction
  whose M (the output's rows; a batch matmul's within its batch), N or K, in any combination,
  is read at run time, with the batch static, is taken (ldsopt/matmul/match.py): each dynamic
  dim planned as `NOMINAL_EXTENT` (so are the auto choices that read the grid, `carries`) and
  always treated as ragged (the operands' reads along it guarded against its run-time value,
  one element at a time along an operand's dynamic contiguous dim, the copies without
  registers clamping their indices to it; the consumer's reads and the output's stores guarded
  against M and N, one element at a time along a dynamic N), the dispatch's count region
  launches ceil(N / BN) x ceil(M / BM) workgroups, and a dynamic K's loop runs ceil(K / BK)
  steps counted at run time, its last tile's elements past K read as zeros in both operands.
  Left to IREE, with the remark naming the dynamic extent: a dynamic batch, and dynamic
  extents with a fused producer or of a convolution. The TMA copies and the staging passes
  (ldsopt-dtl-layout, ldsopt-inthread-transpose) leave dynamic extents to this pass, which
  stages the operands itself.
- Needs a GPU target (#iree_gpu.target around the dispatch or lds-opt --target); a matched
  dispatch without one is an error.

The kernel (ldsopt/matmul/emit.py has it whole): workgroup (x, y, z) computes the BM x BN
tile (y, x) of batch z, the tiling and product scheme (FMA or the target's matrix cores)
that ldsopt/matmul/planner.py finds fastest; each operand's tiles are staged through LDS in a
pipeline of `stages` tiles, as their `TileLayout` (ldsopt/layout/tile_layout.py) says, which a pass
before this one may have recorded on the root op (ldsopt/matmul/recorded.py).

On sm_90a (`--target cuda-sm90a`: Hopper), a product of f16 or bf16 into f32 whose operands'
contiguous dims are multiples of 8, with no fused prologue and not a convolution
(planner.wgmma_refusal), is planned for the wgmma scheme (planner.wgmma_plan,
ldsopt/matmul/emit_wgmma.py): warpgroups of 128 threads, `nvvm.wgmma.mma_async` on operands
that cp.async copies into 128-byte-swizzled LDS and descriptors describe, one workgroup an SM;
the other products keep the plans above. The staging passes leave these dispatches to this
pass; `mma=false` keeps FMA, `tiles` chooses among the scheme's tilings (a warpgroup per 64
rows), `workgroups-per-cu` sets the LDS budget. `cluster-k=N` splits K over a thread block
cluster of N workgroups per tile (up to 8), whose partial sums meet in distributed shared
memory, summed in a fixed order by one workgroup per warp's rows, which alone stores them
(emit_wgmma.py); a split that no tiling takes is a located error. Opt-in: the plans never
split by themselves (bench/results/cuda-matmul/README.md, "Measured choices", says why).
`multicast=CMxCN` shares the TMA copies' boxes over clusters of CM x CN workgroups
(ldsopt/matmul/tma_copy.py); a kernel without TMA copies or whose tiles do not fill whole
clusters stays unshared and says why (`ldsopt.multicast_refused`). Opt-in: slower than
unshared on the H200 so far (bench/results/cuda-matmul/multicast/, multicast-depth/).
A wgmma kernel with TMA copies and more tiles than SMs is a persistent one by default
(ldsopt/matmul/persistent.py; option `persistent`, auto): one workgroup an SM walking the
tiles, the K pipeline running on across them so that the next tile's first copies are in
flight while a tile is stored. Chosen by measuring the large products on the H100
(bench/results/cuda-matmul/quad-stores/, persistent/): faster at 8192x8192x1024 and for 4096^3
with a 16-bit output, level at 4096^3 with f32 out; so is a kernel whose recorded plan says
it walks (`walk`: ldsopt-dtl-layout's large mma.sync products with B K-contiguous on Hopper).
`persistent=true` walks the kernels of every scheme (mma.sync, MFMA, FMA: their copies and
register reads take the origin of the tile they fetch), and a kernel that cannot stays a plain
grid and says why (`ldsopt.persistent_refused`); `persistent=false` keeps every plain grid.

The output (option `output-lds`): matrix-core kernels stage the output tile through LDS and
store it in 16-byte row pieces (ldsopt/matmul/output_stage.py) where that widens the stores and
the tile takes no more LDS than the operands' staging; other kernels, or any with
`output-lds=false`, store their accumulator pieces directly.

Beside the consumer, the dispatch may hold what `ldsopt-fold-norm` forms: sums of A's rows, or
values per row reduced from loaded tensors, that the consumer reads (ldsopt/matmul/row_stats.py),
and statistics per chunk of columns of the consumer's result, stored as further results
(ldsopt/matmul/chunk_stats.py: from the output tile, staged wherever the stage fits unless
`output-lds=false`, else from the values the threads store, as under a K split; a dispatch
whose tiles hold no whole chunks, or whose unstaged chunks span more than a subgroup's lanes, is
left to IREE with the reason).

`carry-fragments` (matrix-core kernels): the first fragment read group of each K step is read
right after the barrier that publishes its tile, at the end of the step before, and carried
into the step in registers, so that its first products need not wait for LDS (register double
buffering across K steps; the barrier keeps ptxas from moving those reads itself). By default
(auto) on CUDA where an SM runs at most one workgroup: by the plan, or because the grid has no
more workgroups than SMs (`MatmulLds.carries`).

The plan options (workgroups-per-cu, mma, tiles, k-pack, stages) are shared with the passes
that record a staging (ldsopt-inthread-transpose, ldsopt-dtl-layout): where one of them
recorded the plan of its staging (`ldsopt.matmul_plan` on the root op), this pass follows
that record, and an option given here that contradicts it is an error at the dispatch
(ldsopt/matmul/options.py).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ldsopt import remarks
from ldsopt.ir_types import element_bits
from ldsopt.matmul import chunk_stats
from ldsopt.codegen.kernel import LOWERED_BY
from ldsopt.matmul.emit_fma import FmaEmitter
from ldsopt.matmul.emit_mma import MmaEmitter
from ldsopt.matmul.emit_wgmma import WgmmaEmitter
from ldsopt.matmul.tma_copy import Multicast
from ldsopt.matmul.options import MULTICAST_REFUSED, PlanChoice, PlanOptions
from ldsopt.matmul.persistent import PERSISTENT_REFUSED
from ldsopt.matmul.match import MatmulProblem
from ldsopt.matmul.recorded import STAGED_BY
from ldsopt.matmul.schemes import MatmulPlan, MmaScheme, WgmmaScheme
from ldsopt.registry import PassError, option
from ldsopt.target import Target

# `tma-store`'s values: the part buffers of the TMA stores' stage (0: the threads store the tiles).
TMA_STORE_BUFFERS = {"false": 0, "true": 1, "double": 2}


@dataclasses.dataclass(frozen=True)
class MatmulLds(PlanOptions):
    NAME = "ldsopt-matmul-lds"
    SUMMARY = "Lower matmul dispatches to tiled kernels staging through LDS in a K pipeline (double-buffered by default)"

    output_lds: str = option("auto", "the output tile through LDS, leaving in 16-byte row pieces "
                                     "(ldsopt/matmul/output_stage.py): true where it widens the stores and fits "
                                     "the LDS the plan leaves, false never, auto as true for matrix-core kernels "
                                     "where the tile takes no more LDS than the operands' staging",
                             choices=("auto", "true", "false"))
    carry_fragments: str = option("auto", "matrix-core kernels: each K step's first fragments read right after "
                                          "the barrier that publishes its tile and carried into the step in "
                                          "registers (register double buffering across K steps): true, false, "
                                          "or auto: on CUDA where an SM runs one workgroup at most (by the "
                                          "plan, or a grid of no more workgroups than SMs)",
                                  choices=("auto", "true", "false"))

    tma: str = option("auto", "the wgmma scheme's operand tiles copied by Hopper's tensor memory accelerator, one "
                              "thread issuing each K step's boxes and mbarriers counting their bytes "
                              "(ldsopt/matmul/tma_copy.py): auto where the kernel allows it (whole bindings, N in "
                              "whole tiles, a tile's output row holding both maps, or under a multicast the cluster's "
                              "rows one each), false: cp.async",
                      choices=("auto", "false"))

    persistent: str = option("auto", "one workgroup an SM walking the output tiles, the next tile's first "
                                     "copies in flight while a tile is stored (ldsopt/matmul/persistent.py): auto "
                                     "for the wgmma kernels with TMA copies and the kernels whose recorded plan "
                                     "walks (ldsopt-dtl-layout's large NT products) that can, true for every "
                                     "kernel that can, those that cannot staying a plain grid saying why "
                                     f"({PERSISTENT_REFUSED}), false never",
                             choices=("auto", "true", "false"))

    tma_store: str = option("false", "a persistent wgmma kernel's output tiles through an LDS stage that the tensor "
                                     "memory accelerator stores while the next tile's K loop runs "
                                     "(ldsopt/matmul/tma_store.py): true where the kernel allows it and a stage "
                                     "fits the LDS the plan leaves (a tile that does not fit leaving in parts), "
                                     "double the same with a tile in parts through two part buffers, false: the "
                                     "output stored by the threads (measured as fast or faster: "
                                     "bench/results/cuda-matmul/tma-store/, tma-store-parts/)",
                            choices=tuple(TMA_STORE_BUFFERS))

    def run(self, module: ir.Operation) -> None:
        for m in self.planned_matmuls(module, prologues=True, dynamic=True):
            d, p, tgt, pl, choice = m.dispatch, m.problem, m.target, m.plan, m.choice
            if STAGED_BY in d.root.attributes:  # they are named before this pass in lowered_by
                d.func.attributes[LOWERED_BY] = d.root.attributes[STAGED_BY]
            emitter = WgmmaEmitter if isinstance(pl.scheme, WgmmaScheme) else \
                MmaEmitter if isinstance(pl.scheme, MmaScheme) else FmaEmitter
            try:
                extra = {"tma_budget": choice.lds_budget(tgt) if self.tma == "auto" else None,
                         "multicast": Multicast.parse(self.multicast),
                         "tma_store_buffers": TMA_STORE_BUFFERS[self.tma_store]} if emitter is WgmmaEmitter else {}
                kernel = emitter(d, p, pl, tgt, self.carries(pl, p, choice, tgt), **extra)
            except ValueError as e:
                raise PassError(d.location, f"{self.NAME}: {e}") from None
            asked = self.persistent == "true"
            # auto: the wgmma kernels and those whose plan walks (its `walk`), where they can, silently elsewhere
            if asked or (self.persistent == "auto" and (emitter is WgmmaEmitter or choice.walk)):
                kernel.walk_tiles(choice.workgroups_per_cu)
            for attr, why in ((MULTICAST_REFUSED, getattr(kernel, "multicast_refused", None)),
                              (PERSISTENT_REFUSED, asked and kernel.persistent_refused)):
                if why:
                    d.func.attributes[attr] = ir.StringAttr.get(why)
            if self.output_lds != "false" and (self.output_lds == "true" or p.chunk_stats or
                                               isinstance(pl.scheme, (MmaScheme, WgmmaScheme))):
                staged = pl.lds_bytes(element_bits(p.elem_type) // 8)
                left = choice.lds_budget(tgt) - staged - kernel.extra_lds
                # auto: at most the operands' LDS again, so that the stage does not cost resident
                # workgroups where LDS allows more than the plan's (bench/results/cuda-bert/output_stage).
                # Chunk statistics are made from the staged tile wherever it fits, else from the
                # registers (chunk_stats.emit_registers).
                kernel.plan_output_stage(left if self.output_lds == "true" or p.chunk_stats else min(left, staged))
            why = p.chunk_stats and chunk_stats.refusal(kernel)
            if why:
                remarks.missed(d.func, self.NAME, why)
                continue
            kernel.emit(self.NAME, choice.workgroups_per_cu)

    def carries(self, pl: MatmulPlan, p: MatmulProblem, choice: PlanChoice, tgt: Target) -> bool:
        """Whether the kernel carries fragments (`carry-fragments`). auto: on CUDA where each SM
        runs at most one workgroup, by the plan (one workgroup an SM) or by the grid (no more
        workgroups than SMs): there no other workgroup hides a step's first LDS reads, and the
        registers the carried fragments take cost no resident workgroup. Measured faster than
        without on the H200 in both (bench/results/cuda-matmul/sweep-424b3f4, sub-wave-*); not
        measured elsewhere (gfx942 runs one workgroup a CU by default), so not taken there."""
        if self.carry_fragments != "auto":
            return self.carry_fragments == "true"
        return tgt.backend == "cuda" and (choice.workgroups_per_cu == 1
                                          or math.prod(pl.grid(p.sizes)) <= (tgt.compute_units or 0))
