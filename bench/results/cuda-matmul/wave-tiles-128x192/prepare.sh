#!/bin/bash
set -eu
export PATH=$PWD/.venv/bin:$PATH
D=build/c29/e
CASES=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NN_8192x8192x1024_bf16,matmul_NT_4096x4096x4096_bf16,matmul_NN_4096x4096x4096_f16_cast,matmul_NN_8192x8192x1024_f16_cast,matmul_NN_512x6144x768_f16_cast,matmul_NN_2048x2304x768_f16_cast,matmul_NN_4096x768x768_f16_cast
rm -rf $D; lds-bench --target cuda-sm90a --prepare $D/base --cases $CASES | tail -1
for v in n1 n2; do
  WT=$(mktemp -d); git worktree add -f "$WT" HEAD -q
  if [ $v = n1 ]; then
    sed -i 's/^WGMMA_TILINGS = (Tiling(128, 256, 8, 16), Tiling(128, 128, 8, 8), /WGMMA_TILINGS = (Tiling(128, 256, 8, 16), Tiling(128, 128, 8, 8), Tiling(128, 192, 8, 12), /' $WT/ldsopt/matmul/schemes.py
  else
    sed -i 's/^WGMMA_TILINGS = (Tiling(128, 256, 8, 16), Tiling(128, 128, 8, 8), /WGMMA_TILINGS = (Tiling(256, 128, 8, 8), Tiling(128, 256, 8, 16), Tiling(128, 128, 8, 8), Tiling(128, 192, 8, 12), /' $WT/ldsopt/matmul/schemes.py
  fi
  grep -n "^WGMMA_TILINGS" $WT/ldsopt/matmul/schemes.py
  python bench/results/cuda-matmul/streaming-stores/run_from.py "$WT" --target cuda-sm90a --prepare "$D/$v" --cases $CASES | tail -1
  git worktree remove --force "$WT"
done
du -sh $D/*
