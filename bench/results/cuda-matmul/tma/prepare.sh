#!/bin/bash
# Run here (no GPU) in the checkout: build/d4/new (the default pipeline: TMA where the wgmma
# kernel allows it), build/d4/old (the same with ldsopt-matmul-lds{tma=false}: the kernels of
# the session's base 5151a95, checked identical in IR), and the value folders: the matmul_large
# programs that take TMA by default (vd) and others under 128x256 tiles (vf).
set -e
CASES=$(lds-bench --list | awk '{print $1}' | grep "^matmul\|^batch_matmul" | paste -sd,)
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"; }
lds-bench --target cuda-sm90a --cases $CASES --prepare build/d4/new
lds-bench --target cuda-sm90a --cases $CASES --pipeline "$(with tma=false)" --prepare build/d4/old
P=test/e2e/programs
lds-run --target cuda-sm90a --prepare build/d4/vd $P/matmul_large/{batch_nt_bf16_weighted_2x520x2048x520,nn_bf16_weighted_1030x2048x1000,tn_f16_weighted_4096x2304x96}.mlir
lds-run --target cuda-sm90a --pipeline "$(with tiles=128x256x8x16)" --prepare build/d4/vf $P/matmul/nn_bf16_128x256x64.mlir \
  $P/matmul_skinny/m7_f16_7x256x1000.mlir $P/matmul_large/{nn_f16_bias_f16out_300x512x200,nt_f16_residual_gelu_300x512x136}.mlir
# Left out for the 64 MiB the device takes (replayed by the earlier calls of this session, on
# the kernels' first form): matmul_large/nt_f16_weighted_2100x2048x520, matmul_skinny/m1_f16_1x512x4096.
