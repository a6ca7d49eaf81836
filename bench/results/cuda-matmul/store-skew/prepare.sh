#!/bin/bash
# Here (no GPU), from the repository root: lds-bench --prepare of the two large f32-out
# products with skew.patch applied to a worktree at fdd1724 (never landed): the odd workgroups
# of a walking wgmma kernel spin on %globaltimer for LDSOPT_WALK_SKEW_NS before their first
# tile, so that half the SMs store their tiles out of step with the other half.
# DIR/time/kN: a skew of N us (k0: none, the default kernel). Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir/time"
export PATH=$PWD/.venv/bin:$PATH
. bench/patched_tree.sh
patched_tree fdd1724 bench/results/cuda-matmul/store-skew/skew.patch
C=matmul_NN_8192x8192x1024_bf16,matmul_NN_4096x4096x4096_f16
for ns in 0 4000 8000 16000 30000; do
  LDSOPT_WALK_SKEW_NS=$ns PYTHONPATH="$tree" lds-bench --target cuda-sm90a --cases $C \
    --prepare "$dir/time/k$((ns / 1000))" > "$dir/time-k$((ns / 1000)).log" 2>&1
done
du -sh "$dir"
