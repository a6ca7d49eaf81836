"""ldsopt.measure.isa and isa_counts on committed gfx942 ISA samples (test/unit/isa_samples, made
as its README says): each counted field, over the whole kernel and one trip of its main loop,
for a matmul on MFMA, the in-thread transpose, DTL (loads straight to LDS), a reduction and
IREE's default matmul. The expected counts were read off the samples with grep (instruction
lines between the loop's label and its branch back), not from the parser."""

import pathlib

import pytest

from ldsopt.measure import isa, isa_counts

SAMPLES = pathlib.Path(__file__).parent / "isa_samples"
MFMA = "v_mfma_f32_16x16x16_f16"

# sample -> (metadata, whole-kernel counts, main-loop counts, loop instructions, loops)
EXPECTED = {
    "matmul_mfma": (
        dict(vgprs=124, agprs=0, sgprs=22, lds_bytes=40960, scratch_bytes=0, workgroup_size=256, descriptor_vgprs=257),
        {"mfma": {MFMA: 32}, "ds_read": {"ds_read_b128": 8}, "ds_write": {"ds_write_b128": 8},
         "load": {"buffer_load_dwordx4": 8}, "store": {"buffer_store_dword": 64}, "s_waitcnt": {"s_waitcnt": 11},
         "s_barrier": {"s_barrier": 2}},
        {"mfma": {MFMA: 32}, "ds_read": {"ds_read_b128": 8}, "ds_write": {"ds_write_b128": 4},
         "load": {"buffer_load_dwordx4": 4}, "s_waitcnt": {"s_waitcnt": 6}, "s_barrier": {"s_barrier": 1}},
        74, 1),
    "matmul_inthread_transpose": (
        dict(vgprs=134, agprs=0, sgprs=24, lds_bytes=36864, scratch_bytes=0, workgroup_size=256, descriptor_vgprs=257),
        {"mfma": {MFMA: 32}, "ds_read": {"ds_read_b128": 8}, "ds_write": {"ds_write_b128": 4, "ds_write_b64": 8},
         "load": {"buffer_load_dwordx4": 4, "buffer_load_dwordx2": 8}, "store": {"buffer_store_dword": 64},
         "s_waitcnt": {"s_waitcnt": 12}, "s_barrier": {"s_barrier": 2}, "v_perm_b32": {"v_perm_b32": 16}},
        {"mfma": {MFMA: 32}, "ds_read": {"ds_read_b128": 8}, "ds_write": {"ds_write_b128": 2, "ds_write_b64": 4},
         "load": {"buffer_load_dwordx4": 2, "buffer_load_dwordx2": 4}, "s_waitcnt": {"s_waitcnt": 6},
         "s_barrier": {"s_barrier": 1}, "v_perm_b32": {"v_perm_b32": 8}},
        97, 1),
    "matmul_dtl": (
        dict(vgprs=130, agprs=0, sgprs=36, lds_bytes=32768, scratch_bytes=0, workgroup_size=256, descriptor_vgprs=169),
        {"mfma": {MFMA: 32}, "ds_read": {"ds_read_b128": 8}, "lds_direct": {"buffer_load_dword": 32},
         "store": {"buffer_store_dword": 64}, "s_waitcnt": {"s_waitcnt": 7}, "s_barrier": {"s_barrier": 2}},
        {"mfma": {MFMA: 32}, "ds_read": {"ds_read_b128": 8}, "lds_direct": {"buffer_load_dword": 16},
         "s_waitcnt": {"s_waitcnt": 5}, "s_barrier": {"s_barrier": 1}},
        147, 1),
    "reduction": (
        dict(vgprs=25, agprs=0, sgprs=18, lds_bytes=64, scratch_bytes=0, workgroup_size=1024, descriptor_vgprs=25),
        {"ds_read": {"ds_read_b32": 1}, "ds_write": {"ds_write_b32": 1},
         "ds_other": {"ds_bpermute_b32": 2, "ds_swizzle_b32": 8}, "load": {"buffer_load_dwordx4": 4},
         "store": {"buffer_store_dword": 1}, "s_waitcnt": {"s_waitcnt": 17}, "s_barrier": {"s_barrier": 1}},
        {"load": {"buffer_load_dwordx4": 4}, "s_waitcnt": {"s_waitcnt": 4}},
        26, 1),
    "iree_default_matmul": (
        dict(vgprs=159, agprs=0, sgprs=22, lds_bytes=50688, scratch_bytes=0, workgroup_size=256, descriptor_vgprs=257),
        {"mfma": {MFMA: 128}, "ds_read": {"ds_read2_b64": 16, "ds_read_u16": 256}, "ds_write": {"ds_write2_b64": 24},
         "load": {"buffer_load_dwordx4": 24}, "store": {"buffer_store_dword": 32}, "s_waitcnt": {"s_waitcnt": 97},
         "s_barrier": {"s_barrier": 4}, "v_perm_b32": {"v_perm_b32": 128}},
        {"mfma": {MFMA: 64}, "ds_read": {"ds_read2_b64": 8, "ds_read_u16": 128}, "ds_write": {"ds_write2_b64": 12},
         "load": {"buffer_load_dwordx4": 12}, "s_waitcnt": {"s_waitcnt": 38}, "s_barrier": {"s_barrier": 2},
         "v_perm_b32": {"v_perm_b32": 64}},
        346, 1),
}


def _sample(name: str) -> tuple[isa.KernelIsa, isa_counts.KernelCounts]:
    text = (SAMPLES / f"{name}.rocmasm").read_text()
    (kernel,) = isa.parse_rocmasm(text)
    return kernel, isa_counts.analyze(isa.kernel_code(text)[kernel.name])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_counts(name):
    meta, whole, loop, loop_instructions, loops = EXPECTED[name]
    kernel, counts = _sample(name)
    assert {k: getattr(kernel, k) for k in meta} == meta
    assert kernel.vgpr_spills == kernel.sgpr_spills == 0
    assert counts.whole.ops == whole
    assert counts.loop.ops == loop and counts.loop.instructions == loop_instructions
    assert counts.loops == loops


def test_summary_fields_agree_with_the_counts():
    """The KernelIsa summary (lds-run's line) and the counts read the same instructions."""
    for name in EXPECTED:
        kernel, counts = _sample(name)
        assert kernel.mfma == counts.whole.count("mfma")
        assert kernel.barriers == counts.whole.count("s_barrier") and kernel.v_perm == counts.whole.count("v_perm_b32")
        assert kernel.lds_direct_loads == counts.whole.count("lds_direct")
        assert kernel.ds_count("ds_read") == counts.whole.count("ds_read")


def test_wave_bytes_and_flops_of_a_loop_trip():
    _, itt = _sample("matmul_inthread_transpose")
    assert itt.loop.mfma_flops == 32 * 2 * 16 * 16 * 16
    assert itt.loop.lane_bytes("ds_read") == 8 * 16 and itt.loop.lane_bytes("ds_write") == 2 * 16 + 4 * 8
    assert itt.loop.global_wave_bytes == 64 * (2 * 16 + 4 * 8)
    assert itt.loop.by_width("ds_write") == {16: 2, 8: 4}
    _, dtl = _sample("matmul_dtl")
    assert dtl.loop.global_wave_bytes == 64 * 16 * 4  # LDS-direct dwords count as global reads
    _, iree = _sample("iree_default_matmul")
    assert iree.loop.by_width("ds_read") == {16: 8, 2: 128}


@pytest.mark.parametrize("op, nbytes", [
    ("ds_read_b128", 16), ("ds_read2_b64", 16), ("ds_read2st64_b32", 8), ("ds_read_u16", 2), ("ds_read_u16_d16_hi", 2),
    ("ds_write_b16", 2), ("ds_read_b96", 12), ("ds_read_i8", 1), ("buffer_load_dwordx4", 16), ("buffer_load_dword", 4),
    ("global_load_dwordx2", 8), ("buffer_load_ushort", 2), ("buffer_store_short", 2), ("global_load_short_d16_hi", 2),
    ("global_store_byte", 1), ("global_load_lds_dwordx4", 16), ("ds_bpermute_b32", 4), ("ds_swizzle_b32", 4),
    ("global_atomic_add_f32", None)])
def test_access_bytes(op, nbytes):
    assert isa_counts.access_bytes(op) == nbytes


@pytest.mark.parametrize("op, flops, type_", [
    ("v_mfma_f32_16x16x16_f16", 8192, "f16"), ("v_mfma_f32_32x32x8_bf16", 16384, "bf16"),
    ("v_mfma_i32_16x16x32_i8", 16384, "i8"), ("v_mfma_f32_4x4x4_16b_f16", 2048, "f16"),
    ("v_mfma_f32_32x32x1_2b_f32", 4096, "f32"), ("v_mfma_f32_16x16x32_fp8_fp8", 16384, "fp8")])
def test_mfma_shapes(op, flops, type_):
    assert isa_counts.mfma_flops(op) == flops and isa_counts.mfma_type(op) == type_


def test_lds_direct_needs_the_lds_modifier():
    assert isa.is_lds_direct("buffer_load_dword", "v12, s[12:15], 0 offen lds")
    assert not isa.is_lds_direct("buffer_load_dword", "v12, s[12:15], 0 offen")
    assert isa.is_lds_direct("global_load_lds_dwordx4", "v[2:3], off")


def test_innermost_loop_with_the_most_mfma_is_the_main_one():
    """Two loops in a row and one around an inner one: the main loop is the inner loop with
    MFMA, not the outer one that holds it, nor the longer loop of loads."""
    code = [("s_mov_b32", "s0, 0"), ("label", ".LBB0_1"), ("buffer_load_dwordx4", "v[0:3], v4, s[0:3], 0 offen"),
            ("buffer_load_dwordx4", "v[0:3], v4, s[0:3], 0 offen"), ("s_cbranch_scc1", ".LBB0_1"),
            ("label", ".LBB0_2"), ("label", ".LBB0_3"), (MFMA, "v[0:3], v[4:5], v[6:7], v[0:3]"),
            ("ds_read_b128", "v[4:7], v8"), ("s_cbranch_vccnz", ".LBB0_3"), ("s_waitcnt", "vmcnt(0)"),
            ("s_branch", ".LBB0_2"), ("s_endpgm", "")]
    counts = isa_counts.analyze(code)
    assert counts.loops == 3
    assert counts.loop.ops == {"mfma": {MFMA: 1}, "ds_read": {"ds_read_b128": 1}}
    assert isa_counts.analyze([("s_endpgm", "")]).loop is None


def test_a_branch_back_to_the_exit_block_is_no_loop():
    """LLVM may lay the exit block (s_endpgm) out before a later block that branches to it, as in
    ldsopt-preload-transposed's kernel of nhwc_nchw_add_64x56x56x128_f16: no cycle, no loop."""
    code = [("buffer_load_dwordx4", "v[0:3], v8, s[4:7], 0 offen"), ("s_cbranch_execnz", ".LBB0_11"),
            ("label", ".LBB0_10"), ("s_endpgm", ""),
            ("label", ".LBB0_11"), ("buffer_store_dwordx4", "v[0:3], v8, s[12:15], 0 offen"),
            ("s_cbranch_execz", ".LBB0_10"), ("buffer_store_dwordx4", "v[4:7], v9, s[12:15], 0 offen"),
            ("s_endpgm", "")]
    counts = isa_counts.analyze(code)
    assert counts.loops == 0 and counts.loop is None
    assert counts.whole.ops["store"] == {"buffer_store_dwordx4": 2}


def test_a_rotated_loop_entered_in_its_middle():
    """As LLVM lays out ldsopt-vector-distribute's softmax row loop: the entry jumps to .LBB0_2,
    the loop's header (on every path into the cycle), laid out after .LBB0_1, which the back
    edges target. One loop, of both blocks, without the entry's instructions."""
    code = [("buffer_load_dword", "v1, v0, s[0:3], 0 offen"), ("s_branch", ".LBB0_2"),
            ("label", ".LBB0_1"), ("ds_read_b32", "v2, v3"), ("s_cbranch_scc0", ".LBB0_6"),
            ("label", ".LBB0_2"), ("buffer_load_dwordx4", "v[4:7], v0, s[0:3], 0 offen"), ("ds_write_b32", "v3, v2"),
            ("s_cbranch_execz", ".LBB0_1"), ("v_add_f32_e32", "v1, v1, v2"), ("s_branch", ".LBB0_1"),
            ("label", ".LBB0_6"), ("s_endpgm", "")]
    counts = isa_counts.analyze(code)
    assert counts.loops == 1
    assert counts.loop.ops == {"ds_read": {"ds_read_b32": 1}, "load": {"buffer_load_dwordx4": 1},
                               "ds_write": {"ds_write_b32": 1}}
    assert counts.loop.instructions == 7
