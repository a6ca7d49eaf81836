#!/bin/bash
# Here (the compiler), from the repository root: the multicast TMA copies' value programs
# under several cluster shapes, and GPT-2's four products (K x N weights) under the default
# plan and multicast variants. Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
pipeline() {  # the default pipeline with ldsopt-matmul-lds options $1
  python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"
}
progs=test/e2e/programs/matmul_multicast
for shape in ${SHAPES:-2x2 4x2}; do
  lds-run --target cuda-sm90a --prepare "$dir/vals/$shape" --require-ldsopt \
    --pipeline "$(pipeline "tiles=64x64x8x4 cluster-k=1 multicast=$shape")" $progs/*.mlir > "$dir/vals-$shape.log" 2>&1
done
cases=matmul_NN_512x768x3072_f16_bias_residual,matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x768_f16_bias,batch_matmul_NT_12x512x512x64_f16_cast
lds-bench --target cuda-sm90a --cases "$cases" --prepare "$dir/time/def" > "$dir/time-def.log" 2>&1
while read -r name options; do
  lds-bench --target cuda-sm90a --cases "$cases" --pipeline "$(pipeline "$options")" \
    --prepare "$dir/time/$name" > "$dir/time-$name.log" 2>&1
done <<'VARIANTS'
t64 tiles=64x64x8x4 cluster-k=1
p64m22 tiles=64x64x8x4 cluster-k=1 multicast=2x2
p64m12 tiles=64x64x8x4 cluster-k=1 multicast=1x2
p64m42 tiles=64x64x8x4 cluster-k=1 multicast=4x2
p64m22s6 tiles=64x64x8x4 cluster-k=1 multicast=2x2 stages=6
p128m22 tiles=64x128x8x8 cluster-k=1 multicast=2x2
VARIANTS
