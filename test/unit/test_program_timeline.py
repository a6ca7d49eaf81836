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
