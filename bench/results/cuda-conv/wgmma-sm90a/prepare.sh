#!/bin/bash
# Run here (no GPU) in the checkout: the 14 ResNet-50 convolution cases for sm_90a (wgmma) and
# sm_89 (mma.sync), and the conv e2e programs for sm_90a. `build/d8` is the 1x1 sweep.
set -e
CASES=$(lds-bench --list | awk '{print $1}' | grep "^conv" | paste -sd,)
lds-bench --target cuda-sm90a --cases $CASES --prepare build/d7/c90
lds-bench --target cuda --cases $CASES --prepare build/d7/c89
lds-run --target cuda-sm90a --prepare build/d7/v test/e2e/programs/conv/*.mlir
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"; }
C=conv_nhwc_8x56x56x64_256x1x1_s1_f16,conv_nhwc_8x7x7x2048_512x1x1_s1_f16
lds-bench --target cuda-sm90a --cases $C --prepare build/d8/def
for v in wpc2:workgroups-per-cu=2 wpc3:workgroups-per-cu=3 t128x256:tiles=128x256x8x16 t128x128:tiles=128x128x8x8; do
  lds-bench --target cuda-sm90a --cases $C --pipeline "$(with "${v#*:}")" --prepare build/d8/${v%%:*}
done
