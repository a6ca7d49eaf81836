#!/bin/bash
# Here, from the repository's root: ldsopt-attention's kernels of a dynamic sequence compiled
# with their dims dynamic, for cuda (mma.sync; FMA for f32, decode and V^T) and cuda-sm90a
# (wgmma), each with its inputs and reference at one length, into build/dattn/T-CASE (ignored
# by git); run.sh replays them on the H200.
set -eu
P=test/e2e/programs/attention_dynamic D=bench/results/cuda-dynamic/attention
rm -rf build/dattn
prep() {  # prep TARGET CASE PROGRAM INDEX=SHAPE...
  local t=$1 case=$2 prog=$3 args=()
  shift 3
  for s in "$@"; do args+=(--input-shape "$s"); done
  lds-run "$prog" --target "$t" --keep-dynamic --require-ldsopt "${args[@]}" --prepare "build/dattn/$t-$case"
}
for T in cuda cuda-sm90a; do
  prep $T rows-keys-37x45 $P/rows_keys_f16_2x3xMxK2x64.mlir 0=2x3x37x64 1=2x3x45x64 2=2x3x45x64
  prep $T causal-f16-200 $D/causal_f16_1x4xSx64.mlir 0=1x4x200x64 1=1x4x200x64 2=1x4x200x64
done
prep cuda-sm90a rows-keys-131x300 $P/rows_keys_f16_2x3xMxK2x64.mlir 0=2x3x131x64 1=2x3x300x64 2=2x3x300x64
prep cuda rows-keys-67x300 $P/rows_keys_f16_2x3xMxK2x64.mlir 0=2x3x67x64 1=2x3x300x64 2=2x3x300x64
prep cuda rows-keys-1x1 $P/rows_keys_f16_2x3xMxK2x64.mlir 0=2x3x1x64 1=2x3x1x64 2=2x3x1x64
prep cuda decode-400 $P/keys_decode_f16_1x2x1xK2x128.mlir 1=1x2x400x128 2=1x2x400x128
prep cuda causal-f32-131 $P/causal_f32_1x2xSx32.mlir 0=1x2x131x32 1=1x2x131x32 2=1x2x131x32
prep cuda mask-rows-131 $P/mask_rows_f32_1x2xMx60x80.mlir 0=1x2x131x80 3=131x60
prep cuda vt-keys-f16-37 $P/vt_keys_f16_2xSx64.mlir 0=2x37x64 1=2x37x64 2=2x64x37
