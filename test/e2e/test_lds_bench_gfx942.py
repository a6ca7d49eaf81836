"""lds-bench --target gfx942 on a machine without a HIP device (this one): the kernels are
compiled, not run; one line says so, no HIP loader error shows, and the static report holds
ldsopt's kernel beside IREE's for every case (or dispatch of a program) asked for."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from ldsopt.measure import bench_replay
from ldsopt.run import iree_tools

BIN = os.path.dirname(sys.executable)
MODELS = pathlib.Path(__file__).resolve().parents[2] / "models"

pytestmark = pytest.mark.skipif("hip" in iree_tools.available_devices(), reason="a HIP device is here: lds-bench times")


def lds_bench(*args):
    return subprocess.run([os.path.join(BIN, "lds-bench"), *args], capture_output=True, text=True, timeout=1200)


def _checked(proc, out: pathlib.Path) -> dict:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "amdhip64" not in proc.stdout + proc.stderr and "error" not in proc.stderr
    assert [line for line in proc.stdout.splitlines() if "HIP" in line] == [
        f"lds-bench: no HIP device here, so the gfx942 kernels are not run: writing their static report (from the "
        f"ISA) to {out / 'gfx942_report'}.{{json,md,png}}"]
    assert not (out / "results.json").exists()
    return json.loads((out / "gfx942_report.json").read_text())


def test_cases(tmp_path):
    out = tmp_path / "report"
    cases = ["matmul_NN_512x768x768_f16_cast", "rowsum_32x1048576_f32"]
    report = _checked(lds_bench("--target", "gfx942", "--cases", ",".join(cases), "--out", str(out)), out)
    rows = {r["name"]: r for r in report["rows"]}
    assert sorted(rows) == sorted(cases)
    for row in rows.values():
        for v in ("ldsopt", "iree-default"):
            for k in row["variants"][v]["kernels"]:
                assert k["vgprs"] > 0 and 1 <= k["occupancy"]["waves"] <= 8 and k["kernel"]["instructions"] > 0
    (ours,) = rows[cases[0]]["variants"]["ldsopt"]["kernels"]
    assert "ldsopt-matmul-lds" in ours["passes"] and set(ours["bank_conflicts"]) == {"A", "B"}
    assert ours["loop"]["ops"]["mfma"] and rows[cases[0]]["bound"]["type"] == "f16"
    # the split reduction: two ldsopt kernels beside IREE's one
    assert len(rows[cases[1]]["variants"]["ldsopt"]["kernels"]) == 2
    assert (out / "gfx942_report.md").read_text().count("| matmul_NN_512x768x768_f16_cast |") >= 5


def test_program(tmp_path):
    onnx = pytest.importorskip("onnx")
    suite = bench_replay.load_script(str(MODELS / "suite.py"), "ldsopt_model_suite")
    model = tmp_path / "encoder_layer_small_f16.onnx"
    onnx.save(suite.encoder_layer(suite.SIZES["small"], "f16"), str(model))
    out = tmp_path / "report"
    report = _checked(lds_bench(str(model), "--target", "gfx942", "--out", str(out)), out)
    with open(out / "manifest.json") as f:
        dispatches = [d["name"] for d in json.load(f)["dispatches"]]
    assert [r["name"] for r in report["rows"]] == dispatches and report["program"] == "encoder_layer_small_f16"
    assert any(k["passes"] for r in report["rows"] for k in r["variants"]["ldsopt"]["kernels"])
    assert all(r["variants"]["iree-default"]["kernels"][0]["name"] == r["name"] for r in report["rows"])
