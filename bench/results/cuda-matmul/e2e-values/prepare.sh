#!/bin/bash
# Here (no GPU), from the repository root: the matmul e2e programs of test/e2e/programs that fit
# one device call's carry (about 27 MiB; matmul_large, _cluster, _multicast, _persistent and
# _skinny do not) prepared for cuda-sm90a, a folder per program group. Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
for g in matmul matmul_epilogue matmul_f16_out matmul_i8 matmul_named matmul_persistent_stage matmul_prologue \
         matmul_row_sums; do
  lds-run --target cuda-sm90a --prepare "$dir/$g" test/e2e/programs/$g/*.mlir > "$dir/$g.log" 2>&1
done
git rev-parse HEAD > "$dir/commit.txt"; git status --short >> "$dir/commit.txt"
du -sh "$dir"
