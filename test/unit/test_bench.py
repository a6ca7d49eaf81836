"""lds-bench: the cases are what their names say, the table is right, a smoke run works."""

import inspect
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from iree.compiler import ir

from ldsopt.measure import bench
from ldsopt.measure import bench_replay, timing

CASES = bench.bench_cases
BY_NAME = {c.name: c for c in CASES.CASES}


def test_cases_well_formed():
    assert len(BY_NAME) == len(CASES.CASES), "case names must be unique"
    assert set(CASES.SMOKE) <= set(BY_NAME)
    for c in CASES.CASES:
        assert len(inspect.signature(c.torch).parameters) == len(c.inputs), c.name
        for o in (*c.inputs, c.output):
            assert len(o.dims) == len(o.shape) and all(0 <= d < len(c.iterators) for d in o.dims), c.name
        with ir.Context():
            ir.Module.parse(c.mlir)  # the generated program parses and verifies


@pytest.mark.parametrize("name,expected", [
    # inputs read once + output written once, counted by hand
    ("add_bcast_8192x8192_f32", 8192 * 8192 * 4 * 2 + 8192 * 4),
    ("rowsum_32x1048576_f16", 32 * 2**20 * 2 + 32 * 4),
    ("sum_2p26_f32", 2**26 * 4 + 4),
    ("max_mid_64x4096x64_f32", 64 * 4096 * 64 * 4 + 64 * 64 * 4),
    ("nhwc_nchw_add_64x56x56x128_f32", 3 * 64 * 56 * 56 * 128 * 4),       # baselines.md: 308 MB
    ("nhwc_nchw_add_256x7x7x2048_f16", 3 * 256 * 49 * 2048 * 2),          # 154 MB
    ("nhwc_nchw_add_32x49x7x1009_f32", 3 * 32 * 49 * 7 * 1009 * 4),       # 133 MB
    ("transpose_add_8192x8192_f32", 3 * 8192 * 8192 * 4),                 # 805 MB
    ("softmax_32x4096x4096_f16", 2 * 32 * 4096 * 4096 * 2),
    ("layernorm_16384x4096_f16", 2 * 16384 * 4096 * 2 + 2 * 4096 * 2),    # x and y, gamma and beta
    ("logsumexp_64x50257_f32", 64 * 50257 * 4 + 64 * 4),
])
def test_bytes(name, expected):
    assert BY_NAME[name].bytes == expected


def test_matmul_cases_count_flops_and_store_operands_as_named():
    nn, tn, nt = (BY_NAME[f"matmul_{x}_4096x4096x4096_f16"] for x in ("NN", "TN", "NT"))
    assert nn.flops == 2 * 4096**3 and nn.bytes == 2 * 4096 * 4096 * 2 + 4096 * 4096 * 4
    assert "affine_map<(d0, d1, d2) -> (d2, d0)>" in tn.mlir  # A stored KxM
    assert "affine_map<(d0, d1, d2) -> (d1, d2)>" in nt.mlir  # B stored NxK
    assert timing.batch_size(nn.bytes, "cuda", nn.flops) == 10


def test_bert_matmul_cases_fuse_their_epilogue_and_count_its_inputs():
    """Each BERT matmul case is the contraction and one elementwise consumer (the epilogue, or
    the cast alone) into f16; the residual is read once like the operands."""
    res, cast = BY_NAME["matmul_NN_512x768x3072_f16_bias_residual"], BY_NAME["matmul_NN_512x768x3072_f16_cast"]
    assert res.bytes == (512 * 3072 + 3072 * 768 + 768 + 512 * 768 + 512 * 768) * 2
    assert cast.bytes == (512 * 3072 + 3072 * 768 + 512 * 768) * 2 and res.flops == cast.flops == 2 * 512 * 768 * 3072
    for c in (res, cast, BY_NAME["batch_matmul_NT_12x512x512x64_f16_scale"]):
        assert c.mlir.count("linalg.generic") == 2 and "arith.truncf" in c.mlir and c.output.dtype == "f16"
    assert "math.erf" in BY_NAME["matmul_NN_512x3072x768_f16_bias_gelu"].mlir
    qk = BY_NAME["batch_matmul_NT_12x512x512x64_f16_scale"]
    assert "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>" in qk.mlir  # K stored (b, n, k): NT


def test_matmul_cell_is_in_tflops():
    assert bench_replay._cell({"us": 1000.0}, 1, 4e12, flops=2 * 4096**3) == "1000.0 (137 TFLOP/s)"


def test_nhwc_case_reads_a_transposed():
    c = BY_NAME["nhwc_nchw_add_64x56x56x128_f16"]
    assert c.inputs[0].shape == (64, 56, 56, 128) and c.output.shape == (64, 128, 56, 56)
    assert "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>" in c.mlir


def _fake_report():
    stamp = {"commit": "abc123", "target": "cuda", "gpu": "NVIDIA H200", "date": "2026-11-29T12:00:00+00:00"}
    nbytes = 4_000_000  # at 4 TB/s the copy takes 1 us
    case = {"name": "add", "what": "a + b", "bytes": nbytes, "batch_size": 10, **stamp,
            "ldsopt": {"us": 2.0, "ldsopt_dispatches": 1, "total_dispatches": 1},
            "iree-default": {"us": 4.0, "ldsopt_dispatches": 0, "total_dispatches": 1},
            "torch": {"us": 1.25}}
    failed = {**case, "name": "broken", "ldsopt": {"error": "boom", "ldsopt_dispatches": 0, "total_dispatches": 2},
              "torch": {"error": "no"}}
    return {**stamp, "device": "cuda", "pipeline": "p", "dirty": False, "copy_bandwidth": 4e12,
            "repetitions": 5, "min_time": "0.2s", "cases": [case, failed]}


def test_markdown_table():
    lines = bench_replay.markdown(_fake_report()).splitlines()
    assert "| case | bytes | ldsopt us | IREE default us | torch us | ldsopt/IREE | ldsopt dispatches |" in lines
    assert "| add | 4.0 MB | 2.0 (50%) | 4.0 (25%) | 1.2 (80%) | 0.50 | 1/1 |" in lines
    assert "| broken | 4.0 MB | error | 4.0 (25%) | error | - | 0/2 |" in lines
    assert any("4.00 TB/s" in line for line in lines)


def test_markdown_of_a_sweep_without_iree_default():
    """`--variants ldsopt`: IREE's column reads "-", and no ratio is made up."""
    report = _fake_report()
    for case in report["cases"]:
        del case["iree-default"]
    lines = bench_replay.markdown(report).splitlines()
    assert "| add | 4.0 MB | 2.0 (50%) | - | 1.2 (80%) | - | 1/1 |" in lines


def test_unknown_variant_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        bench_replay.main(["folder", "--variants", "ldsopt,cublas"])
    assert e.value.code == 2
    assert "unknown variant(s) cublas" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--compare", "a=x.json"], "needs --plot PNG"),
    (["--compare", "x.json", "--plot", "p.png"], "LABEL=RESULTS_JSON"),
    ([], "a prepared folder, or --compare"),
])
def test_compare_arguments_are_checked(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        bench_replay.main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_compare_plots_memory_and_matmul_cases(tmp_path):
    pytest.importorskip("matplotlib")
    report = _fake_report()
    matmul = {**report["cases"][0], "name": "mm", "flops": 2 * 64 ** 3}
    runs = [("a", {**report, "cases": report["cases"] + [matmul]}), ("b", report)]
    assert bench_replay.compare(runs, str(tmp_path / "c.png"), ["add", "mm"])
    assert (tmp_path / "c.png").stat().st_size > 0


def test_plot_shows_the_variants_run(tmp_path, monkeypatch):
    """A run without torch (--no-torch, lavapipe) plots no torch series."""
    plotted = []
    monkeypatch.setattr(bench_replay, "plot_series", lambda series, title, path: plotted.append(series) or True)
    report = _fake_report()
    bench_replay.plot(report, str(tmp_path / "a.png"))
    no_torch = {**report, "cases": [{k: v for k, v in c.items() if k != "torch"} for c in report["cases"]]}
    bench_replay.plot(no_torch, str(tmp_path / "b.png"))
    assert [[label for label, _, _ in series] for series in plotted] == [["ldsopt", "iree-default", "torch"],
                                                                         ["ldsopt", "iree-default"]]


def test_write_results(tmp_path):
    bench_replay.write_results(_fake_report(), str(tmp_path))
    assert json.loads((tmp_path / "results.json").read_text())["cases"][0]["ldsopt"]["us"] == 2.0
    assert (tmp_path / "results.md").read_text().startswith("# lds-bench on NVIDIA H200 (cuda)")


def test_parse_benchmark_json():
    rows = [{"name": "BM_f/process_time/real_time", "run_name": "BM_f/process_time/real_time", "run_type": "iteration",
             "real_time": t, "time_unit": "ms"} for t in (1.0, 3.0, 2.0)]
    rows.append({**rows[0], "run_type": "aggregate", "real_time": 99.0})
    assert timing.parse_benchmark_json(json.dumps({"benchmarks": rows})) == {"f": [1000.0, 3000.0, 2000.0]}


def _has_vulkan() -> bool:
    from ldsopt.run.iree_tools import available_devices
    return "vulkan" in available_devices()


@pytest.mark.skipif(not _has_vulkan(), reason="no Vulkan device (apt-get install mesa-vulkan-drivers)")
def test_lavapipe_smoke(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "ldsopt.tools.lds_bench", "--target", "lavapipe",
                           "--cases", "add_bcast_1024x1024_f32", "--out", str(tmp_path), "--repetitions", "2"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((tmp_path / "results.json").read_text())
    (case,) = report["cases"]
    for variant in ("ldsopt", "iree-default"):
        assert case[variant]["us"] > 0 and math.isfinite(case[variant]["us"])
        assert case[variant]["total_dispatches"] == 1
    assert "torch" not in case and report["copy_bandwidth"] is None
    assert os.path.exists(tmp_path / "results.md")
    # matplotlib is a pinned dependency: the plot is made on every install, not only where it happens to be.
    assert (tmp_path / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", proc.stdout


@pytest.mark.skipif(not _has_vulkan(), reason="no Vulkan device (apt-get install mesa-vulkan-drivers)")
def test_results_without_out_go_to_a_folder_it_names(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "ldsopt.tools.lds_bench", "--target", "lavapipe",
                           "--cases", "add_bcast_1024x1024_f32", "--repetitions", "2"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (folder,) = tmp_path.iterdir()
    assert folder.name.startswith("lds-bench-lavapipe-")
    assert f"lds-bench: results go to {folder.name} (--out names another folder)" in proc.stdout.splitlines()
    assert {"results.json", "results.md", "results.png"} <= {p.name for p in folder.iterdir()}


@pytest.mark.parametrize("flag, value, message", [
    ("--repetitions", "-3", "--repetitions: expected an integer 1 or more, got -3"),
    ("--batch-size", "0", "--batch-size: expected an integer 1 or more, got 0"),
    ("--min-time", "soon", "--min-time: expected seconds (0.2s) or iterations (100x), got 'soon'"),
])
def test_lds_bench_checks_its_arguments_before_compiling(tmp_path, flag, value, message):
    """--repetitions -3 used to fail only once every case had compiled."""
    out = tmp_path / "out"
    proc = subprocess.run([os.path.join(os.path.dirname(sys.executable), "lds-bench"), "--target", "lavapipe",
                           "--out", str(out), flag, value], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stderr == f"lds-bench: error: {message}\n"
    assert not out.exists()


def test_resnet50_conv_cases():
    """ResNet-50's convolutions (batch 8, NHWC f16): the stem, each stage's 3x3 and its two
    1x1s, the stride-2 3x3; FLOPs of the unpadded output, bytes of the unpadded tensors."""
    convs = CASES.RESNET50_CONVS
    assert len(convs) == 14 and all(c in CASES.CASES for c in convs)
    stem = BY_NAME["conv_nhwc_8x224x224x3_64x7x7_s2_f16"]
    assert stem.flops == 2 * 8 * 112 * 112 * 64 * 7 * 7 * 3
    assert stem.bytes == (8 * 224 * 224 * 3 + 64 * 7 * 7 * 3 + 8 * 112 * 112 * 64) * 2
    assert "tensor.pad %x low[0, 3, 3, 0]" in stem.mlir and "strides = dense<2>" in stem.mlir
    assert "tensor.pad" not in BY_NAME["conv_nhwc_8x7x7x2048_512x1x1_s1_f16"].mlir


def test_conv_case_twin_is_the_program():
    """The conv cases' PyTorch twin (NHWC viewed NCHW channels-last) against numpy on a small
    case of the same template: stride 2, padding, prime sizes."""
    torch = pytest.importorskip("torch")
    case = CASES._conv(2, 9, 7, 5, 3, 3, 2)
    rng = np.random.default_rng(0)
    x, w = (rng.standard_normal(o.shape).astype(np.float32) for o in case.inputs)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros(case.output.shape)
    for i in range(out.shape[1]):
        for j in range(out.shape[2]):
            out[:, i, j, :] = np.einsum("nhwc,fhwc->nf", xp[:, 2 * i:2 * i + 3, 2 * j:2 * j + 3, :], w)
    got = case.torch(torch.from_numpy(x), torch.from_numpy(w)).numpy()
    np.testing.assert_allclose(got, out, atol=1e-5, rtol=1e-5)
