#!/bin/bash
# Here (no GPU), from the repository root: the large f32-out products with their output stored
# by `st.global.cs` (cache streaming: evict first), by cs.patch applied to a worktree of the
# commit named (never landed), beside the same commit's default. Usage: prepare.sh DIR COMMIT
set -euo pipefail
dir=${1:?DIR}; commit=${2:?COMMIT}; rm -rf "$dir"; mkdir -p "$dir"
here=$(dirname "$0")
work=$(mktemp -d); trap 'git worktree remove --force "$work"' EXIT
git worktree add -q --detach "$work" "$commit"
(cd "$work" && git apply "$OLDPWD/$here/cs.patch")
C=matmul_NN_8192x8192x1024_bf16,matmul_NN_4096x4096x4096_f16
export PATH=$PWD/.venv/bin:$PATH
lds-bench --target cuda-sm90a --cases $C --prepare "$dir/base" > "$dir/base.log"
# the worktree's ldsopt in place of the editable install's (bench/results/.../run_from.py)
LDSOPT_NT_STORES=cs python "$here/run_from.py" "$work" --target cuda-sm90a --cases $C --prepare "$dir/cs" > "$dir/cs.log"
