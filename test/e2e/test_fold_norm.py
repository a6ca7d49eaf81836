"""End-to-end tests of ldsopt-fold-norm: the suite's GPT-2 (LayerNorm) and Llama (RMSNorm) blocks,
in f32 and f16, and their PyTorch twins exported by iree-turbine, with each norm folded into the
products after it, run on lavapipe against the reference (and PyTorch): the norms' own
dispatches are gone, every dispatch is ldsopt's, the folded weights are made at load. And the
small GPT-2 block compiled for sm_90a: its QKV projection, with the rows' sums, is a wgmma
kernel."""

import dataclasses
import pathlib
import re

import pytest

from ldsopt.run import pipelines

pytest.importorskip("onnx")

FOLD = pipelines.program_pipeline(fold_norm=True)
PRODUCER = FOLD.replace("ldsopt-fold-norm)", "ldsopt-fold-norm{stats=producer})")
ARGS = ("--target", "lavapipe", "--weights-to-archive", "--require-ldsopt")


def _per_call(report: str) -> list[str]:
    return [line for line in report.splitlines() if line.startswith("dispatch ") and "at load" not in line]


@pytest.mark.parametrize("kind, dtype", [("gpt2_block", "f32"), ("gpt2_block", "f16"), ("llama_block", "f32"),
                                         ("llama_block", "f16")])
def test_norms_folded_on_lavapipe(suite, tmp_path, lds_run, kind, dtype):
    import onnx
    path = tmp_path / f"{kind}_{dtype}.onnx"
    onnx.save(getattr(suite, kind)(suite.SIZES["small"], dtype), str(path))
    plain = lds_run(str(path), *ARGS)
    folded = lds_run(str(path), *ARGS, "--program-pipeline", FOLD)
    for proc in (plain, folded):
        assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), \
            proc.stdout + proc.stderr
    # Each block's two norms were one dispatch run twice; folded, none is left.
    assert any("_reduction_" in line for line in _per_call(plain.stdout)), plain.stdout
    assert not any("_reduction_" in line for line in _per_call(folded.stdout)), folded.stdout
    assert len(_per_call(folded.stdout)) == len(_per_call(plain.stdout)) - 1, folded.stdout
    assert re.search(r"\d+ more run once, at load", folded.stdout), folded.stdout  # gamma * W, its sums


@pytest.mark.parametrize("kind, dtype", [("gpt2_block", "f16"), ("llama_block", "f32")])
def test_statistics_from_the_product_before(suite, tmp_path, lds_run, kind, dtype):
    """`stats=producer` at hidden 128 (two chunks of 64): the norm after the attention's residual
    is folded into the MLP's first products with its statistics made by the O projection's
    dispatch (its region holds the chunks' sums, read through `n floordiv 64`); the block's
    first norm, whose x is the block's input, stays a dispatch. Values PASS, every dispatch
    ldsopt's."""
    import onnx
    path = tmp_path / f"{kind}_{dtype}.onnx"
    onnx.save(getattr(suite, kind)(dataclasses.replace(suite.SIZES["small"], hidden=128, ffn=256), dtype), str(path))
    proc = lds_run(str(path), *ARGS, "--program-pipeline", PRODUCER, "--emit-dir", str(tmp_path / "emit"))
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), proc.stdout + proc.stderr
    dispatches = (tmp_path / "emit" / "configured.mlir").read_text().split("func.func @")[1:]
    made = [d for d in dispatches if "floordiv 64" in d and "matmul" in d.split("(")[0]]
    assert len(made) == 1, [d.split("(")[0] for d in dispatches]
    assert sum("_reduction_" in line for line in _per_call(proc.stdout)) == 1, proc.stdout


def test_folded_after_every_weight_transposed(suite, tmp_path, lds_run):
    """After ldsopt-transpose-weights{mode=all} the weights are N x K copies behind fences;
    gamma * W and its sums are made from the copies' constants, so IREE still makes them at
    load: as many dispatches a call as the fold alone."""
    import onnx
    path = tmp_path / "gpt2_f16.onnx"
    onnx.save(suite.gpt2_block(suite.SIZES["small"], "f16"), str(path))
    both = pipelines.program_pipeline(fold_norm=True, transpose_weights="all")
    folded = lds_run(str(path), *ARGS, "--program-pipeline", FOLD)
    moved = lds_run(str(path), *ARGS, "--program-pipeline", both)
    for proc in (folded, moved):
        assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), \
            proc.stdout + proc.stderr
    calls = _per_call(moved.stdout)
    assert len(calls) == len(_per_call(folded.stdout)) and all("_batch_matmul_" in line or "_attention_" in line
                                                               for line in calls), moved.stdout


@pytest.mark.parametrize("kind", ["gpt2_block", "llama_block"])
def test_pytorch_twins_folded_on_lavapipe(kind):
    """The twins' norms (F.layer_norm, an RMSNorm module) as iree-turbine exports them."""
    torch = pytest.importorskip("torch")
    from ldsopt import torch as lt
    from ldsopt.models import suite, torch_twins

    size = suite.SIZES["small"]
    torch.manual_seed(0)
    record = lt.run(torch_twins.of_model(getattr(suite, kind)(size, "f32")), torch.randn(1, size.seq, size.hidden),
                    target="lavapipe", progress=lambda m: None, program_pipeline=FOLD)
    assert record["ok"] and record["passed"] and record["passed_torch"], record
    per_call = [d for d in record["dispatches"] if not d.get("at_load")]
    assert all(d["passes"] for d in record["dispatches"]), record["dispatches"]
    assert not any("_reduction_" in d["name"] for d in per_call), [d["name"] for d in per_call]


def test_folded_qkv_takes_wgmma_on_sm90a(suite, tmp_path, lds_run):
    """The small f16 GPT-2's folded QKV compiles for sm_90a to a wgmma kernel whose LDS array
    holds each row's two finished values (mean and scale) for its consumer."""
    import onnx
    path = tmp_path / "gpt2_f16.onnx"
    onnx.save(suite.gpt2_block(suite.SIZES["small"], "f16"), str(path))
    proc = lds_run(str(path), "--target", "cuda-sm90a", "--weights-to-archive", "--require-ldsopt",
                   "--program-pipeline", FOLD, "--prepare", str(tmp_path / "prepared"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lowered = (tmp_path / "prepared" / "ldsopt.mlir").read_text()
    qkv = lowered[lowered.index("_batch_matmul_1x16x96x32_"):]
    qkv = qkv[:qkv.index("hal.executable private")]
    assert "nvvm.wgmma.mma_async" in qkv and re.search(r"memref<2x\d+xf32, #gpu.address_space<workgroup>>", qkv), \
        qkv[:3000]


PROGRAMS = pathlib.Path(__file__).parent / "programs" / "fold_norm"


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
@pytest.mark.parametrize("rows", ["-1:1", "1000:1002"])
def test_programs_with_means_far_from_zero(lds_run, name, rows):
    """A LayerNorm before a projection with a bias (ONNX's and torch-mlir's spelling), an
    RMSNorm written with powers before an N x K weight: folded, one dispatch, on rows of mean 0
    and of mean 1001 with a spread of 0.58. The product subtracts mean * c after the sum, c the
    sum of the rounded gamma * W it reads, so the mean cancels as in (x - mean) W' (c of the
    unrounded gamma * W was 4.8% off at a mean of 100)."""
    proc = lds_run(str(PROGRAMS / f"{name}.mlir"), "--target", "lavapipe", "--require-ldsopt", "--program-pipeline",
                   FOLD, "--input-range", f"0={rows}")
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), proc.stdout + proc.stderr
    assert "ldsopt lowered 1 of 1 dispatches" in proc.stdout, proc.stdout
