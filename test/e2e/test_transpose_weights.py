"""End-to-end tests of ldsopt-transpose-weights: the suite's models with every K x N weight read
from an N x K copy (`mode=all`) run on lavapipe against llvm-cpu, the copies made by dispatches
that run once, at load; and the small decoder's logits (a vocabulary of 97) compiled for
sm_90a by the default pipelines take the wgmma scheme on the transposed weight."""

import re

import pytest

from ldsopt.run import pipelines

pytest.importorskip("onnx")

ALL = pipelines.program_pipeline(transpose_weights="all")
AT_LOAD = re.compile(r"(\d+) more run once, at load")


def _at_load(report: str) -> int:
    found = AT_LOAD.search(report)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("model", ["decoder_block_small_f32", "gpt2_block_small_f32"])
def test_every_weight_transposed_on_lavapipe(models, model, lds_run):
    path = str(models / f"{model}.onnx")
    args = ("--target", "lavapipe", "--weights-to-archive", "--require-ldsopt")
    plain = lds_run(path, *args)
    moved = lds_run(path, *args, "--program-pipeline", ALL)
    for proc in (plain, moved):
        assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), \
            proc.stdout + proc.stderr
    # Each weight's copy is one more dispatch at load; each call runs as many as before.
    assert _at_load(moved.stdout) > _at_load(plain.stdout), moved.stdout
    calls = [line for line in moved.stdout.splitlines() if line.startswith("dispatch ") and "at load" not in line]
    assert len(calls) == len([line for line in plain.stdout.splitlines()
                              if line.startswith("dispatch ") and "at load" not in line]), moved.stdout


def test_decoder_logits_take_wgmma_on_sm90a(suite, tmp_path, lds_run):
    """The small decoder in f16: its logits' weight is 32 x 97, whose rows wgmma's 16-byte copies
    cannot take; the default program pipeline reads it from a 97 x 32 copy, and the product is
    a wgmma kernel (it was mma.sync's)."""
    import onnx
    path = tmp_path / "decoder_f16.onnx"
    onnx.save(suite.decoder_block(suite.SIZES["small"], "f16"), str(path))
    proc = lds_run(str(path), "--target", "cuda-sm90a", "--weights-to-archive", "--require-ldsopt",
                   "--prepare", str(tmp_path / "prepared"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lowered = (tmp_path / "prepared" / "ldsopt.mlir").read_text()
    logits = lowered[lowered.index("_batch_matmul_1x16x97x32_"):]
    logits = logits[:logits.index("hal.executable private")]
    assert "memref<1x97x32xf16" in logits and "nvvm.wgmma.mma_async" in logits, logits[:2000]
    assert "_transpose_32x97_f16" in lowered
