#!/bin/bash
# Here (no GPU), from the repository root: the mma.sync kernels walking their tiles
# (ldsopt-matmul-lds `persistent=true`) against the same plans as plain grids.
# - DIR/lg, DIR/walk: the five large lds-bench cases for cuda-sm90a with mma.sync (`wgmma=false`,
#   ldsopt-dtl-layout's grids=auto plan), plain and walking (../mma-sync-hopper-lds/prepare.sh);
# - DIR/values-{sm90a,cuda}/NAME: the large matmul e2e programs, walking, prepared by
#   lds-run --prepare for cuda-sm90a with mma.sync and for cuda (sm_89 PTX).
# Usage: prepare.sh DIR (what DIR already holds is kept)
set -euo pipefail
dir=${1:?DIR}; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
[ -d "$dir/walk" ] || bash bench/results/cuda-matmul/mma-sync-hopper-lds/prepare.sh "$dir" "lg:grids=auto" "walk:grids=auto:persistent=true"
base=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE)")
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
