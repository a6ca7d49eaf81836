"""lds-run's --json record and kept folders (ldsopt/run/record.py): one shape for every target
(lavapipe run here, cuda prepared for elsewhere, gfx942 compiled with its ISA summary), as
docs/lds-run-output.md describes it; a folder's README names every file in it and the
tolerances applied; commands.sh holds the IREE commands that made the files."""

import json
import os
import pathlib
import shlex
import subprocess
import sys

import pytest

from ldsopt.run import record as run_record
from ldsopt.run import sensitivity

BIN = os.path.dirname(sys.executable)
ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "lds-run-output.md").read_text()

PROGRAM = """
func.func @main(%a: tensor<40xf32>, %b: tensor<40xf32>) -> (tensor<40xf32>, tensor<40xi32>) {
  %r = arith.addf %a, %b : tensor<40xf32>
  %i = arith.fptosi %a : tensor<40xf32> to tensor<40xi32>
  return %r, %i : tensor<40xf32>, tensor<40xi32>
}
"""


def lds_run(tmp_path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "tmp").mkdir(exist_ok=True)
    (tmp_path / "prog.mlir").write_text(PROGRAM)
    return subprocess.run([os.path.join(BIN, "lds-run"), str(tmp_path / "prog.mlir"), "--json", *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TMPDIR": str(tmp_path / "tmp")})


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """target -> (its --json record, the folder kept). lavapipe keeps an --emit-dir."""
    out = {}
    for target in ("lavapipe", "cuda", "gfx942"):
        tmp = tmp_path_factory.mktemp(target)
        emit = ["--emit-dir", str(tmp / "emit")] if target != "cuda" else []
        proc = lds_run(tmp, "--target", target, *emit)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        rec = json.loads(proc.stdout)
        out[target] = rec, rec["folder"] and pathlib.Path(rec["folder"])
    return out


@pytest.mark.parametrize("target, status", [("lavapipe", "PASS"), ("cuda", "PREPARED"), ("gfx942", "COMPILED")])
def test_one_shape_for_every_target(runs, target, status):
    rec, folder = runs[target]
    assert run_record.check(rec) == []
    assert list(rec) == list(run_record.FIELDS)
    assert rec["schema"] == run_record.SCHEMA and rec["status"] == status and rec["target"] == target
    assert rec["verdict"].startswith(status)
    assert [t["atol"] for t in rec["tolerances"]] == [1e-4, 0.0]  # f32 output, i32 output: never null
    assert folder is not None and (folder / "manifest.json").exists()
    if target == "lavapipe":
        assert rec["passed"] is True and [o["name"] for o in rec["outputs"]] == ["output 0", "output 1"]
        assert rec["reference"]["precision"] == "program"  # a float-to-integer conversion is run as written
    else:
        assert rec["passed"] is None and rec["outputs"] is None
    if target == "gfx942":
        assert len(rec["isa"]) >= 1
        assert {"name", "lds_bytes", "vgprs", "vgpr_spills", "ds_ops"} <= set(rec["isa"][0])
    else:
        assert rec["isa"] is None


def test_check_finds_what_is_wrong(runs):
    rec = dict(runs["lavapipe"][0])
    rec["passed"] = "yes"
    del rec["seed"]
    rec["extra"] = 1
    assert run_record.check(rec) == ["missing key 'seed'", "unknown key 'extra'", "'passed' is str, not bool or null"]


def test_doc_describes_every_key_and_file():
    for key in run_record.FIELDS:
        assert f"| `{key}` |" in DOC, key
    for pattern, _ in run_record.FILES:
        assert f"`{pattern}`" in DOC, pattern


@pytest.mark.parametrize("target", ["lavapipe", "cuda", "gfx942"])
def test_readme_names_every_file(runs, target):
    folder = runs[target][1]
    readme = (folder / "README.md").read_text()
    for name in os.listdir(folder):
        assert f"- `{name}`: " in readme, name
        assert run_record.describe(name) is not None, f"{name} is not described in run_record.FILES"
    assert "not made by lds-run" not in readme


def test_readme_states_the_tolerances_applied(runs):
    folder = runs["lavapipe"][1]
    result = json.loads((folder / "result.json").read_text())
    readme = (folder / "README.md").read_text()
    for c in result["outputs"]:
        assert f"- {c['name']} ({c['dtype']}): atol {c['atol']:g}, rtol {c['rtol']:g} (applied" in readme


def test_commands_are_the_ones_that_made_the_files(runs):
    """Each logged command runs an IREE tool that exists and names files of the folder; the
    modules the folder holds are the outputs of logged commands."""
    folder = runs["lavapipe"][1]
    lines = (folder / "commands.sh").read_text().splitlines()
    commands = [shlex.split(line) for line in lines if not line.startswith("#")]
    assert len(lines) == 2 * len(commands)
    assert {os.path.basename(c[0]) for c in commands} == {"iree-compile", "iree-run-module"}
    assert all(os.access(c[0], os.X_OK) for c in commands)
    made = {os.path.basename(c[c.index("-o") + 1]) for c in commands if "-o" in c}
    assert {"configured.mlir", "ldsopt.vmfb", "reference.vmfb"} <= made
    runs_on = [a for c in commands for a in c if a.startswith("--device=")]
    # the reference, again on each sensitivity draw's moved inputs, then the kernel
    assert runs_on == ["--device=local-task"] * (1 + sensitivity.DRAWS) + ["--device=vulkan"]


def test_replay_prints_the_same_record(runs):
    """`lds-run --replay DIR --json` (the runtime-only half, on the GPU machine) prints the record too."""
    rec, folder = runs["lavapipe"]
    proc = subprocess.run([os.path.join(BIN, "lds-run"), "--replay", str(folder), "--json"], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    again = json.loads(proc.stdout)
    assert run_record.check(again) == []
    assert again["status"] == "PASS" and again["folder"] == str(folder)
    assert {k: v for k, v in again.items() if k != "outputs"} == {k: v for k, v in rec.items() if k != "outputs"}
