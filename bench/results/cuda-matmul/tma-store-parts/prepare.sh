#!/bin/bash
# Here (no GPU), from the repository root: what run.sh replays on the GPU for the TMA stores in
# parts (tma_store.py: a stage of 1/P of the tile's column blocks where the whole tile does not
# fit beside the operands' LDS tiles). DIR/walk/NAME.vmfb: walking kernels checked there against
# numpy (../tma-store/check.py): f32 out on the default 128x256 tiles with M and K tails (4
# parts at 4 LDS tiles), NT f32 out at 3 LDS tiles (2 parts), f16 out with a bias and a residual
# (2 parts); each again with two part buffers (`_double`). DIR/vals/P: lds-run folders (llvm-cpu's expected values) of the persistent programs
# of test/e2e/programs with tma-store=double. DIR/time/V: lds-bench --prepare of the large
# products for each variant V (run.sh names them).
# Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir/src" "$dir/walk"
export PATH=$PWD/.venv/bin:$PATH
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
python bench/results/cuda-matmul/tma-store/sources.py "$dir/src" plain:2056:2304:520:kn plain:2100:4096:264:nk bias_residual:2100:2048:200:kn
walk() {  # NAME OPTIONS [SUFFIX]
  lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with $2)" --prepare "$dir/prep" "$dir/src/$1.mlir" \
    > "$dir/walk/$1${3:+_$3}.log" 2>&1
  cp "$dir/prep/ldsopt.vmfb" "$dir/walk/$1${3:+_$3}.vmfb"
  echo "$1 ($2): stage $(grep -o 'output_stage = {[^}]*}} : memref<[0-9a-z]*' "$dir/prep/ldsopt.mlir" | grep -o 'memref.*' | head -1), $(grep -c 'nvvm.cp.async.bulk.tensor.global.shared.cta' "$dir/prep/ldsopt.mlir" || true) TMA box stores, $(grep -o 'block_id x upper_bound [0-9]*' "$dir/prep/ldsopt.mlir" | head -1)"
  rm -rf "$dir/prep"
}
walk plain_kn_2056x2304x520 "tiles=128x256x8x16 tma-store=true"
walk plain_nk_2100x4096x264 "tiles=128x256x8x16 stages=3 tma-store=true"
walk bias_residual_kn_2100x2048x200 "tiles=128x256x8x16 tma-store=true"
walk plain_kn_2056x2304x520 "tiles=128x256x8x16 tma-store=double" double
walk plain_nk_2100x4096x264 "tiles=128x256x8x16 stages=3 tma-store=double" double
walk bias_residual_kn_2100x2048x200 "tiles=128x256x8x16 tma-store=double" double
P=test/e2e/programs
# (one set: two would pass the 64 MiB a device call carries)
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with tiles=128x256x8x16 tma-store=double)" --prepare "$dir/vals/double" \
  $P/matmul_persistent/*.mlir > "$dir/vals-double.log" 2>&1
C=matmul_NN_8192x8192x1024_bf16,matmul_NN_4096x4096x4096_f16,matmul_NN_8192x8192x1024_f16_cast
bench() { lds-bench --target cuda-sm90a --cases $C --pipeline "$(with $2)" --prepare "$dir/time/$1" > "$dir/time-$1.log" 2>&1; }
bench base ""
bench p4 "tma-store=true"
bench p2 "stages=3 tma-store=true"
bench d8 "tma-store=double"
bench d4 "stages=3 tma-store=double"
du -sh "$dir"
