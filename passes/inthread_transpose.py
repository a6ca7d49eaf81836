"""ldsopt-inthread-transpose (seed 002): stage a matmul operand that is not K-contiguous in
global memory K-contiguous in LDS, transposing it in registers on the way (Triton AMD's
in-thread transpose: the "thread rake" and the shared-encoding swap).

Contract.
- Runs right before ldsopt-matmul-lds, on the dispatches that pass takes (its matching; a
  matched dispatch without a GPU target is an error here as there). It plans each dispatch as
  ldsopt-matmul-lds with its default options does (`MatmulLds.plan_dispatch`) and, for each
  operand that qualifies, records the rewritten `StagingLayout` (ldsopt/staging.py) on the
  root op, `ldsopt.staging = {B = {...}}`, and its own name in `ldsopt.staged_by`;
  ldsopt-matmul-lds emits the recorded staging and names this pass before itself in the
  kernel's `ldsopt.lowered_by`. Nothing else in the IR changes. ldsopt-matmul-lds run with
  other options plans other tiles, and reports the recorded layout as not of its plan.
- The rewritten staging. Each thread reads `rake = 64 / element bits` consecutive K rows (4
  f16/bf16, 2 f32), each one vector along M or N, so that the global reads stay coalesced
  along the contiguous dim; the vector shrinks until the raked chunks split evenly over the
  threads (Triton replicates threads instead; here each element has exactly one). The thread
  transposes that register tile (`vector.transpose`; gfx942 packs 16-bit columns with
  v_perm_b32) and writes each column, `rake` K-consecutive elements (64 bits), to LDS, which
  then holds the tile K-contiguous: the fragment reads along K become vectors (4 f16 for MFMA
  16x16x16 and for FMA: ds_read_b64 on gfx942) instead of single elements. The LDS address map
  is the one of fewest bank conflicts, by the shared bank model (ldsopt/banks.py) over the
  first wave's LDS writes and fragment reads, among row pads and rotating swizzles
  (layout.RotatingSwizzle, Triton's amd_rotating_shared) that need no more LDS than the
  operand had; a swizzle unit holds whole writes and reads, so both stay vectors.

Guards; an operand that fails one keeps its planned staging:
- already K-contiguous in LDS (K-contiguous in global memory: NN's A, NT's B; or rewritten
  already, which makes the pass idempotent);
- K per thread < 2 (Triton's shape[K] / (threadsPerWarp[K] * warpsPerCTA[K]) >= 2): the
  planned global read spreads the tile's K rows so thinly over the threads that none holds
  a register tile to transpose;
- fragment reads no wider from K-contiguous LDS than planned: nothing to gain, only register
  shuffles. MFMA 16x16x4 f32 takes one K element per lane either way; FMA kernels (lavapipe,
  CUDA f32) read 4-wide vectors along M or N as planned and along K transposed (Triton applies
  the transpose only to MFMA/WMMA operands). Option `force` restages these too, which tests
  the transposed staging on targets without matrix cores (lavapipe);
- no vector width splits the raked chunks evenly over the threads;
- types must match and tiles be 2-D (Triton's): ldsopt-matmul-lds takes only operands of one
  element type, and its tiles are 2-D (a batch dim is the workgroup's z, outside the tile).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ldsopt.banks import BankModel
from ldsopt.elementwise import element_bits
from ldsopt.passes import matmul_lds
from ldsopt.registry import ModulePass, option
from ldsopt.staging import StagingLayout

# Bits each thread writes to LDS per transposed column (Triton: sizePerThread[K] = 64 / elemBits).
WRITE_BITS = 64


@dataclasses.dataclass(frozen=True)
class InthreadTranspose(ModulePass):
    NAME = "ldsopt-inthread-transpose"
    SUMMARY = "Stage matmul operands that are not K-contiguous K-contiguous in LDS, transposed in registers"

    force: bool = option(False, "also restage operands whose fragment reads would not get wider (FMA kernels), "
                                "to run the transposed staging on targets without matrix cores")

    def run(self, module: ir.Operation) -> None:
        planner = matmul_lds.MatmulLds()
        for d, p, tgt in matmul_lds.matches(module, self.NAME):
            pl = planner.plan_dispatch(d, p, tgt)
            model = BankModel(tgt.lds_banks, tgt.lds_bank_bytes, tgt.subgroup_size)
            bits = element_bits(p.elem_type)
            rewritten = {role: t for role, s in pl.staging.items()
                         if (t := transposed(s, pl.scheme, bits, model, self.force)) is not None}
            if rewritten:
                matmul_lds.record_staging(d.root, rewritten, self.NAME)


def k_per_thread(s: StagingLayout) -> int:
    """K rows each thread covers in the planned global read of a K-strided tile (rows = K)."""
    rows, cols = s.tile
    along_k = max(1, s.threads // (cols // s.vector))
    return rows // along_k


def transposed(s: StagingLayout, scheme, bits: int, model: BankModel, force: bool = False) -> StagingLayout | None:
    """`s` raked, transposed in registers and K-contiguous in LDS; None where a guard says no
    (`force`: even where the fragment reads get no wider)."""
    if s.k_contiguous or k_per_thread(s) < 2:
        return None
    rows, cols = s.tile
    rake = min(WRITE_BITS // bits, rows)
    read = max(n for _, _, n in scheme.reads(s.operand, True, 0))
    if read <= s.read_vector and not force:
        return None
    vec = s.vector
    while (rows // rake * (cols // vec)) % s.threads:  # the chunks must split evenly over the threads
        if vec == 1:
            return None
        vec //= 2
    base = dataclasses.replace(s, vector=vec, rake=rake, read_vector=read, pad=0, swizzle=())
    return _cheapest(base, scheme, bits // 8, model, math.prod(s.lds_shape))


def _cheapest(base: StagingLayout, scheme, elem_bytes: int, model: BankModel, lds_elems: int) -> StagingLayout:
    """The address map of fewest bank conflicts, then least LDS, then first listed (no swizzle,
    small pads, then swizzles by period), among those within `lds_elems`."""
    candidates = [c for c in _address_maps(base) if math.prod(c.lds_shape) <= lds_elems]
    cost = [(matmul_lds.bank_conflicts(c, scheme, elem_bytes, model), math.prod(c.lds_shape), i)
            for i, c in enumerate(candidates)]
    return candidates[min(cost)[2]]


def _address_maps(base: StagingLayout) -> list[StagingLayout]:
    """Row pads of 0, 1 and 2 units, and rotating swizzles of that unit (perPhase 1..8 rows,
    maxPhase 2..units per row): the unit is the wider of the LDS writes and the fragment reads,
    so that both stay whole vectors."""
    unit = max(base.write_vector, base.read_vector)
    cols = base.lds_tile[1]
    pads = [dataclasses.replace(base, pad=pad) for pad in (0, unit, 2 * unit)]
    swizzles = [dataclasses.replace(base, swizzle=(unit, per_phase, max_phase))
                for max_phase in _powers_of_two(2, cols // unit) for per_phase in _powers_of_two(1, 8)]
    return pads + swizzles


def _powers_of_two(lo: int, hi: int) -> list[int]:
    return [1 << e for e in range(lo.bit_length() - 1, hi.bit_length())] if hi >= lo else []
