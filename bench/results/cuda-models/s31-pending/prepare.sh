#!/bin/bash
# Here, from the repository's root: what session 31 prepared and could not run (its device time
# ran out, README.md). build/ln: GPT-2's LayerNorm dispatch (base size, f16) under
# ldsopt-vector-distribute's default plan and with workgroup-size 32 (one subgroup a row, no LDS
# round trips), 128 and 256, each dispatch's benchmark module; then the suite's GPT-2 block at
# base size for cuda-sm90a as ../s13-blocks/prepare.sh makes it (build/s13b/gpt2_block).
set -eu
export PATH=$PWD/.venv/bin:$PATH
python models/suite.py build/s13b/models --size base --dtype f16
mkdir -p build/ln
for w in 0 32 128 256; do
  pipeline=$(python -c "from ldsopt.run import pipelines as p; print(p.DEFAULT_PIPELINE if $w == 0 else p.DEFAULT_PIPELINE.replace('ldsopt-vector-distribute,', 'ldsopt-vector-distribute{workgroup-size=$w},'))")
  rm -rf build/ln/w$w
  lds-bench build/s13b/models/gpt2_block_base_f16.onnx --target cuda-sm90a --weights-to-archive --no-torch \
    --pipeline "$pipeline" --prepare build/ln/w$w > build/ln/w$w.log
  cp build/ln/w$w/dispatches/ldsopt/module_gpt2_block_dispatch_0_cuda_nvptx_fb.vmfb build/ln/ln_w$w.vmfb
  rm -rf build/ln/w$w
done
bash bench/results/cuda-models/s13-blocks/prepare.sh gpt2_block
