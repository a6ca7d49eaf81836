#!/bin/bash
# From the repository root (about 15 minutes): build/s33/out/NAME-*.vmfb, GPT-2's FFN up
# (512x3072x768 f16, bias and tanh GELU) plain, folded with the norm's mean and scale finished
# once a row (ffn_up_fold: 16 ops an element) and folded as session 32 left it (the mean and
# scale in the consumer's body, ffn_up_fold_per_element), each under its default plan and
# forced to 64x64 (128 threads) and 128x128 (256 threads); then build/s33b, GPT-2's base block
# for cuda-sm90a, 12 layers a call, by the default program pipeline and with
# ldsopt-fold-norm{stats=producer} appended (../fence-d844df1/prepare.sh).
set -eu
export PATH=$PWD/.venv/bin:$PATH
here=$(dirname "$0"); rm -rf build/s33; mkdir -p build/s33/out
pipeline() {
  python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"
}
for n in ffn_up_plain ffn_up_fold ffn_up_fold_per_element; do
  for t in default 64x64x8x4 128x128x8x8; do
    v=$n-${t%%x[0-9]x[0-9]}
    [ $t = default ] && p="" || p=$(pipeline tiles=$t)
    lds-bench $here/$n.mlir --target cuda-sm90a --no-torch ${p:+--pipeline "$p"} --prepare build/s33/$v > build/s33/$v.log 2>&1
    for f in build/s33/$v/dispatches/ldsopt/*.vmfb; do cp $f build/s33/out/$v.vmfb; done
  done
done
rm -rf build/s33b
BUILD=build/s33b bash "$here/../fence-d844df1/prepare.sh" gpt2_block gpt2_block_prod
