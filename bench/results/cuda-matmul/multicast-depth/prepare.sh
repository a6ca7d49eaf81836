#!/bin/bash
# Here (the compiler), from the repository root: GPT-2's four products (K x N weights) under
# the default plan, 64x64 cp.async tiles, and multicast clusters at several pipeline depths
# (LDS tiles); the FFN down values under the deepest clusters. Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
pipeline() {  # the default pipeline with ldsopt-matmul-lds options $1
  python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"
}
cases=matmul_NN_512x768x3072_f16_bias_residual,matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x768_f16_bias
lds-bench --target cuda-sm90a --cases "$cases" --prepare "$dir/time/def" > "$dir/time-def.log" 2>&1
while read -r name options; do
  lds-bench --target cuda-sm90a --cases "$cases" --pipeline "$(pipeline "$options")" \
    --prepare "$dir/time/$name" > "$dir/time-$name.log" 2>&1
done <<'VARIANTS'
t64 tiles=64x64x8x4 cluster-k=1
m12s4 tiles=64x64x8x4 cluster-k=1 multicast=1x2
m42s4 tiles=64x64x8x4 cluster-k=1 multicast=4x2
m42s8 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8
m42s12 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12
m22s4 tiles=64x64x8x4 cluster-k=1 multicast=2x2
m22s8 tiles=64x64x8x4 cluster-k=1 multicast=2x2 stages=8
VARIANTS
for v in m42s4 m42s12; do
  lds-run --target cuda-sm90a --prepare "$dir/vals/$v" --require-ldsopt \
    --pipeline "$(pipeline "tiles=64x64x8x4 cluster-k=1 multicast=${v:1:1}x${v:2:1} stages=${v:4}")" \
    test/e2e/programs/matmul_multicast/*.mlir > "$dir/vals-$v.log" 2>&1
done
