#!/bin/bash
# Here (no GPU), from the repository root: the mma.sync kernels walking their tiles
# (ldsopt-matmul-lds `persistent=true`) against the same plans as plain grids.
# - DIR/lg, DIR/walk: the five large lds-bench cases for cuda-sm90a with mma.sync (`wgmma=false`,
#   ldsopt-dtl-layout's grids=auto plan), plain and walking (../mma-sync-hopper-lds/prepare.sh);
#   DIR/s4w: the same plan with 4 stages, walking; DIR/t512, DIR/t512w: 128x256 tiles of 16 warps,
#   plain and walking;
# - DIR/c89, DIR/c89w: the five cases for --target cuda (sm_89 PTX), plain and walking;
# - DIR/values-{sm90a,cuda}/NAME: the large matmul e2e programs, walking, prepared by
#   lds-run --prepare for cuda-sm90a with mma.sync and for cuda (sm_89 PTX).
# Usage: prepare.sh DIR (what DIR already holds is kept)
set -euo pipefail
dir=${1:?DIR}; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
[ -d "$dir/walk" ] || bash bench/results/cuda-matmul/mma-sync-hopper-lds/prepare.sh "$dir" "lg:grids=auto" "walk:grids=auto:persistent=true"
t512="grids=all tiles=128x256x8x8 workgroups-per-cu=1 k-bytes=128 stages=3"
[ -d "$dir/s4w" ] || bash bench/results/cuda-matmul/mma-sync-hopper-lds/prepare.sh "$dir" "t512:$t512" "t512w:$t512:persistent=true" \
  "s4w:grids=all tiles=128x256x8x16 workgroups-per-cu=1 k-bytes=128 stages=4:persistent=true"
large=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NT_4096x4096x4096_bf16,matmul_NN_8192x8192x1024_bf16
base=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE)")
[ -d "$dir/c89" ] || lds-bench --target cuda --cases "$large" --prepare "$dir/c89" > "$dir/c89.log" 2>&1
[ -d "$dir/c89w" ] || lds-bench --target cuda --cases "$large" --prepare "$dir/c89w" \
  --pipeline "${base/ldsopt-matmul-lds,/ldsopt-matmul-lds\{persistent=true\},}" > "$dir/c89w.log" 2>&1
for target in cuda-sm90a cuda; do
  p=${base/ldsopt-matmul-lds,/ldsopt-matmul-lds\{persistent=true\},}
  [ $target = cuda-sm90a ] && p=${base/ldsopt-matmul-lds,/ldsopt-matmul-lds\{persistent=true wgmma=false\},} \
    && p=${p/stages=3\}/stages=3 wgmma=false\}}
  out=$dir/values-${target#cuda-}; [ $target = cuda ] && out=$dir/values-cuda
  for f in test/e2e/programs/matmul_large/*.mlir test/e2e/programs/matmul_persistent*/*.mlir; do
    n=$(basename "$f" .mlir)
    [ -d "$out/$n" ] || lds-run "$f" --target $target --pipeline "$p" --prepare "$out/$n" > "$out.$n.log" 2>&1 \
      || echo "prepare failed: $n"
    echo "$target $n: $(grep -o 'ldsopt.persistent_refused = "[^"]*"' "$out/$n/ldsopt.mlir" || echo walks)"
  done
done
git rev-parse HEAD > "$dir/commit.txt"; git status --short >> "$dir/commit.txt"
