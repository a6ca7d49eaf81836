#!/bin/bash
# Here, from the repository's root: PyTorch exports with a dynamic sequence, compiled once with
# it dynamic (`lds-run --keep-dynamic --require-ldsopt`) for cuda and cuda-sm90a, each with its
# inputs and reference at one length, into build/dex/T-MODEL-LENGTH (ignored by git); run.sh
# replays them on the H200. The models: the suite's BERT, GPT-2 and Llama twins (SDPA; small
# size, width 32; ldsopt.torch.export of models.torch_twins.of_model, x's dim 1 a Dim of 2 to
# the tables' 16 positions) and test_torch.py's transformers BERT (eager attention; its ids'
# dim 1 a Dim up to 32).
set -eu
rm -rf build/dex build/dex-src
python - <<'PY'
import sys
import torch
import ldsopt.torch as lt
from ldsopt.models import suite, torch_twins
sys.path.insert(0, "test/e2e")
import test_torch as tt  # noqa: E402
size = suite.SIZES["small"]
for kind in ("encoder_layer", "gpt2_block", "llama_block"):
    torch.manual_seed(0)
    lt.export(torch_twins.of_model(getattr(suite, kind)(size, "f32")), (torch.randn(1, size.seq, size.hidden),),
              f"build/dex-src/{kind}", dynamic_shapes={"x": {1: torch.export.Dim("seq", min=2, max=size.seq)}})
lt.export(tt.tiny("bert"), (tt.ids(),), "build/dex-src/bert_eager",
          dynamic_shapes={"input_ids": {1: torch.export.Dim("s", max=32)}})
PY
for T in cuda cuda-sm90a; do
  for M in encoder_layer gpt2_block llama_block; do
    for L in 5 13; do
      lds-run build/dex-src/$M/export/model.mlir --target $T --parameters model=build/dex-src/$M/parameters/model.irpa \
        --keep-dynamic --require-ldsopt --input-shape 0=1x${L}x32 --prepare build/dex/$T-$M-$L
    done
  done
  for L in 1 29; do
    lds-run build/dex-src/bert_eager/export/model.mlir --target $T --parameters model=build/dex-src/bert_eager/parameters/model.irpa \
      --keep-dynamic --require-ldsopt --input-shape 0=1x$L --prepare build/dex/$T-bert_eager-$L
  done
done
