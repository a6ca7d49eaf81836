"""A prepared folder is checked before anything runs (`prepared_folder.load`), and lds-run
--replay / python -m ldsopt.run.replay refuse a bad one with a located error, exit 1: a manifest
that names nothing to compare, names outside the folder, files of the wrong size, JSON that
does not parse. (Each case once passed, wrote outside the folder or ended in a traceback.)"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from ldsopt.run import prepared_folder
from ldsopt.run.prepared_folder import FolderError

BIN = os.path.dirname(sys.executable)


def _manifest():
    return {"source": "p.mlir", "target": "lavapipe", "device": "vulkan", "function": "main", "vmfb": "m.vmfb",
            "seed": 0, "special_values": False, "pipeline": "x", "program_pipeline": "", "compile_flags": [],
            "dispatches": [{"name": "d0", "pipeline": "x", "passes": []}],
            "inputs": [{"shape": [2, 3], "dtype": "f32", "file": "input0.bin"}],
            "outputs": [{"shape": [2], "dtype": "f32", "file": "output0.bin"}],
            "expected": [{"shape": [2], "dtype": "f64", "file": "expected0.bin"}],
            "sensitivity": [{"shape": [2], "dtype": "f64", "file": "sensitivity0.bin"}],
            "as_written": [[]],
            "reference": {"engine": "numpy", "precision": "f64"}, "tolerances": [{"atol": 1e-4, "rtol": 1e-4}]}


@pytest.fixture
def folder(tmp_path):
    """A prepared folder that passes the check (its module is not a real one: nothing runs)."""
    d = tmp_path / "prepared"
    d.mkdir()
    (d / "m.vmfb").write_bytes(b"not run")
    np.zeros((2, 3), np.float32).tofile(d / "input0.bin")
    np.zeros(2).tofile(d / "expected0.bin")
    np.zeros(2).tofile(d / "sensitivity0.bin")
    (d / "manifest.json").write_text(json.dumps(_manifest()))
    return d


def _with(folder, change):
    man = _manifest()
    change(man)
    (folder / "manifest.json").write_text(json.dumps(man))


def test_a_good_folder_loads(folder):
    assert prepared_folder.load(str(folder))["function"] == "main"


def test_an_older_folder_without_sensitivities_loads(folder):
    _with(folder, lambda m: (m.pop("sensitivity"), m.pop("as_written")))
    assert "sensitivity" not in prepared_folder.load(str(folder))


CASES = {
    # nothing to compare
    "no tolerances": (lambda m: m.update(tolerances=[]), "tolerances: 0 for 1 outputs"),
    "no outputs": (lambda m: m.update(outputs=[], expected=[], tolerances=[], sensitivity=[], as_written=[]),
                   "outputs: none: nothing would be compared"),
    "no reference": (lambda m: m.update(expected=[]), "holds no reference outputs"),
    "older": (lambda m: m.pop("tolerances"), "prepared by an older lds-run"),
    # names outside the folder or over its records
    "output outside": (lambda m: m["outputs"][0].update(file="../x.bin"), "outputs[0].file: '../x.bin' is not the "
                                                                            "name of a file in the folder"),
    "absolute name": (lambda m: m["outputs"][0].update(file="/tmp/x.bin"), "is not the name of a file"),
    "vmfb outside": (lambda m: m.update(vmfb="../m.vmfb"), "vmfb: '../m.vmfb' is not the name"),
    "output over the manifest": (lambda m: m["outputs"][0].update(file="manifest.json"),
                                 "would overwrite the folder's manifest.json"),
    "output over an input": (lambda m: m["outputs"][0].update(file="input0.bin"), "'input0.bin' is named twice"),
    # values
    "unknown dtype": (lambda m: m["inputs"][0].update(dtype="q7"), "inputs[0].dtype: unknown element type 'q7'"),
    "negative dim": (lambda m: m["inputs"][0].update(shape=[-1, 5]), "inputs[0].shape: expected integers of 0 or "
                                                                     "more"),
    "negative tolerance": (lambda m: m["tolerances"][0].update(atol=-1), "tolerances[0].atol: expected a finite"),
    "expected of another shape": (lambda m: m["expected"][0].update(shape=[3]), "expected[0].shape"),
    "expected of another type": (lambda m: m["expected"][0].update(dtype="i32"), "expected[0].dtype"),
    "missing key": (lambda m: m.pop("function"), "function: missing"),
    "wrong type": (lambda m: m.update(special_values="no"), "special_values: expected bool"),
    "missing vmfb": (lambda m: m.update(vmfb="other.vmfb"), "vmfb: other.vmfb is not in the folder"),
    "sensitivity of another shape": (lambda m: m["sensitivity"][0].update(shape=[1]), "sensitivity[0].shape"),
    "parameters missing": (lambda m: m.update(parameters=[{"scope": "model", "file": "../w.irpa"}]),
                           "parameters[0].file: '../w.irpa' is not a file"),
    "as written not a list": (lambda m: m.update(as_written=[None]), "as_written[0]: expected a list of tensors"),
    "as written missing": (lambda m: m["as_written"][0].append({"shape": [2], "dtype": "f32", "file": "w.bin"}),
                           "as_written[0][0].file: w.bin is not in the folder"),
    # what ptxas said of a kernel (ptxas_check.py), printed by the report
    "ptxas not an object": (lambda m: m["dispatches"].append({"name": "d", "passes": [], "ptxas": 3}),
                            "dispatches[1].ptxas: expected dict"),
    "ptxas warnings not strings": (lambda m: m["dispatches"].append(
        {"name": "d", "passes": [], "ptxas": {"registers": 40, "spill_bytes": 0, "warnings": [1]}}),
        "dispatches[1].ptxas.warnings: expected strings"),
    "ptxas unknown key": (lambda m: m["dispatches"].append(
        {"name": "d", "passes": [], "ptxas": {"registers": None, "spill_bytes": 0, "warnings": [], "x": 1}}),
        "dispatches[1].ptxas: unknown keys ['x']"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_manifest_is_refused_before_anything_runs(folder, case):
    change, message = CASES[case]
    _with(folder, change)
    with pytest.raises(FolderError, match=message.replace("(", r"\(").replace("[", r"\[")) as e:
        prepared_folder.load(str(folder))
    assert e.value.where == str(folder / "manifest.json")


@pytest.mark.parametrize("damage,where,message", [
    ("truncated", "manifest.json:1:", "not JSON"),
    ("random bytes", "manifest.json", "not UTF-8 text"),
    ("empty", "manifest.json:1:1", "not JSON"),
    ("a list", "manifest.json", "expected a JSON object"),
    ("expected cut short", "manifest.json", "expected[0].file: expected0.bin holds 8 bytes; 2 of f64 is 16"),
])
def test_a_damaged_folder_is_refused(folder, damage, where, message):
    text = (folder / "manifest.json").read_text()
    if damage == "truncated":
        (folder / "manifest.json").write_text(text[:len(text) // 2])
    elif damage == "random bytes":
        (folder / "manifest.json").write_bytes(bytes(np.random.default_rng(0).integers(128, 256, 64, np.uint8)))
    elif damage == "empty":
        (folder / "manifest.json").write_text("")
    elif damage == "a list":
        (folder / "manifest.json").write_text("[]")
    else:
        np.zeros(1).tofile(folder / "expected0.bin")
    with pytest.raises(FolderError, match=message.replace("[", r"\[")) as e:
        prepared_folder.load(str(folder))
    assert e.value.where.startswith(str(folder / where))


@pytest.mark.parametrize("tool", [["lds-run", "--replay"], ["python", "-m", "ldsopt.run.replay"]])
@pytest.mark.parametrize("what", ["missing", "a file", "bad manifest"])
def test_the_replay_commands_give_a_located_error(tmp_path, folder, tool, what):
    target = {"missing": tmp_path / "missing", "a file": tmp_path / "file", "bad manifest": folder}[what]
    (tmp_path / "file").write_text("")
    if what == "bad manifest":
        _with(folder, lambda m: m["outputs"][0].update(file="../escaped.bin"))
    exe = [sys.executable, *tool[1:]] if tool[0] == "python" else [os.path.join(BIN, tool[0]), *tool[1:]]
    proc = subprocess.run([*exe, str(target)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith(f"{target}"), proc.stderr
    assert "error: " in proc.stderr.splitlines()[0]
    assert not (tmp_path / "escaped.bin").exists()
