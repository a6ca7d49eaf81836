"""The value check of lds-run (`value_check.compare`) on crafted arrays: special values by
class, finite values by tolerance against a reference of the same or a wider type, each
element at its own scale (never the size of the output's other elements), a relative error
that stays sane where the reference is 0, overflow of the program's own arithmetic judged
against the program as written."""

import numpy as np
import pytest

from ldsopt.run import value_check
from ldsopt.run.tensor_file import DTYPES

INF, NAN = float("inf"), float("nan")


def check(out, ref, dtype="f32", ref_dtype=None, atol=None, rtol=None):
    a, r = value_check.tolerances(dtype, atol, rtol)
    wider = {"ref_dtype": ref_dtype} if ref_dtype else {}
    return value_check.compare(np.array(out, dtype=DTYPES[dtype][0]),
                          np.array(ref, dtype=DTYPES[ref_dtype or dtype][0]), dtype, a, r, "output 0", **wider)


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
    assert value_check.compare(bits, bits, "bf16", 5e-2, 2e-2, "o").ok
    swapped = bits[[1, 0, 2, 3]]
    assert value_check.compare(swapped, bits, "bf16", 5e-2, 2e-2, "o").bad == 2


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
    assert value_check.compare(inf_bf16, np.array([1e39]), "bf16", 5e-2, 2e-2, "o", ref_dtype="f64").ok
    assert not value_check.compare(inf_bf16, np.array([1e38]), "bf16", 5e-2, 2e-2, "o", ref_dtype="f64").ok


def test_relative_error_is_relative_to_the_element_own_size():
    """A reference of 0 used to give a relative error of |err| / 2.2e-308 (printed 7.73e+303):
    it is relative to max(|ref|, s, atol)."""
    c = check([1e-6, 2.0], [0.0, 2.0])
    assert c.ok and c.scale == pytest.approx(np.sqrt(2))  # the cap: the RMS of the reference
    assert c.max_rel == pytest.approx(1e-6 / value_check.TOLERANCES["f32"][0], rel=1e-3)
    assert c.max_abs == pytest.approx(1e-6, rel=1e-3)
    zero = check([1e-6, 0.0], [0.0, 0.0])
    assert zero.ok and zero.scale == value_check.TOLERANCES["f32"][0]


def test_other_elements_lend_no_scale():
    """999 ones and one 1e6: the RMS of the reference, 3.2e4, used to be every element's scale,
    so ones computed as 4.0, -1 or 0 passed. Each element is judged at its own scale: here its
    sensitivity is its own value (each output element is one input element moved)."""
    ref = np.array([1.0] * 999 + [1e6])
    for wrong in (4.0, -1.0, 0.0):
        out = np.array([wrong] * 999 + [1e6])
        for sens in (None, np.abs(ref)):
            c = value_check.compare(out.astype(np.float32), ref, "f32", 1e-4, 1e-4, "o", ref_dtype="f64",
                                    sensitivity=sens)
            assert not c.ok and c.bad == 999, (wrong, sens)
    right = ref * (1 + 5e-5)
    assert value_check.compare(right.astype(np.float32), ref, "f32", 1e-4, 1e-4, "o", ref_dtype="f64",
                               sensitivity=np.abs(ref)).ok


def test_an_element_that_cancels_is_judged_at_its_own_terms_scale():
    """An f16 sum of 4096 unit normals is ~64 in size; a row that cancels to 0.5 carries the
    rounding of partials of that size (a tree sum of it is off by ~0.05): its sensitivity (the
    RMS of its terms times sqrt(4096), ~64) is its scale. Without it, the row is judged at 0.5
    and fails; a wrong row fails either way: off by 1.5 at 0.01 + 0.01*max(0.5, 4*64 capped at
    the RMS, 52)."""
    ref, sens = [64.0, -64.0, 0.5], np.array([64.0, 64.0, 64.0])
    close = [64.0, -64.0, 0.55]
    out = np.array(close, np.float16)
    assert value_check.compare(out, np.array(ref), "f16", 1e-2, 1e-2, "o", ref_dtype="f64", sensitivity=sens).ok
    assert not value_check.compare(out, np.array(ref), "f16", 1e-2, 1e-2, "o", ref_dtype="f64").ok
    wrong = value_check.compare(np.array([64.0, -64.0, 2.0], np.float16), np.array(ref), "f16", 1e-2, 1e-2, "o",
                                ref_dtype="f64", sensitivity=sens)
    assert not wrong.ok and wrong.bad == 1


def test_a_sensitivity_never_judges_an_element_beyond_the_rms_of_the_output():
    """The scale is at most the RMS the rule it replaced used: never looser than it."""
    c = value_check.compare(np.array([1.5, 1.0], np.float32), np.array([1.0, 1.0]), "f32", 1e-4, 1e-4, "o",
                            ref_dtype="f64", sensitivity=np.array([1e9, 1e9]))
    assert not c.ok and c.scale == 1.0
    assert c.max_rel == pytest.approx(0.5)


def test_overflow_of_the_program_own_arithmetic_is_judged_against_the_program_as_written():
    """exp(100x)/exp(100x) in f32: inf/inf = NaN as written, 1 in f64. A kernel computing the
    program's f32 gives NaN: it passes, counted as overflow where the f64 reference is finite;
    1 passes too (it matches the f64 reference); 0 or inf match neither."""
    ref, written = np.array([1.0, 1.0]), np.array([np.nan, 1.0], np.float32)
    for first in (np.nan, 1.0):
        c = value_check.compare(np.array([first, 1.0], np.float32), ref, "f32", 1e-4, 1e-4, "o", ref_dtype="f64",
                                written=[written])
        assert c.ok and c.overflow == 1 and c.f64_finite == 1, first
    for first in (0.0, np.inf):
        c = value_check.compare(np.array([first, 1.0], np.float32), ref, "f32", 1e-4, 1e-4, "o", ref_dtype="f64",
                                written=[written])
        assert not c.ok and c.bad == 1, first
    plain = value_check.compare(np.array([np.nan, 1.0], np.float32), ref, "f32", 1e-4, 1e-4, "o", ref_dtype="f64")
    assert not plain.ok and plain.special == 1 and plain.overflow == 0  # without the program as written


def test_an_f64_reference_that_overflows_where_the_program_does_not():
    """The reverse: the f64 value, rounded to f16, is inf where the program as written gives a
    finite f16 (its own arithmetic saturated): the kernel's finite value matches the program."""
    c = value_check.compare(np.array([60000.0], np.float16), np.array([70000.0]), "f16", 1e-2, 1e-2, "o",
                            ref_dtype="f64", written=[np.array([60000.0], np.float16)])
    assert c.ok and c.overflow == 1 and c.f64_finite == 0


def test_scale_ignores_special_values_and_huge_values_do_not_overflow():
    c = check([INF, 1.0, 1.0], [INF, 1.0, 1.0])
    assert c.ok and c.scale == 1.0
    big = check([1e300, -1e300], [1e300, -1e300], "f64")
    assert big.ok and big.scale == pytest.approx(1e300)


def test_errors_are_reported_over_finite_pairs():
    c = check([INF, 1.25], [INF, 1.0])
    assert not c.ok and c.bad == 1 and c.special == 0
    assert c.max_abs == 0.25 and c.max_rel == 0.25


def test_a_reference_within_the_tolerance_of_zero_is_flagged_as_one_zeros_would_pass():
    """MobileViT's activations at its sweep size vanished (1e-44 and below): its outputs passed
    against a reference of zeros. The comparison says when zeros would pass."""
    tiny = check([1e-30, -2e-35], [3e-31, 0.0])
    assert tiny.ok and tiny.zeros_pass
    assert not check([1.0, 2e-35], [1.0, 0.0]).zeros_pass
    assert not check([1e-3, 0.0], [1e-3, 0.0]).zeros_pass  # past atol + rtol * atol
    assert value_check.compare(np.zeros(3, np.int32), np.zeros(3, np.int32), "i32", 0, 0, "o").zeros_pass
    assert not value_check.compare(np.ones(3, np.int32), np.ones(3, np.int32), "i32", 0, 0, "o").zeros_pass


def test_integers_compare_exactly():
    assert value_check.compare(np.array([3, -7], np.int32), np.array([3, -7], np.int32), "i32", 0, 0, "o").ok
    c = value_check.compare(np.array([3, -6], np.int32), np.array([3, -7], np.int32), "i32", 0, 0, "o")
    assert not c.ok and c.bad == 1 and c.max_abs == 1


def test_tolerances_grow_only_for_unpromoted_references():
    assert value_check.tolerance_growth(1) == value_check.tolerance_growth(64) == 1.0
    assert value_check.tolerance_growth(4096) == 8.0
    sig = ["f16", "i32", "f32"]  # the outputs' types
    promoted = {"precision": "f64", "not_promoted": None, "reduction_length": None}
    assert value_check.output_tolerances(sig, promoted, None, None) == [
        {"atol": 1e-2, "rtol": 1e-2}, {"atol": 0.0, "rtol": 0.0}, {"atol": 1e-4, "rtol": 1e-4}]
    as_written = {"precision": "program", "not_promoted": "arith.fptosi ...", "reduction_length": 4096}
    assert value_check.output_tolerances(sig, as_written, None, None)[2] == {"atol": 8e-4, "rtol": 8e-4}
    # what the user gives is used as given
    assert value_check.output_tolerances(sig, as_written, 1e-3, None)[2] == {"atol": 1e-3, "rtol": 8e-4}
    # an f32 output of values the program rounds to f16: no tighter an rtol than 4 ulps of f16
    rounds = {**promoted, "computes_in": ["f32"], "rounds_to": ["f16"]}
    assert value_check.output_tolerances(sig, rounds, None, None)[2] == {"atol": 1e-4, "rtol": 4 * 2.0 ** -10}
    assert value_check.output_tolerances(sig, {**as_written, "rounds_to": ["f16"]}, None, None)[2]["rtol"] == 4 * 2.0 ** -10
