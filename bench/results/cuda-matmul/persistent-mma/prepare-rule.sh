#!/bin/bash
# Here (no GPU), from the repository root, at the commit whose rule is measured: the default
# plan on cuda-sm90a with mma.sync (`wgmma=false`) beside the plan before the rule.
# - DIR/new: the five large lds-bench cases (../mma-sync-hopper-lds/prepare.sh "new:grids=auto");
# - DIR/lg: the same prepared before the rule (OLD/lg of prepare.sh OLD at de8e54a), copied;
# - DIR/cast: the 4096^3 and 8192x8192x1024 f16 products with a 16-bit output, mma.sync;
# - DIR/wg: the five cases and the two 16-bit-output ones on the default pipeline (wgmma);
# - DIR/values/NAME: 2100x4100x1000 NT f16 (a walking NT product with M, N and K tails).
# Usage: prepare-rule.sh DIR OLD
set -euo pipefail
dir=${1:?DIR}; old=${2:?OLD}; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
[ -d "$dir/lg" ] || cp -r "$old/lg" "$dir/lg"
[ -d "$dir/new" ] || bash bench/results/cuda-matmul/mma-sync-hopper-lds/prepare.sh "$dir" "new:grids=auto"
base=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE)")
p=${base/stages=3\}/stages=3 wgmma=false\}}; p=${p/ldsopt-matmul-lds,/ldsopt-matmul-lds\{wgmma=false\},}
cast=matmul_NN_4096x4096x4096_f16_cast,matmul_NN_8192x8192x1024_f16_cast
[ -d "$dir/cast" ] || lds-bench --target cuda-sm90a --cases "$cast" --pipeline "$p" --prepare "$dir/cast" > "$dir/cast.log" 2>&1
large=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NT_4096x4096x4096_bf16,matmul_NN_8192x8192x1024_bf16
[ -d "$dir/wg" ] || lds-bench --target cuda-sm90a --cases "$large,$cast" --prepare "$dir/wg" > "$dir/wg.log" 2>&1
n=nt_f16_weighted_2100x4100x1000
[ -d "$dir/values/$n" ] || lds-run "test/e2e/programs/matmul_large/$n.mlir" --target cuda-sm90a --pipeline "$p" \
  --prepare "$dir/values/$n" > "$dir/values.log" 2>&1
git rev-parse HEAD > "$dir/commit.txt"; git status --short >> "$dir/commit.txt"
