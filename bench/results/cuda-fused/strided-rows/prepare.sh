#!/bin/bash
# Here (no GPU), from the repository root: the strided-rows kernels for the H200. Usage:
# prepare.sh DIR (DIR/bench: lds-bench's two softmax-over-channels cases, ldsopt against IREE's
# default and torch; DIR/values: the fused programs whose rows are strided, for their values).
set -eu
dir=${1:?DIR}
lds-bench --target cuda --cases softmax_8x19x256x256_dim1_f32,softmax_8x19x256x256_dim1_f16 --prepare "$dir/bench"
p=test/e2e/programs/fused
lds-run $p/softmax_channels_f16_2x21x33.mlir $p/softmax_middle_f32_5x13x11.mlir $p/softmax_middle_f32_4x300x6.mlir \
  $p/log_softmax_dim0_f32_37x12.mlir $p/layernorm_channels_first_f32_2x24x7x9.mlir \
  $p/l2_normalize_dim1_f32_1x256x30x30.mlir $p/center_dim1_f32_3x9x14.mlir $p/argmax_middle_f32_4x300x6.mlir \
  --target cuda --program-pipeline "" --prepare "$dir/values"
