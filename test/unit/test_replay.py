"""The value check of lds-run (`replay.compare`, `format_report`) on crafted arrays: special
values by class, finite values by tolerance against a reference of the same or a wider
type, a relative error that stays sane where the reference is 0."""

import json

import numpy as np
import pytest

from ldsopt.run import replay

INF, NAN = float("inf"), float("nan")


def check(out, ref, dtype="f32", ref_dtype=None, atol=None, rtol=None):
    a, r = replay.tolerances(dtype, atol, rtol)
    wider = {"ref_dtype": ref_dtype} if ref_dtype else {}
    return replay.compare(np.array(out, dtype=replay.DTYPES[dtype][0]),
                          np.array(ref, dtype=replay.DTYPES[ref_dtype or dtype][0]), dtype, a, r, "output 0", **wider)


def test_finite_output_where_the_reference_is_inf_fails():
    """atol + rtol*|ref| is infinite at an infinite reference: 0 used to pass there."""
    c = check([0.0, 1.0], [INF, 1.0])
    assert not c.ok and c.bad == 1 and c.special == 1
    assert not check([INF, 1.0], [1.0, 1.0]).ok  # the reverse


@pytest.mark.parametrize("dtype", ["f32", "f16", "f64"])
def test_outputs_equal_to_special_references_pass(dtype):
    """inf - inf and NaN - NaN are NaN: equal special values used to fail with max error 0."""
    c = check([INF, -INF, NAN, 1.5, -0.0], [INF, -INF, NAN, 1.5, 0.0], dtype)
    assert c.ok and c.bad == 0 and c.max_abs == 0.0 and c.max_rel == 0.0


@pytest.mark.parametrize("out,ref", [([-INF], [INF]), ([NAN], [INF]), ([INF], [NAN]), ([1.0], [NAN]),
                                     ([NAN], [1.0])])
def test_special_values_match_their_own_class_only(out, ref):
    c = check(out, ref)
    assert not c.ok and c.bad == c.special == 1


def test_bf16_special_values_compare_by_class():
    # bf16 is stored as its upper 16 bits: 0x7F80 +inf, 0xFF80 -inf, 0x7FC0 NaN, 0x3F80 1.0
    bits = np.array([0x7F80, 0xFF80, 0x7FC0, 0x3F80], dtype=np.uint16)
    assert replay.compare(bits, bits, "bf16", 5e-2, 2e-2, "o").ok
    swapped = bits[[1, 0, 2, 3]]
    assert replay.compare(swapped, bits, "bf16", 5e-2, 2e-2, "o").bad == 2


def test_output_more_accurate_than_a_low_precision_sum_is_judged_by_the_f64_reference():
    """IREE's large_reduction: 4096 f16 values of 0.001 (0.0010004 in f16). A tree sum gives
    4.098; a sequential f16 sum stalls at 4.0 once half an ulp exceeds the addend."""
    exact = 4096 * float(np.float16(0.001))
    assert check([4.098, 4.098], [exact, exact], "f16", ref_dtype="f64").ok
    stalled = check([4.0, 4.098], [exact, exact], "f16", ref_dtype="f64")
    assert not stalled.ok and stalled.bad == 1 and stalled.special == 0


def test_f32_sum_against_f64_reference():
    exact = 40960 * float(np.float32(0.001))
    assert check([np.float32(exact)], [exact], "f32", ref_dtype="f64").ok
    assert not check([np.float32(exact * (1 + 1e-3))], [exact], "f32", ref_dtype="f64").ok


def test_f64_reference_that_overflows_the_output_type_matches_inf():
    """70000 rounds to +inf in f16: a kernel that overflows to +inf is right, -inf or the
    largest finite f16 (65504, off by 4496) is not."""
    assert check([INF], [70000.0], "f16", ref_dtype="f64").ok
    assert not check([-INF], [70000.0], "f16", ref_dtype="f64").ok
    assert not check([65504.0], [70000.0], "f16", ref_dtype="f64").ok
    inf_bf16 = np.array([0x7F80], dtype=np.uint16)
    assert replay.compare(inf_bf16, np.array([1e39]), "bf16", 5e-2, 2e-2, "o", ref_dtype="f64").ok
    assert not replay.compare(inf_bf16, np.array([1e38]), "bf16", 5e-2, 2e-2, "o", ref_dtype="f64").ok


def test_relative_error_is_relative_to_the_scale_of_the_output():
    """A reference of 0 used to give a relative error of |err| / 2.2e-308 (printed 7.73e+303):
    it is relative to max(|ref|, s), s the RMS of the reference (at least atol)."""
    c = check([1e-6, 2.0], [0.0, 2.0])
    assert c.ok and c.scale == pytest.approx(np.sqrt(2))
    assert c.max_rel == pytest.approx(1e-6 / np.sqrt(2), rel=1e-3)
    assert c.max_abs == pytest.approx(1e-6, rel=1e-3)
    zero = check([1e-6, 0.0], [0.0, 0.0])
    assert zero.ok and zero.scale == replay.TOLERANCES["f32"][0]
    assert zero.max_rel == pytest.approx(1e-6 / replay.TOLERANCES["f32"][0], rel=1e-3)


def test_an_element_that_cancels_is_judged_at_the_output_scale():
    """An f16 sum of 4096 unit normals is ~64 in size; a row that cancels to 0.5 carries the
    rounding of partials of that size (a tree sum of it is off by ~0.05). A wrong row still
    fails: off by 1.5 at a tolerance of 0.01 + 0.01*max(0.5, 52)."""
    ref = [64.0, -64.0, 0.5]
    assert check([64.0, -64.0, 0.55], ref, "f16", ref_dtype="f64").ok
    wrong = check([64.0, -64.0, 2.0], ref, "f16", ref_dtype="f64")
    assert not wrong.ok and wrong.bad == 1


def test_scale_ignores_special_values_and_huge_values_do_not_overflow():
    c = check([INF, 1.0, 1.0], [INF, 1.0, 1.0])
    assert c.ok and c.scale == 1.0
    big = check([1e300, -1e300], [1e300, -1e300], "f64")
    assert big.ok and big.scale == pytest.approx(1e300)


def test_errors_are_reported_over_finite_pairs():
    c = check([INF, 1.25], [INF, 1.0])
    assert not c.ok and c.bad == 1 and c.special == 0
    assert c.max_abs == 0.25 and c.max_rel == 0.25


def test_integers_compare_exactly():
    assert replay.compare(np.array([3, -7], np.int32), np.array([3, -7], np.int32), "i32", 0, 0, "o").ok
    c = replay.compare(np.array([3, -6], np.int32), np.array([3, -7], np.int32), "i32", 0, 0, "o")
    assert not c.ok and c.bad == 1 and c.max_abs == 1


def test_report_states_tolerance_reference_and_relative_error():
    result = {"source": "p.mlir", "target": "lavapipe", "device": "vulkan",
              "dispatches": [{"name": "d0", "pipeline": "x", "passes": ["ldsopt-vector-distribute"]}],
              "reference": {"precision": "f64", "not_promoted": None, "reduction_length": None},
              "special_values": False,
              "outputs": [{"name": "output 0", "dtype": "f16", "max_abs": 0.0977, "max_rel": 0.0238, "ok": False,
                           "bad": 2, "special": 1, "atol": 0.01, "rtol": 0.01, "scale": 4.1}],
              "passed": False}
    text, ok = replay.format_report(result)
    assert not ok
    assert "float arithmetic in f64" in text
    assert "|out - ref| <= 0.01 + 0.01*max(|ref|, s)" in text
    assert "|out - ref| / max(|ref|, s), s = 4.1 the RMS of the reference" in text
    assert "2 elements out of tolerance (1 of them inf/NaN against a reference of another class)" in text
    assert text.splitlines()[-1].startswith("FAIL")


def test_a_folder_without_reference_outputs_is_refused(tmp_path):
    """No reference, no comparison: an empty check used to PASS. A folder of an older lds-run
    (no recorded tolerances) is refused too, with a clear error rather than a KeyError."""
    manifest = {"source": "p.mlir", "target": "cuda", "device": "cuda", "function": "main", "vmfb": "m.vmfb",
                "dispatches": [], "inputs": [], "outputs": [{"shape": [4], "dtype": "f32", "file": "output0.bin"}],
                "expected": [], "tolerances": [{"atol": 1e-4, "rtol": 1e-4}], "reference": None,
                "special_values": False}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RuntimeError, match="holds no reference outputs"):
        replay.replay(str(tmp_path))
    del manifest["tolerances"]  # as an older lds-run wrote it
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RuntimeError, match="prepared by an older lds-run"):
        replay.replay(str(tmp_path))
