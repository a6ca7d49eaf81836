"""lds-run's replay side (`replay`): the report (`format_report`) names what was compared and
never PASSes on nothing; the folder check before a run is tested in test_prepared_folder.py."""

from ldsopt.run import replay


def _result(outputs, passed=True):
    return {"source": "p.mlir", "target": "lavapipe", "device": "vulkan",
            "dispatches": [{"name": "d0", "pipeline": "x", "passes": ["ldsopt-vector-distribute"]}],
            "reference": {"precision": "f64", "not_promoted": None, "reduction_length": None},
            "special_values": False, "outputs": outputs, "passed": passed}


def _output(**kw):
    return {"name": "output 0", "dtype": "f16", "max_abs": 0.0977, "max_rel": 0.0238, "ok": True, "bad": 0,
            "special": 0, "atol": 0.01, "rtol": 0.01, "scale": 4.1, "elements": 100, "overflow": 0,
            "f64_finite": 0, **kw}


def test_report_states_tolerance_reference_and_relative_error():
    text, ok = replay.format_report(_result([_output(ok=False, bad=2, special=1)], passed=False))
    assert not ok
    assert "float arithmetic in f64" in text
    assert "|out - ref| <= 0.01 + 0.01*max(|ref|, s)" in text
    assert "s each element's own scale, 4x its sensitivity, at most 4.1 the RMS of the reference" in text
    assert "2 elements out of tolerance (1 of them inf/NaN against a reference of another class)" in text
    assert text.splitlines()[-1] == ("FAIL p.mlir on lavapipe (vulkan): values differ from the reference; 1 output, "
                                     "100 elements compared")


def test_pass_names_how_many_outputs_and_elements_were_compared():
    outputs = [_output(), _output(name="output 1", dtype="i32", elements=7)]
    text, ok = replay.format_report(_result(outputs))
    assert ok and text.splitlines()[-1] == "PASS p.mlir on lavapipe (vulkan): 2 outputs, 107 elements compared"


def test_nothing_compared_never_passes():
    """A result of no outputs (a manifest with none used to PASS)."""
    text, ok = replay.format_report(_result([]))
    assert not ok and text.splitlines()[-1].startswith("FAIL p.mlir on lavapipe (vulkan): no output was compared")


def test_overflow_of_the_program_arithmetic_is_reported_as_such():
    text, ok = replay.format_report(_result([_output(dtype="f32", overflow=3, f64_finite=3)]))
    assert ok
    assert ("the f64 reference is finite where the program's own arithmetic overflows, or underflows to subnormals "
            "flushed to 0 (3 elements): judged against the program as written") in text


def test_a_comparison_that_zeros_would_pass_is_flagged():
    """A reference within the tolerance of 0 everywhere (activations that vanished) cannot tell
    right values from none written: the output's line and the verdict say so."""
    text, ok = replay.format_report(_result([_output(zeros_pass=True), _output(name="output 1")]))
    assert ok
    assert "output 0 (f16)" in text and "an output of zeros would pass as well" in text
    assert text.splitlines()[-1] == ("PASS p.mlir on lavapipe (vulkan): 2 outputs, 200 elements compared "
                                     "(1 of the outputs compared vacuously: zeros would pass too)")
