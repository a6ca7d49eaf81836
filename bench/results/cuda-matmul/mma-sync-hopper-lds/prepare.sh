#!/bin/bash
# Here (no GPU), from the repository root: the five large matmul cases of issue 36 for
# cuda-sm90a with mma.sync (`wgmma=false`), one lds-bench folder a variant of ldsopt-dtl-layout's
# options, into DIR/NAME. Usage: prepare.sh DIR NAME:OPTIONS[:MATMUL_OPTIONS]... (OPTIONS as the pass
# spells them, e.g. "b128s3:grids=all tiles=128x256x8x16 workgroups-per-cu=1 k-bytes=128 stages=3";
# "auto:grids=auto" is the default pipeline's rule; MATMUL_OPTIONS: ldsopt-matmul-lds's, e.g.
# "carry-fragments=false")
set -euo pipefail
dir=${1:?DIR}; shift; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
large=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NT_4096x4096x4096_bf16,matmul_NN_8192x8192x1024_bf16
base=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE)")
for v in "$@"; do
  IFS=: read -r name opts mm <<< "$v"
  p=${base/ldsopt-dtl-layout\{grids=auto k-bytes=128 stages=3\}/ldsopt-dtl-layout\{$opts wgmma=false\}}
  p=${p/ldsopt-matmul-lds,/ldsopt-matmul-lds\{$mm wgmma=false\},}
  lds-bench --target cuda-sm90a --cases "$large" --pipeline "$p" --prepare "$dir/$name" > "$dir/$name.log" 2>&1
  echo "$name: $(grep -c 'lowered by ldsopt' "$dir/$name.log") of 5 lowered; $p"
done
git rev-parse HEAD > "$dir/commit.txt"; git status --short >> "$dir/commit.txt"
