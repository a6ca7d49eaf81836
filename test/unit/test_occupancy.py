"""ldsopt.measure.occupancy against the gfx942 limits its docstring cites: 8 waves per SIMD, a
unified file of 512 VGPRs per lane (AGPRs included) in blocks of 8, 800 SGPRs in blocks of
16, 64 KiB of LDS per CU in blocks of 512 B, 16 workgroups per CU (40 of one wave), a
workgroup's waves spread over 4 SIMDs; and against LLVM's own use of the same limits in the
committed ISA samples."""

import pathlib

import pytest

from ldsopt.measure import isa, occupancy
from ldsopt.measure.occupancy import occupancy as occ

SAMPLES = pathlib.Path(__file__).parent / "isa_samples"


def test_at_most_8_waves_per_simd():
    """CDNA3 has 8 wave slots a SIMD (10 on earlier GCN): a tiny kernel still gets 8."""
    assert occ(1, 1, 0, 64).waves == 8 and occ(1, 1, 0, 64).limited_by == []


@pytest.mark.parametrize("vgprs, waves", [(64, 8), (65, 7), (72, 7), (73, 6), (128, 4), (129, 3), (168, 3),
                                          (169, 2), (256, 2), (257, 1), (512, 1)])
def test_vgprs_512_per_lane_in_blocks_of_8(vgprs, waves):
    o = occ(vgprs, 16, 0, 256)
    assert o.waves == waves and o.limits["vgprs"] == waves
    assert (o.limited_by == ["vgprs"]) == (waves < 8)


def test_agprs_share_the_vgpr_file():
    """256 architected VGPRs and 256 AGPRs (the most of each) fill a lane's 512: one wave."""
    assert occ(256 + 256, 16, 0, 256).waves == 1
    with pytest.raises(ValueError):
        occ(513, 16, 0, 256)


@pytest.mark.parametrize("sgprs, waves", [(96, 8), (97, 7), (102, 7)])
def test_sgprs_800_per_simd_in_blocks_of_16(sgprs, waves):
    assert occ(8, sgprs, 0, 256).limits["sgprs"] == waves


@pytest.mark.parametrize("lds, threads, waves", [
    (65536, 256, 1), (32768, 256, 2), (30208, 256, 2), (32769, 256, 1),
    # a third of 64 KiB: 3 workgroups unrounded, 2 once each takes whole 512-byte blocks
    (21845, 256, 2), (21504, 256, 3),
    (16640, 256, 3), (8192, 64, 2), (8192, 1024, 8), (64, 1024, 8)])
def test_lds_64k_per_cu_in_512_byte_blocks(lds, threads, waves):
    assert occ(8, 16, lds, threads).limits["lds"] == waves
    with pytest.raises(ValueError):
        occ(8, 16, 65537, threads)


@pytest.mark.parametrize("threads, waves", [(64, 8), (128, 8), (192, 8), (1024, 8)])
def test_workgroup_slots(threads, waves):
    """Workgroups of one wave: 40 a CU, 10 waves a SIMD, so 8; of two: 16 workgroups, 8 waves a
    SIMD; of three: 13 (40 // 3), 39 waves, 10 on the fullest SIMD, so 8; of 16: 2, 8 a SIMD."""
    assert occ(8, 16, 0, threads).limits["workgroups"] == waves


def test_the_least_limit_wins_and_is_named():
    o = occ(160, 26, 50688, 256)
    assert o.waves == 1 and o.limits == {"vgprs": 3, "sgprs": 8, "lds": 1, "workgroups": 8}
    assert o.limited_by == ["lds"]


def _min_vgprs(waves: int) -> int:
    """LLVM's getMinNumVGPRs for gfx942: the fewest VGPRs that still keep occupancy at most
    `waves` (0 when that is the maximum)."""
    return 0 if waves >= occupancy.MAX_WAVES_PER_SIMD else \
        (occupancy.VGPRS_PER_SIMD_LANE // (waves + 1)) // occupancy.VGPR_GRANULE * occupancy.VGPR_GRANULE + 1


@pytest.mark.parametrize("name", ["matmul_mfma", "matmul_inthread_transpose", "matmul_dtl", "reduction",
                                  "iree_default_matmul"])
def test_llvm_raises_the_descriptor_vgprs_to_the_lds_occupancy(name):
    """LLVM allocates each kernel `max(its VGPRs, the fewest that keep the occupancy its LDS
    allows)`: with our LDS limit in that rule, the descriptor's VGPRs of every sample come out,
    and they give the occupancy the kernel's own VGPRs do."""
    (k,) = isa.parse_rocmasm((SAMPLES / f"{name}.rocmasm").read_text())
    o = occ(k.vgprs, k.sgprs, k.lds_bytes, k.workgroup_size)
    assert k.descriptor_vgprs == max(k.vgprs, _min_vgprs(o.limits["lds"]))
    assert occ(k.descriptor_vgprs, k.sgprs, k.lds_bytes, k.workgroup_size).waves == o.waves
