"""lds-bench PROGRAM (ldsopt/measure/bench.py `prepare_program`, ldsopt/measure/program_bench.py
`replay_program`): the small encoder layer of the model suite end to end on lavapipe. The
table has a row per dispatch of the program, each naming the pass that lowered it or each
pass's reason for leaving it, with positive times; the whole program's two times; the
values checked. No timing is asserted (lavapipe is a CPU)."""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from ldsopt.measure import bench_replay  # noqa: E402

MODELS = pathlib.Path(__file__).resolve().parents[2] / "models"
BIN = os.path.dirname(sys.executable)


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    suite = bench_replay.load_script(str(MODELS / "suite.py"), "ldsopt_model_suite")
    path = tmp_path_factory.mktemp("model") / "encoder_layer_small_f32.onnx"
    onnx.save(suite.encoder_layer(suite.SIZES["small"], "f32"), str(path))
    return path


def lds_bench(*args):
    return subprocess.run([os.path.join(BIN, "lds-bench"), *args], capture_output=True, text=True, timeout=1200)


def test_encoder_layer_end_to_end(encoder, tmp_path):
    out = tmp_path / "bench"
    proc = lds_bench(str(encoder), "--target", "lavapipe", "--out", str(out), "--repetitions", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((out / "program_results.json").read_text())
    with open(out / "ldsopt" / "manifest.json") as f:
        program = json.load(f)
    rows = report["dispatches"]
    # A row per dispatch of the program the ldsopt module runs, in program order.
    assert sorted(r["name"] for r in rows) == sorted(d["name"] for d in program["dispatches"])
    assert [int(r["name"].split("_dispatch_")[1].split("_")[0]) for r in rows] == \
        sorted(int(r["name"].split("_dispatch_")[1].split("_")[0]) for r in rows)
    for r in rows:
        assert r["passes"] or r["missed"], r  # a pass, or the reasons it was left to IREE
        assert r["calls"] >= 1
        assert r["ldsopt"]["us"] > 0, r
        # IREE's own pipeline cannot compile attention for Vulkan: that cell is its recorded error.
        if "attention" in r["name"]:
            assert "iree-default" in r["errors"] and "failed" in r["iree-default"]["error"], r
        else:
            assert r["iree-default"]["us"] > 0, r
        assert not r["pipelines"]["iree-default"].startswith("ldsopt"), r  # the IREE column is IREE's code
    # IREE keeps one executable for identical dispatches (the K and V projections; Q's differs
    # once attention is raised); the table counts its calls, as the profile of the whole
    # program (HAL dispatch events) does.
    assert max(r["calls"] for r in rows) >= 2
    in_program = report["whole"]["ldsopt"]["in_program"]
    assert {r["name"]: r["calls"] for r in rows} == {n: d["calls"] for n, d in in_program.items()}
    assert all(d["us"] > 0 for d in report["whole"]["iree-default"]["in_program"].values())
    assert report["values"]["passed"]
    assert report["whole"]["ldsopt"]["us"] > 0 and report["whole"]["iree-default"]["us"] > 0
    assert report["whole"]["iree-default"]["pipeline"] == "iree-default"
    # the whole program's calls issued back to back too, each mode's outputs the awaited module's
    issued = report["whole"]["ldsopt-async"]
    assert issued["us"] > 0 and issued["same_as_awaited"].endswith("ldsopt") and "same_as_awaited" in issued["independent"]
    assert "skipped" in report["twin"]  # no CUDA here
    md = (out / "program_results.md").read_text()
    assert "- ldsopt, calls issued back to back (its functions taking fences and their storage" in md
    table = [line for line in md.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(table) == len(rows)
    assert " ".join(report["dispatch_formation"]) in md  # the header says how both columns were formed
    assert (out / "program_results.png").stat().st_size > 0
    # The table and plot made again from the JSON (for results of a GPU machine without matplotlib).
    (tmp_path / "again.json").write_text((out / "program_results.json").read_text())
    proc = subprocess.run([sys.executable, "-m", "ldsopt.measure.program_bench", "--replot", str(tmp_path / "again.json")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "again.md").read_text() == md and (tmp_path / "again.png").stat().st_size > 0
    # What travels to the GPU machine: no intermediate MLIR, no reference module.
    assert sorted(os.listdir(out / "iree")) == ["baseline.vmfb", "input0.bin", "manifest.json"]
    with np.load(out / "twin_weights.npz") as w:
        assert w["attn.q.weight"].shape == (32, 32) and w["ln2.bias"].shape == (32,)
    # The per-dispatch table alone, from the manifest and dispatches/ (carried without weights).
    bare = tmp_path / "bare"
    bare.mkdir()
    shutil.copy(out / "manifest.json", bare)
    shutil.copytree(out / "dispatches", bare / "dispatches")
    proc = subprocess.run([sys.executable, "-m", "ldsopt.measure.program_bench", str(bare), "--dispatches-only",
                           "--repetitions", "1", "--out", str(tmp_path / "only")], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    only = json.loads((tmp_path / "only" / "program_results.json").read_text())
    assert [r["name"] for r in only["dispatches"]] == [r["name"] for r in rows]
    assert all(r["ldsopt"]["us"] > 0 for r in only["dispatches"])
    assert only["whole"] == {} and only["twin"] is None and only["values"] == {"skipped": "--dispatches-only"}
    assert "Values of the ldsopt module against the reference: not checked" in proc.stdout


@pytest.mark.parametrize("block", ["encoder_layer", "gpt2_block", "llama_block", "resnet_cnn"])
def test_twin_is_the_same_layer(block):
    """The PyTorch twin against ONNX's own reference evaluator on the same model."""
    torch = pytest.importorskip("torch", reason="the PyTorch twin runs where torch is installed (the GPU machine)")
    from onnx import numpy_helper
    from onnx.reference import ReferenceEvaluator

    suite = bench_replay.load_script(str(MODELS / "suite.py"), "ldsopt_model_suite")
    sizes = suite.CNN_SIZES if block == "resnet_cnn" else suite.SIZES
    model = getattr(suite, block)(sizes["small"], "f32")
    twins = bench_replay.load_script(str(MODELS / "torch_twins.py"), "ldsopt_torch_twins")
    spec = json.loads({p.key: p.value for p in model.metadata_props}[twins.TWIN_KEY])
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    layer = getattr(twins, spec.pop("function"))(weights, "cpu", "float32", **spec)
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    (expected,) = ReferenceEvaluator(model).run(None, {"x": x})
    np.testing.assert_allclose(layer(torch.from_numpy(x)).numpy(), expected, atol=1e-4, rtol=1e-4)


def test_missing_model_is_an_error(tmp_path):
    proc = lds_bench(str(tmp_path / "nope.onnx"), "--target", "lavapipe", "--prepare", str(tmp_path / "p"))
    assert proc.returncode == 1 and "error:" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_unprepared_folder_is_an_error(tmp_path):
    proc = lds_bench("--replay", str(tmp_path))
    assert proc.returncode == 1 and "error:" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_weights_to_archive_and_stack(encoder, tmp_path):
    """--weights-to-archive: the model's weights once, in an archive both modules and the twin
    read; the weights ldsopt-fuse-projections concatenates are joined once, at load, by the
    initializer's dispatches, which the per-call count leaves out. --stack 3: the layer three
    times in one call, both ways, timed per layer, and ldsopt's also with its calls issued back to
    back."""
    out = tmp_path / "bench"
    proc = lds_bench(str(encoder), "--target", "lavapipe", "--weights-to-archive", "--stack", "3", "--out", str(out),
                     "--repetitions", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((out / "program_results.json").read_text())
    assert report["values"]["passed"]
    for sub in ("ldsopt", "iree"):
        man = json.loads((out / sub / "manifest.json").read_text())
        assert man["parameters"] == [{"scope": "model", "file": "../parameters/weights.irpa"}], man["parameters"]
        assert not [n for n in os.listdir(out / sub) if n.endswith(".irpa")]
    rows = report["dispatches"]
    at_load = [r for r in rows if r.get("at_load")]
    assert at_load and all(r["calls"] == 0 and "_initializer_" in r["name"] for r in at_load), rows
    per_call = [r for r in rows if not r.get("at_load")]
    assert all(r["passes"] and r["calls"] >= 1 for r in per_call), per_call
    assert f"ldsopt lowered {len(per_call)} of {len(per_call)} dispatches of each call; {len(at_load)} more run " \
        "once, at load" in (out / "program_results.md").read_text()
    stack = report["stack"]
    assert stack["layers"] == 3
    assert set(stack["whole"]) == {"ldsopt", "ldsopt-async", "iree-default", "iree-default-async"}
    for r in stack["whole"].values():  # no timing claim (lavapipe, a shared CPU): the figures are there
        assert r["us"] > 0 and r["per_layer_us"] == pytest.approx(r["us"] / 3), r
    issued = stack["whole"]["ldsopt-async"]  # issued back to back, not awaited
    assert issued["calls"] == 100 and issued["independent"]["us"] > 0, issued
    # each mode's last call returned the awaited stack's outputs, bit for bit
    assert issued["same_as_awaited"].endswith("ldsopt-stack") and "same_as_awaited" in issued["independent"]
    stack_man = json.loads((out / "ldsopt-stack" / "manifest.json").read_text())
    assert stack_man["function"] == "encoder_layer_stack3"
    md = (out / "program_results.md").read_text()
    assert "## 3 layers in one call" in md and "- ldsopt, calls issued back to back" in md
    assert "; no call waiting for another: " in md
    assert "; in every runtime mode the last call's outputs are the awaited call's, bit for bit" in md
    assert "- IREE's default, calls issued back to back" in md  # its own stack, checked against its awaited one
    assert stack["whole"]["iree-default-async"]["same_as_awaited"].endswith("iree-stack")
    # The twin's weights: the archive's (by initializer name) and the small rest, as the model has them.
    from onnx import numpy_helper
    from ldsopt.measure import program_bench
    twin = json.loads((out / "manifest.json").read_text())["twin"]
    assert "attn.q.weight" in twin["archive"]["entries"]
    with np.load(out / "twin_weights.npz") as w:
        assert "attn.q.weight" not in w.files
    weights = program_bench.twin_weights(str(out), twin)
    for t in onnx.load(str(encoder)).graph.initializer:
        np.testing.assert_array_equal(weights[t.name], numpy_helper.to_array(t))


def test_stack_needs_a_layer(tmp_path):
    program = pathlib.Path(__file__).resolve().parents[2] / "bench" / "dispatch_floor.mlir"
    proc = lds_bench(str(program), "--target", "lavapipe", "--stack", "2", "--prepare", str(tmp_path / "p"))
    assert proc.returncode == 1 and "error: --stack needs a layer" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    proc = lds_bench(str(program), "--target", "lavapipe", "--stack", "1", "--prepare", str(tmp_path / "q"))
    assert proc.returncode != 0 and "error: --stack: expected an integer 2 or more, got 1" in proc.stderr, proc.stderr
    assert not (tmp_path / "q").exists()


def test_weights_to_archive_takes_onnx_only(tmp_path):
    program = pathlib.Path(__file__).resolve().parents[2] / "bench" / "dispatch_floor.mlir"
    proc = lds_bench(str(program), "--target", "lavapipe", "--weights-to-archive", "--prepare", str(tmp_path / "p"))
    assert proc.returncode == 1 and "error: --weights-to-archive takes an ONNX model" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_whole_program_iree_cannot_compile_is_reported(tmp_path):
    """IREE 3.13 cannot compile attention for Vulkan: lds-bench says so for IREE's whole program
    and its dispatch, and times ldsopt's (as for the base decoder, whose 50257-wide arg_compare
    crashes LLVM's NVPTX back end in IREE's module)."""
    program = pathlib.Path(__file__).parent / "programs" / "attention" / "plain_f16_2x3x80x100x64.mlir"
    out = tmp_path / "bench"
    proc = lds_bench(str(program), "--target", "lavapipe", "--out", str(out), "--repetitions", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "IREE's default cannot compile plain_f16_2x3x80x100x64.mlir" in proc.stdout
    assert "online_attention" in proc.stdout  # the line says why
    man = json.loads((out / "manifest.json").read_text())
    assert man["whole"] == {"ldsopt": "ldsopt", "ldsopt-async": "ldsopt-async"} and not (out / "iree").exists()
    report = json.loads((out / "program_results.json").read_text())
    assert report["whole"]["ldsopt"]["us"] > 0 and report["values"]["passed"]
    assert report["whole"]["iree-default"]["at_prepare"] and "online_attention" in report["whole"]["iree-default"]["error"]
    assert "- IREE's default (its own dispatch formation): not timed: iree-compile" in \
        (out / "program_results.md").read_text()
