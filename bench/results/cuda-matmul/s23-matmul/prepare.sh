#!/bin/bash
# Here (no GPU), from the repository root, at the commit measured: lds-bench --prepare of every
# matmul case of ldsopt/measure/cases.py for cuda-sm90a (wgmma: DIR/sm90a) and of the five large
# ones for cuda (sm_89 PTX, mma.sync: DIR/sm89). Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
all=$(lds-bench --list 2>/dev/null | awk '$1 ~ /matmul/ {print $1}' | paste -sd,)
large=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NT_4096x4096x4096_bf16,matmul_NN_8192x8192x1024_bf16
lds-bench --target cuda-sm90a --cases "$all" --prepare "$dir/sm90a" > "$dir/sm90a.log" 2>&1
lds-bench --target cuda --cases "$large" --prepare "$dir/sm89" > "$dir/sm89.log" 2>&1
git rev-parse HEAD > "$dir/commit.txt"; git status --short >> "$dir/commit.txt"
du -sh "$dir"
