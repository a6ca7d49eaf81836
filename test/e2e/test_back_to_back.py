"""ldsopt.measure.back_to_back on lavapipe: `lds-bench --stack` of a layer written without a
module around its function prepares ldsopt's stack twice, the second taking fences (IREE's
async-external model) and taking its result's and its transient storage from the caller (so
that a call allocates and frees nothing); its calls issued back to back, each waiting in the
queue for the one before or none waiting for another, return what the awaited stack returns,
bit for bit (the same kernels), which `--against` checks (and fails where they differ). A
folder whose function takes no fences, a runtime mode the device has not, a folder that is
not prepared or no calls are refused with an error. A block exported from PyTorch (iree-turbine)
stacks and runs back to back the same way."""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

from ldsopt.measure import back_to_back
from ldsopt.run import replay

PROGRAM = pathlib.Path(__file__).resolve().parent / "programs" / "fused" / "softmax_generics_f32_9x7.mlir"
BIN = os.path.dirname(sys.executable)


def test_calls_back_to_back_compute_what_the_awaited_stack_does(tmp_path, monkeypatch):
    folder = tmp_path / "p"
    proc = subprocess.run([os.path.join(BIN, "lds-bench"), str(PROGRAM), "--target", "lavapipe", "--stack", "3",
                           "--prepare", str(folder)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    stack = json.loads((folder / "manifest.json").read_text())["stack"]
    assert stack["whole"] == {"ldsopt": "ldsopt-stack", "ldsopt-async": "ldsopt-async-stack",
                              "iree-default": "iree-stack", "iree-default-async": "iree-async-stack"}
    awaited = json.loads((folder / "ldsopt-stack" / "manifest.json").read_text())
    issued = json.loads((folder / "ldsopt-async-stack" / "manifest.json").read_text())
    assert "--iree-execution-model=async-external" in issued["compile_flags"]
    assert issued["dispatches"] == awaited["dispatches"] and all(d["passes"] for d in issued["dispatches"])
    calls = subprocess.run([os.path.join(BIN, "iree-dump-module"), str(folder / "ldsopt-async-stack" / issued["vmfb"])],
                           capture_output=True, text=True, check=True).stdout
    assert "%input1: !hal.buffer {iree.abi.output = 0 : index}, %input2: !hal.buffer {iree.abi.transients" in calls
    stack = calls[calls.index(f"vm.func @{issued['function']}("):]
    stack = stack[:stack.index("\n}")]
    assert "queue.execute" in stack and "queue.alloca" not in stack and "queue.dealloca" not in stack

    (want,) = replay.run_outputs(str(folder / "ldsopt-stack"), awaited, awaited["device"])
    for independent in (False, True):  # each call after the one before, or none waiting
        seconds, (out,) = back_to_back.calls(str(folder / "ldsopt-async-stack"), 7, independent=independent)
        assert seconds > 0 and out.shape == (9, 7)
        np.testing.assert_array_equal(out, want)
    monkeypatch.setattr(back_to_back, "RING_BYTES", 1)  # two output sets for the 10 calls, each reused in turn
    for _, (out,) in back_to_back.ways(str(folder / "ldsopt-async-stack"), 7).values():
        np.testing.assert_array_equal(out, want)

    cli = [sys.executable, "-m", "ldsopt.measure.back_to_back"]
    proc = subprocess.run([*cli, str(folder / "ldsopt-async-stack"), "--calls", "3", "--independent"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["calls"] == 3, proc.stderr
    assert json.loads(proc.stdout)["independent"]
    against = [*cli, str(folder / "ldsopt-async-stack"), "--calls", "3", "--against"]
    proc = subprocess.run([*against, str(folder / "ldsopt-stack")], capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["same_as_awaited"], proc.stderr
    proc = subprocess.run([*against, str(folder / "ldsopt-stack"), "--both"], capture_output=True, text=True)
    both = [json.loads(line) for line in proc.stdout.splitlines()]  # a line each way, one load
    assert proc.returncode == 0 and [r["independent"] for r in both] == [False, True], proc.stderr
    assert all(r["same_as_awaited"] and r["us"] > 0 for r in both)
    other = tmp_path / "other"  # the awaited stack on other inputs: its outputs are not the calls'
    shutil.copytree(folder / "ldsopt-stack", other)
    x = np.fromfile(other / "input0.bin", dtype=np.float32)
    (x + 1).tofile(other / "input0.bin")
    proc = subprocess.run([*against, str(other)], capture_output=True, text=True)
    assert proc.returncode == 1 and "outputs differ from" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([*cli, str(folder / "ldsopt-stack")], capture_output=True, text=True)
    assert proc.returncode == 1 and "takes no fences" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([*cli, str(folder / "ldsopt-async-stack"), "--mode", "graphs"], capture_output=True, text=True)
    assert proc.returncode == 1 and "error: --mode" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([*cli, str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 1 and "not a prepared folder" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([*cli, str(folder / "ldsopt-async-stack"), "--calls", "0"], capture_output=True, text=True)
    assert proc.returncode == 2 and "error: --calls" in proc.stderr and "Traceback" not in proc.stderr


def test_a_pytorch_export_stacks_and_runs_back_to_back(tmp_path):
    """`lds-bench --stack` of a block as iree-turbine saves it (a !torch.vtensor function, its
    weights in a dialect-resources section after the module): the stack builds (it once took
    the resources' closing brace for the module's and raised), and its calls issued back to back
    return the awaited stack's outputs bit for bit."""
    torch = pytest.importorskip("torch", reason="the torch extra is not installed (pip install -e '.[torch]')")
    aot = pytest.importorskip("iree.turbine.aot", reason="the torch extra is not installed")

    from ldsopt.models import suite, torch_twins
    size = suite.SIZES["small"]
    torch.manual_seed(0)
    path = tmp_path / "gpt2.mlir"
    aot.export(torch_twins.of_model(suite.gpt2_block(size, "f32")).eval(),
               torch.randn(1, size.seq, size.hidden)).save_mlir(str(path))
    assert "!torch.vtensor" in path.read_text() and "{-#" in path.read_text()
    folder = tmp_path / "p"
    proc = subprocess.run([os.path.join(BIN, "lds-bench"), str(path), "--target", "lavapipe", "--stack", "2",
                           "--prepare", str(folder)], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    proc = subprocess.run([sys.executable, "-m", "ldsopt.measure.back_to_back", str(folder / "ldsopt-async-stack"),
                           "--calls", "2", "--against", str(folder / "ldsopt-stack")], capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["same_as_awaited"], proc.stderr
