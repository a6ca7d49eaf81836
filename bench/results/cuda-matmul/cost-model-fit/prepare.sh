#!/bin/bash
# Here, from the repository's root: prepare.sh DIR. The multi-wave products of cases.MORE_MATMULS
# for cuda-sm90a under the default plan and four forced wgmma tilings (those COSTS and the fit
# choose among), one lds-bench folder a variant: DIR/default, DIR/t<tiling>.
set -eu
DIR=$1
CASES=matmul_NN_512x6144x768_f16_cast,matmul_NN_2048x2304x768_f16_cast,matmul_NN_4096x768x768_f16_cast
pipeline() {
  python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"
}
lds-bench --target cuda-sm90a --prepare "$DIR/default" --cases $CASES | tail -1
for t in 64x128x8x8 128x128x8x8 128x256x8x16 64x256x8x16; do
  lds-bench --target cuda-sm90a --prepare "$DIR/t$t" --cases $CASES --pipeline "$(pipeline tiles=$t)" | tail -1
done
