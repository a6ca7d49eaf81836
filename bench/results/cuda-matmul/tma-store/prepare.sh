#!/bin/bash
# Here (no GPU), from the repository root: what run.sh replays on the GPU for tma_store.py
# (tma-store=true). DIR/walk/NAME.vmfb: walking kernels whose tiles leave by TMA stores,
# checked there against numpy (check.py; their outputs are too large for llvm-cpu's expected
# values in a device call): f32 out on 128x128 tiles with M and K tails, NT f32 out on 64x256,
# f16 out with a bias and a residual. DIR/vals/P: lds-run folders (llvm-cpu's expected values) of the persistent programs
# of test/e2e/programs, whose weighted sums keep the checks small. DIR/time/V: lds-bench
# --prepare of the large f32-out products for each variant V (run.sh names them).
# Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir/src" "$dir/walk"
export PATH=$PWD/.venv/bin:$PATH
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
python bench/results/cuda-matmul/tma-store/sources.py "$dir/src" plain:2056:2304:520:kn plain:1000:4096:264:nk bias_residual:2100:2048:200:kn
walk() {  # NAME OPTIONS
  lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with $2)" --prepare "$dir/prep" "$dir/src/$1.mlir" \
    > "$dir/walk/$1.log" 2>&1
  cp "$dir/prep/ldsopt.vmfb" "$dir/walk/$1.vmfb"
  echo "$1 ($2): $(grep -c 'nvvm.cp.async.bulk.tensor.global.shared.cta' "$dir/prep/ldsopt.mlir" || true) TMA box stores, $(grep -o 'block_id x upper_bound [0-9]*' "$dir/prep/ldsopt.mlir" | head -1)"
  rm -rf "$dir/prep"
}
walk plain_kn_2056x2304x520 "tiles=128x128x8x8 workgroups-per-cu=1 tma-store=true"
walk plain_nk_1000x4096x264 "tiles=64x256x8x16 tma-store=true"
walk bias_residual_kn_2100x2048x200 "tma-store=true"
P=test/e2e/programs
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with tiles=128x128x8x8 workgroups-per-cu=1 tma-store=true)" \
  --prepare "$dir/vals/stage/nn_f16_weighted_2056x2304x520" $P/matmul_persistent_stage/nn_f16_weighted_2056x2304x520.mlir > "$dir/vals-stage.log" 2>&1
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with tma-store=true)" --prepare "$dir/vals/default" $P/matmul_persistent/*.mlir \
  > "$dir/vals-default.log" 2>&1
C=matmul_NN_8192x8192x1024_bf16,matmul_NN_4096x4096x4096_f16
bench() { lds-bench --target cuda-sm90a --cases $C --pipeline "$(with $2)" --prepare "$dir/time/$1" > "$dir/time-$1.log" 2>&1; }
bench base ""
bench t128 "tiles=128x128x8x8 workgroups-per-cu=1"
bench t128s "tiles=128x128x8x8 workgroups-per-cu=1 tma-store=true"
bench t128s5 "tiles=128x128x8x8 workgroups-per-cu=1 stages=5 tma-store=true"
bench t64s "tiles=64x256x8x16 workgroups-per-cu=1 tma-store=true"
du -sh "$dir"
