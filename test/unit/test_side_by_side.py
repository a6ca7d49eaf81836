"""bench/side_by_side.py: the rows of a call's runs, side by side."""

import json
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "side_by_side.py")


def _run(tmp_path, names):
    return subprocess.run([sys.executable, SCRIPT, str(tmp_path), *names], capture_output=True, text=True)


def _results(tmp_path, run, cases):
    os.makedirs(tmp_path / run)
    (tmp_path / run / "results.json").write_text(json.dumps({"cases": [
        {"name": name, **{variant: {"us": t} for variant, t in times.items()}} for name, times in cases.items()]}))


def test_every_runs_cases_have_a_row(tmp_path):
    """Runs of different cases share the table: each case a row, nan where a run lacks it, and
    the torch column from the first run that timed the case."""
    _results(tmp_path, "a1", {"x": {"ldsopt": 1.0, "torch": 9.0}})
    _results(tmp_path, "b1", {"x": {"ldsopt": 2.0}, "y": {"ldsopt": 3.0, "torch": 8.0}})
    r = _run(tmp_path, ["a1", "b1", "gone1"])
    assert r.returncode == 0, r.stderr
    head, x, y = r.stdout.splitlines()
    assert head.split() == ["case", "a1", "b1", "iree", "torch"]
    assert x.split() == ["x", "1.00", "2.00", "nan", "9.00"]
    assert y.split() == ["y", "nan", "3.00", "nan", "8.00"]


def test_no_results_is_an_error(tmp_path):
    r = _run(tmp_path, ["gone1"])
    assert r.returncode != 0 and "side_by_side: none of gone1 has a results.json" in r.stderr
    assert "Traceback" not in r.stderr
