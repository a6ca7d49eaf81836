#!/bin/bash
# Here, from the repository root: the suite's base f16 models for cuda-sm90a under the default
# program pipeline (`ldsopt-transpose-weights` in mode refused: only the decoder's logits move)
# and, beside each, the variant to compare: the decoder without the pass (mode=none), the
# blocks with every weight transposed (mode=all). Each folder is cut to what
# `program_bench --dispatches-only` reads (manifest.json and dispatches/).
# Usage: prepare.sh MODELS DIR   (MODELS: `python models/suite.py MODELS --size base --dtype f16`)
set -euo pipefail
models=${1:?MODELS}; dir=${2:?DIR}
program() {  # the default program pipeline with ldsopt-transpose-weights in mode $1
  python -c "from ldsopt.run import pipelines as p; print(p.PROGRAM_PIPELINE.replace('ldsopt-transpose-weights,', 'ldsopt-transpose-weights{mode=$1},'))"
}
prepare() {  # NAME MODEL [lds-bench args]
  local name=$1 model=$2; shift 2
  lds-bench "$models/${model}_base_f16.onnx" --target cuda-sm90a --weights-to-archive --prepare "$dir/$name" "$@"
  find "$dir/$name" -mindepth 1 -maxdepth 1 ! -name manifest.json ! -name dispatches -exec rm -rf {} +
}
prepare decoder_block decoder_block
prepare decoder_block_none decoder_block --program-pipeline "$(program none)"
for m in gpt2_block encoder_layer llama_block; do
  prepare $m $m
  prepare ${m}_all $m --program-pipeline "$(program all)"
done
