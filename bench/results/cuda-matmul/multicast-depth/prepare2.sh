#!/bin/bash
# Here, from the repository root at 9a14684: the second call's variants of GPT-2's four
# products, named mCMCNsS[cC]: multicast CMxCN, S LDS tiles, C of them copied unshared by
# cp.async before the maps are built (c2 unless named; `o`: the S - 1 of 9a14684), built from a
# copy of ldsopt/ with prologue.patch applied and its PROLOGUE_CP_ASYNC set to C. Usage: prepare2.sh DIR
set -euo pipefail
dir=${1:?DIR}; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
pipeline() {
  python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"
}
cases=matmul_NN_512x768x3072_f16_bias_residual,matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x768_f16_bias
with_prologue() {  # with_prologue C CMD...: CMD with PROLOGUE_CP_ASYNC = C
  local copy; copy=$(mktemp -d); cp -r ldsopt "$copy/"
  patch -s -d "$copy" -p1 < bench/results/cuda-matmul/multicast-depth/prologue.patch
  sed -i "s/^PROLOGUE_CP_ASYNC = .*/PROLOGUE_CP_ASYNC = $1/" "$copy/ldsopt/matmul/tma_copy.py"
  shift; PYTHONPATH="$copy" "$@"; rm -rf "$copy"
}
lds-bench --target cuda-sm90a --cases "$cases" --prepare "$dir/time/def" > "$dir/time-def.log" 2>&1
while read -r name prologue options; do
  with_prologue "$prologue" lds-bench --target cuda-sm90a --cases "$cases" --pipeline "$(pipeline "$options")" \
    --prepare "$dir/time/$name" > "$dir/time-$name.log" 2>&1
done <<'VARIANTS'
t64 2 tiles=64x64x8x4 cluster-k=1
m42s8o 99 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8
m42s4 2 tiles=64x64x8x4 cluster-k=1 multicast=4x2
m42s8 2 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8
m42s12 2 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12
m42s12c1 1 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12
m22s8 2 tiles=64x64x8x4 cluster-k=1 multicast=2x2 stages=8
m22s12 2 tiles=64x64x8x4 cluster-k=1 multicast=2x2 stages=12
m12s12 2 tiles=64x64x8x4 cluster-k=1 multicast=1x2 stages=12
VARIANTS
lds-run --target cuda-sm90a --prepare "$dir/vals/m42s12" --require-ldsopt \
  --pipeline "$(pipeline "tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12")" \
  test/e2e/programs/matmul_multicast/*.mlir > "$dir/vals-m42s12.log" 2>&1
