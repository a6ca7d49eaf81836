#!/bin/bash
# Here (no GPU), from the repository root: `wgmma-accumulators` (accumulators.patch, never
# landed, applied to a worktree at a9b7236) against the default. DIR/vals/A/P: lds-run folders of the matmul e2e programs of 16-bit types (tails,
# batch, accumulating inits, epilogues, a K split over a cluster, a multicast, a persistent
# walk) for cuda-sm90a with A accumulators; DIR/time/aA: lds-bench --prepare of BERT's and
# GPT-2's products (K x N weights, N x K for two) with A accumulators; DIR/walk: a persistent
# walk with 2. Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
. bench/patched_tree.sh
patched_tree a9b7236 bench/results/cuda-matmul/wgmma-accumulators/accumulators.patch
export PYTHONPATH="$tree"
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
P=test/e2e/programs
programs="$P/matmul/nn_f16_96x160x64.mlir $P/matmul/batch_nt_f16_2x64x80x48_acc.mlir $P/matmul/nt_bf16_33x17x70_acc.mlir
$P/matmul/tn_f16_64x96x48.mlir $P/matmul/tt_bf16_96x160x64.mlir $P/matmul/nt_f16_100x5x40.mlir
$P/matmul_cluster/nn_f16_512x768x3072_bias_residual.mlir $P/matmul_cluster/batch_nt_bf16_2x130x260x512.mlir
$P/matmul_multicast/nt_f16_250x384x200.mlir"
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with wgmma-accumulators=2)" --prepare "$dir/vals/a2" \
  $programs > "$dir/vals-a2.log" 2>&1
# 4 accumulators: the same but the largest program (the carried files' limit)
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with wgmma-accumulators=4)" --prepare "$dir/vals/a4" \
  $(grep -v -e 512x768x3072 <<< "$programs" | tr '\n' ' ') > "$dir/vals-a4.log" 2>&1
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with wgmma-accumulators=2 multicast=2x2 tiles=64x64x8x4 cluster-k=1)" \
  --prepare "$dir/vals/a2-multicast/nt_f16_250x384x200" $P/matmul_multicast/nt_f16_250x384x200.mlir \
  > "$dir/vals-a2-multicast.log" 2>&1
# A walk (2 accumulators, 128x128 tiles, f32 out): DIR/walk, checked against numpy there (../tma-store/check.py)
mkdir -p "$dir/walk"
python -c "from ldsopt.measure import cases; print(cases._matmul(2056, 2304, 520, 'f16', 'mk', 'kn').mlir)" > "$dir/walk/plain_kn_2056x2304x520.mlir"
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with tiles=128x128x8x8 workgroups-per-cu=1 wgmma-accumulators=2)" \
  --prepare "$dir/prep" "$dir/walk/plain_kn_2056x2304x520.mlir" > "$dir/walk.log" 2>&1
cp "$dir/prep/ldsopt.vmfb" "$dir/walk/plain_kn_2056x2304x520.vmfb"; rm -rf "$dir/prep"
C=matmul_NN_512x2304x768_f16_bias,matmul_NN_512x768x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x3072_f16_bias_residual,matmul_NT_512x2304x768_f16_bias,matmul_NT_512x768x3072_f16_bias_residual,matmul_NN_64x64x8192_f16_cast
for a in 1 2 4; do
  lds-bench --target cuda-sm90a --cases $C --pipeline "$(with wgmma-accumulators=$a)" --prepare "$dir/time/a$a" \
    > "$dir/time-a$a.log" 2>&1
done
du -sh "$dir"
