"""Waves per SIMD of a gfx942 (CDNA3, MI300X) kernel, from its registers, LDS and workgroup size.

The limits, as LLVM's AMDGPU backend encodes them for gfx942 (it gives gfx90a and gfx942 the
same GFX90A register file) and as ROCm's hardware table states them for the MI300X; the
CDNA3 ISA guide itself could not be read here, so each limit names where it was checked:
- a SIMD holds at most 8 waves (LLVM AMDGPUBaseInfo.cpp `getMaxWavesPerEU`: 8 for gfx90a-class
  targets, 10 on earlier GCN);
- 512 VGPRs per SIMD lane in one unified file that a wave's architected VGPRs and its AGPRs
  (AccVGPRs) share, each at most 256 (LLVM `getTotalNumVGPRs`: 512, citing the MI200 ISA
  guide's section 3.6.4 for the 256 + 256 split), allocated in blocks of 8
  (`getVGPRAllocGranule`: 8); ROCm's table gives an MI300X CU 512 KiB of VGPRs, 4 SIMDs x 512
  registers x 64 lanes x 4 B;
- 800 SGPRs per SIMD, allocated in blocks of 16 (LLVM `getTotalNumSGPRs`, `getSGPRAllocGranule`
  for GFX8-GFX9; ROCm's table: a 12.5 KiB SGPR file per CU, 4 x 800 x 4 B), at most 102 a wave;
- 64 KiB of LDS per CU, shared by the workgroups on it (ROCm's table, MI300X: 64 KiB), allocated
  in blocks of 128 dwords, 512 B (LLVM AMDGPUAsmPrinter: "LDS is allocated in 128 dword
  blocks" from Sea Islands on);
- a CU takes at most 16 workgroups of more than one wave, 40 of one (LLVM
  `getMaxWorkGroupsPerCU`); a workgroup's waves spread over the CU's 4 SIMDs, so W workgroups
  of N waves put ceil(W*N/4) waves on the fullest SIMD (LLVM `getOccupancyWithLocalMemSize`).

`vgprs` is the metadata's `.vgpr_count`: the architected VGPRs, rounded up to 4 when there are
AGPRs, plus the AGPRs. LLVM raises the VGPRs the kernel descriptor allocates
(`.amdhsa_next_free_vgpr`) to just above what the occupancy LDS allows leaves room for
(`getMinNumVGPRs`): registers for waves that could not run anyway. The occupancy is
computed from `vgprs`, what the code uses; the descriptor's allocation gives the same.
"""

from __future__ import annotations

import dataclasses
import math

MAX_WAVES_PER_SIMD = 8
SIMDS_PER_CU = 4
WAVE_SIZE = 64
VGPRS_PER_SIMD_LANE = 512
VGPR_GRANULE = 8
MAX_VGPRS_PER_WAVE = 512      # architected + accumulation, each at most 256
SGPRS_PER_SIMD = 800
SGPR_GRANULE = 16
LDS_PER_CU = 65536
LDS_GRANULE = 512
MAX_WORKGROUPS_PER_CU = 16
MAX_ONE_WAVE_WORKGROUPS_PER_CU = 40


@dataclasses.dataclass(frozen=True)
class Occupancy:
    waves: int                   # waves per SIMD: the least of the limits
    limits: dict[str, int]       # each resource's own limit (vgprs, sgprs, lds, workgroups)

    @property
    def limited_by(self) -> list[str]:
        """The resources that set `waves` (none when the SIMD's 8 wave slots do)."""
        return [k for k, v in self.limits.items() if v == self.waves and v < MAX_WAVES_PER_SIMD]


def _round_up(n: int, granule: int) -> int:
    return -(-n // granule) * granule


def occupancy(vgprs: int, sgprs: int, lds_bytes: int, workgroup_size: int) -> Occupancy:
    """Waves per SIMD of a kernel using `vgprs` VGPRs (AGPRs included) and `sgprs` SGPRs per wave
    and `lds_bytes` of LDS per workgroup of `workgroup_size` threads. ValueError for a kernel
    that cannot run at all (more registers than a wave may have, more LDS than a CU has)."""
    if vgprs > MAX_VGPRS_PER_WAVE or lds_bytes > LDS_PER_CU or workgroup_size < 1:
        raise ValueError(f"no wave fits: {vgprs} VGPRs, {lds_bytes} B of LDS, workgroups of {workgroup_size}")
    waves_per_group = math.ceil(workgroup_size / WAVE_SIZE)
    groups = MAX_ONE_WAVE_WORKGROUPS_PER_CU if waves_per_group == 1 else \
        min(MAX_WORKGROUPS_PER_CU, MAX_ONE_WAVE_WORKGROUPS_PER_CU // waves_per_group)

    def per_simd(workgroups: int) -> int:
        return min(MAX_WAVES_PER_SIMD, math.ceil(workgroups * waves_per_group / SIMDS_PER_CU))

    limits = {
        "vgprs": min(MAX_WAVES_PER_SIMD, VGPRS_PER_SIMD_LANE // _round_up(max(vgprs, 1), VGPR_GRANULE)),
        "sgprs": min(MAX_WAVES_PER_SIMD, SGPRS_PER_SIMD // _round_up(max(sgprs, 1), SGPR_GRANULE)),
        "lds": per_simd(min(groups, LDS_PER_CU // _round_up(lds_bytes, LDS_GRANULE))) if lds_bytes else
        MAX_WAVES_PER_SIMD,
        "workgroups": per_simd(groups),
    }
    return Occupancy(min(limits.values()), limits)
