"""models/coverage.py: the suite's coverage table, here for the small f32 models on lavapipe
(the committed table is for cuda, all sizes)."""

import json
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("onnx")

COVERAGE = pathlib.Path(__file__).resolve().parents[2] / "models" / "coverage.py"


def test_coverage_table(tmp_path):
    proc = subprocess.run([sys.executable, str(COVERAGE), str(tmp_path), "--target", "lavapipe", "--sizes", "small",
                           "--dtypes", "f32"], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((tmp_path / "coverage.json").read_text())
    assert [(m["model"], m["size"], m["dtype"]) for m in report["models"]] == [
        ("mlp_classifier", "-", "f32"), ("encoder_layer", "small", "f32"), ("decoder_block", "small", "f32"),
        ("gpt2_block", "small", "f32"), ("llama_block", "small", "f32"), ("resnet_cnn", "small", "f32")]
    cnn = report["models"][-1]
    assert cnn["convolutions"] >= 3 and cnn["convolutions_lowered"] == cnn["convolutions"], cnn
    for m in report["models"]:
        assert m["total"] == len(m["dispatches"]) >= 3
        assert (m["convolutions"] > 0) == (m["model"] == "resnet_cnn"), m
        assert m["lowered"] == sum(bool(d["passes"]) for d in m["dispatches"]) <= m["total"]
        assert m["convolutions_lowered"] <= m["convolutions"]
        assert all(d["passes"] or d["missed"] for d in m["dispatches"])  # each left one says why
    readme = (tmp_path / "README.md").read_text()
    assert report["commit"] in readme
    for m in report["models"]:
        assert f"| {m['model']} | {m['size']} | {m['dtype']} | {m['total']} |" in readme
        assert f"ldsopt lowered {m['lowered']} of {m['total']} dispatches" in proc.stdout


def test_unknown_size_is_an_error(tmp_path):
    proc = subprocess.run([sys.executable, str(COVERAGE), str(tmp_path), "--sizes", "huge"], capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "unknown size or dtype: huge" in proc.stderr
