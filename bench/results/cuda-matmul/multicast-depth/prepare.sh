#!/bin/bash
# Here (the compiler), from the repository root at 9a14684: GPT-2's four products (K x N
# weights) under the default plan, 64x64 cp.async tiles and multicast clusters, for call 1 or
# call 2 of the README, and the multicast programs' values. Variants are named
# mCMCNsS[cC|o]: multicast CMxCN, S LDS tiles; in call 2, C of them copied unshared by cp.async
# before the maps are built (c2 unless named; o: the S - 1 of 9a14684), built from a copy of
# ldsopt/ with prologue.patch applied and its PROLOGUE_CP_ASYNC set to C. Usage: prepare.sh 1|2 DIR
set -euo pipefail
call=${1:?1 or 2}; dir=${2:?DIR}; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
pipeline() {  # the default pipeline with ldsopt-matmul-lds options $1
  python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"
}
with_prologue() {  # with_prologue C CMD...: CMD under prologue.patch with PROLOGUE_CP_ASYNC = C (-: unpatched)
  local c=$1; shift
  [ "$c" = - ] && { "$@"; return; }
  local copy; copy=$(mktemp -d); cp -r ldsopt "$copy/"
  patch -s -d "$copy" -p1 < bench/results/cuda-matmul/multicast-depth/prologue.patch
  sed -i "s/^PROLOGUE_CP_ASYNC = .*/PROLOGUE_CP_ASYNC = $c/" "$copy/ldsopt/matmul/tma_copy.py"
  PYTHONPATH="$copy" "$@"; rm -rf "$copy"
}
cases=matmul_NN_512x768x3072_f16_bias_residual,matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x768_f16_bias
lds-bench --target cuda-sm90a --cases "$cases" --prepare "$dir/time/def" > "$dir/time-def.log" 2>&1
grep "^$call " <<'VARIANTS' | while read -r _ name prologue options; do
1 t64 - tiles=64x64x8x4 cluster-k=1
1 m12s4 - tiles=64x64x8x4 cluster-k=1 multicast=1x2
1 m42s4 - tiles=64x64x8x4 cluster-k=1 multicast=4x2
1 m42s8 - tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8
1 m42s12 - tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12
1 m22s4 - tiles=64x64x8x4 cluster-k=1 multicast=2x2
1 m22s8 - tiles=64x64x8x4 cluster-k=1 multicast=2x2 stages=8
2 t64 - tiles=64x64x8x4 cluster-k=1
2 m42s8o 99 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8
2 m42s4 2 tiles=64x64x8x4 cluster-k=1 multicast=4x2
2 m42s8 2 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8
2 m42s12 2 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12
2 m42s12c1 1 tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12
2 m22s8 2 tiles=64x64x8x4 cluster-k=1 multicast=2x2 stages=8
2 m22s12 2 tiles=64x64x8x4 cluster-k=1 multicast=2x2 stages=12
2 m12s12 2 tiles=64x64x8x4 cluster-k=1 multicast=1x2 stages=12
VARIANTS
  with_prologue "$prologue" lds-bench --target cuda-sm90a --cases "$cases" --pipeline "$(pipeline "$options")" \
    --prepare "$dir/time/$name" > "$dir/time-$name.log" 2>&1
done
# values: call 1 at 4 and 12 LDS tiles (unpatched), call 2 at 12 with C = 2
for stages in $([ "$call" = 1 ] && echo 4 12 || echo 12); do
  with_prologue "$([ "$call" = 1 ] && echo - || echo 2)" lds-run --target cuda-sm90a --prepare "$dir/vals/m42s$stages" \
    --require-ldsopt --pipeline "$(pipeline "tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=$stages")" \
    test/e2e/programs/matmul_multicast/*.mlir > "$dir/vals-m42s$stages.log" 2>&1
done
