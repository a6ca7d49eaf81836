#!/bin/bash
# Here, from the repository's root: the suite's blocks at base size, f16, 12 layers a call,
# with ldsopt-fold-norm appended to the default program pipeline (each norm folded into the
# products after it). Usage: prepare.sh NAME... (gpt2_block, llama_block); one device call each.
set -eu
fold=$(python -c "from ldsopt.run import pipelines as p; print(p.PROGRAM_PIPELINE.replace('ldsopt-split-reduction)', 'ldsopt-split-reduction, ldsopt-fold-norm)'))")
python models/suite.py build/fold/models --size base --dtype f16
for M in "$@"; do
  rm -rf build/fold/$M
  lds-bench build/fold/models/${M}_base_f16.onnx --target cuda-sm90a --weights-to-archive --stack 12 \
    --program-pipeline "$fold" --prepare build/fold/$M
done
