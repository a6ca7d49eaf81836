#!/bin/bash
# Here, from the repository's root: the suite's blocks at base size, f16, 12 layers a call,
# with ldsopt-fold-norm appended to the default program pipeline (each norm folded into the
# products after it); a NAME ending in _all also reads every weight from an N x K copy
# (ldsopt-transpose-weights{mode=all}). Usage: prepare.sh NAME... (gpt2_block, gpt2_block_all,
# llama_block); one device call each.
set -eu
pipeline() {  # the default program pipeline with ldsopt-fold-norm appended, ldsopt-transpose-weights in mode $1
  python -c "from ldsopt.run import pipelines as p; print(p.PROGRAM_PIPELINE.replace('ldsopt-split-reduction)', 'ldsopt-split-reduction, ldsopt-fold-norm)').replace('ldsopt-transpose-weights,', 'ldsopt-transpose-weights{mode=$1},'))"
}
python models/suite.py build/fold/models --size base --dtype f16
for M in "$@"; do
  mode=refused; [[ $M == *_all ]] && mode=all
  rm -rf build/fold/$M
  lds-bench build/fold/models/${M%_all}_base_f16.onnx --target cuda-sm90a --weights-to-archive --stack 12 \
    --program-pipeline "$(pipeline $mode)" --prepare build/fold/$M
done
