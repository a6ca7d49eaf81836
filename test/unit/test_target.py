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
