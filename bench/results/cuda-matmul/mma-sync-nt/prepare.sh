#!/bin/bash
# Here (no GPU), from the repository root: issue 36's five large matmul cases for cuda-sm90a
# with mma.sync (`wgmma=false`), one lds-bench folder a variant, into DIR/NAME.
# Usage: prepare.sh DIR NAME:DTL_OPTIONS[:MATMUL_OPTIONS]... (as the passes spell them; the
# default pipeline's ldsopt-dtl-layout options are "grids=auto k-bytes=128 stages=3")
set -euo pipefail
dir=${1:?DIR}; shift; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
large=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NT_4096x4096x4096_bf16,matmul_NN_8192x8192x1024_bf16
base=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE)")
for v in "$@"; do
  IFS=: read -r name dtl mm <<< "$v"
  p=${base/ldsopt-dtl-layout\{grids=auto k-bytes=128 stages=3\}/ldsopt-dtl-layout\{$dtl wgmma=false\}}
  p=${p/ldsopt-matmul-lds,/ldsopt-matmul-lds\{$mm wgmma=false\},}
  lds-bench --target cuda-sm90a --cases "$large" --pipeline "$p" --prepare "$dir/$name" > "$dir/$name.log" 2>&1
  echo "$name: $(grep -c 'lowered by ldsopt' "$dir/$name.log") of 5 lowered; $p"
done
git rev-parse HEAD > "$dir/commit.txt"; git status --short >> "$dir/commit.txt"
