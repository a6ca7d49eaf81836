"""Unit tests of ldsopt.target: the facts read from IREE's target info and the known targets."""
from ldsopt import target as target_model


def test_known_compute_units():
    assert [target_model.by_name(n).compute_units for n in ("gfx942", "cuda", "lavapipe")] == [304, 132, 4]


def test_chip_wgp_count_wins():
    info = target_model.GFX942_INFO.replace('>>', '>, chip = <wgp_count = 228, sku = "mi300a">>')
    assert target_model.parse_target_info(info, "rocm").compute_units == 228


def test_unknown_arch_has_no_compute_units():
    info = target_model.SM89_INFO.replace('"sm_89"', '"rdna9"')
    assert target_model.parse_target_info(info, "rocm").compute_units is None


def test_lds_budget_shares_the_cu_and_caps_at_the_workgroup_maximum():
    cuda, gfx942, lavapipe = (target_model.by_name(n) for n in ("cuda", "gfx942", "lavapipe"))
    # The H200's 228 KiB per SM: two workgroups may each take the 99 KiB maximum, three 76 KiB.
    assert [cuda.lds_budget(n) for n in (1, 2, 3)] == [101376, 101376, 77824]
    assert [gfx942.lds_budget(n) for n in (1, 2)] == [65536, 32768]
    # lavapipe states no CU: one workgroup's maximum is taken as the CU's.
    assert lavapipe.lds_per_cu is None and lavapipe.lds_budget(2) == lavapipe.lds_bytes // 2


def test_f64_kept_by_the_reference_and_where_a_program_asks():
    """IREE demotes f64 to f32 by default: a module with f64 arguments would then expect f32
    inputs. The reference keeps f64 always; the GPU targets where the program's signature
    has f64 (driver.prepare), so that a model's inner f64 scalars stay demoted."""
    assert target_model.KEEP_F64 in target_model.KNOWN["llvm-cpu"].compile_flags
    for name in ("gfx942", "cuda", "lavapipe"):
        assert target_model.KEEP_F64 not in target_model.KNOWN[name].compile_flags, name
    lavapipe = target_model.LAVAPIPE_DEVICE_TARGET
    assert "cap:Float64" in lavapipe and "compute = fp64|" in lavapipe


def test_sm90a_is_the_h200_with_wgmma():
    """cuda-sm90a: IREE names no sm_90a target, so the info is written by hand; it keeps the
    sm_89 facts but the arch, which alone makes wgmma legal, and an SM's 227 KiB per workgroup."""
    hopper, ada = target_model.by_name("cuda-sm90a"), target_model.by_name("cuda")
    assert (hopper.arch, hopper.wgmma, hopper.async_copy, hopper.compute_units) == ("sm_90a", True, True, 132)
    assert (ada.arch, ada.wgmma) == ("sm_89", False)
    assert hopper.lds_bytes == 232448
    assert target_model.known("cuda-sm90a").module_targets.count('arch = "sm_90a"') == 1
    assert [target_model.sm_version(a) for a in ("sm_80", "sm_90a", "gfx942")] == [80, 90, None]
