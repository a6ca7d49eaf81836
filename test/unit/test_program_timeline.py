"""bench/program_timeline.py's report on a crafted trace: calls cut where no kernel runs, the
copies and fills of a call (one of which stands alone after the kernels, as a result read back
does) kept apart from the kernels, and the GPU's time without a kernel between calls."""

import importlib.util
import pathlib

_PATH = pathlib.Path(__file__).parents[2] / "bench" / "program_timeline.py"
_SPEC = importlib.util.spec_from_file_location("program_timeline", _PATH)
timeline = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(timeline)


def trace(calls: int) -> list[tuple[float, float, str]]:
    """Each call: a fill, 2 us later kernels a (10 us) and b (4 us) 1 us apart, 2 layers of them
    (31 us from the first kernel's start to the last one's end), 50 us later a copy of the
    result; the next call starts 200 us after the last kernel's end."""
    out, t = [], 0.0
    for _ in range(calls):
        out.append((t, 0.5, "Memset (Device)"))
        t += 2
        for _ in range(2):
            out += [(t, 10.0, "a"), (t + 11, 4.0, "b")]
            t += 16
        last = t - 1
        out.append((last + 50, 3.0, "Memcpy DtoH (Device -> Pinned)"))
        t = last + 200
    return sorted(out)


def test_summary_keeps_copies_apart_and_times_the_gaps_between_calls():
    lines = timeline.summary(trace(5), call_gap=30.0, skip=1, layers=2)
    assert lines[0] == ("4 calls of 4.0 kernels; per call / 2: span 15.50 us, kernels 14.00 us, "
                        "idle between kernels 1.50 us")
    assert lines[1] == "GPU without a kernel between calls: 202.0 us a call (median), 101.00 us / 2"
    # from a call's first kernel to the next one's: its result's copy and the next call's fill
    assert lines[2].endswith(": 2, 3.50 us")
    assert "     1.0 a call  Memcpy DtoH (Device -> Pinned)" in lines
    assert "   10.00    2.0  10.00  a" in lines


def test_overlaps_counts_kernels_that_start_before_another_ended():
    serial = [(0.0, 10.0, "a"), (10.0, 4.0, "b"), (20.0, 1.0, "Memcpy DtoH"), (20.5, 2.0, "a")]
    assert timeline.overlaps(serial) == (0, 0.0)
    # b starts 3 us before a ends; c within a as well (2 us before its end); the copy is no kernel
    assert timeline.overlaps([(0.0, 10.0, "a"), (7.0, 1.0, "b"), (8.0, 9.0, "c"), (9.0, 1.0, "Memset")]) == (2, 3.0)


def test_back_to_back_summary_times_the_span_of_all_calls():
    records = [r for r in trace(3) if not r[2].startswith("Memset")]
    lines = timeline.back_to_back_summary(150.0, records, calls=3, layers=2)
    # the third call's kernels end at 499 us, 497 us after the first kernel's start (at 2)
    assert lines[0] == ("3 calls of 4 kernels issued back to back; a call / 2: host clock 75.00 us, "
                        "GPU span 82.83 us, kernels 14.00 us, idle 68.83 us")
    assert lines[1] == "kernels that start before another ended: 0 of 12 (longest overlap 0.00 us)"
    # 1 us after each kernel within a call, 202 us between calls (2 of them over 3 calls)
    assert lines[2] == "idle between kernels: median 1.00 us; 0.666667 a call longer than 5 us, 134.7 us a call"
    assert "    1.00  81.40      5  b" in lines  # the last b has no kernel after it
