#!/bin/bash
# Here (no GPU), from the repository root: DIR/time/VARIANT (lds-bench --prepare of GPT-2's four
# products and the large products under each variant below) and DIR/vals/NAME (matmul programs
# prepared by lds-run with two wgmma groups in flight: tails, a batch, a K split, one K step,
# TMA and cp.async, for values). Usage: prepare.sh DIR
# The option `wgmma-groups` is add3164's, reverted since (the README says why; groups.patch is
# its diff): the tools import ldsopt/ and passes/ from a worktree at add3164.
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
copy=$(mktemp -d); trap 'git worktree remove --force "$copy"' EXIT
git worktree add -q --detach "$copy" add3164
ln -s ../passes "$copy/ldsopt/passes"  # where `ldsopt.passes` is looked for first
export PYTHONPATH="$copy"
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
gpt2=matmul_NN_512x768x3072_f16_bias_residual,matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x768_f16_bias
large=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NN_8192x8192x1024_bf16
# name | cases | ldsopt-matmul-lds options ("-": the default pipeline)
while IFS='|' read -r name cases opts; do
  if [ "$opts" = - ]; then pipeline=(); else pipeline=(--pipeline "$(with $opts)"); fi
  lds-bench --target cuda-sm90a --cases "$cases" "${pipeline[@]}" --prepare "$dir/time/$name" > "$dir/time-$name.log" 2>&1
done <<VARIANTS
def|$gpt2,$large|-
g2|$gpt2,$large|wgmma-groups=2
s6|$gpt2,$large|stages=6
g2s6|$gpt2,$large|wgmma-groups=2 stages=6
p|$large|persistent=true
pg2|$large|persistent=true wgmma-groups=2
VARIANTS
# name | options | programs (the carry limit takes about 30 MB of them a call)
C=test/e2e/programs/matmul_cluster M=test/e2e/programs/matmul_multicast
while IFS='|' read -r name opts progs; do
  lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with $opts)" --prepare "$dir/vals/$name" \
    $progs > "$dir/vals-$name.log" 2>&1
done <<VALUES
g2|wgmma-groups=2|$C/nn_f16_200x296x1000.mlir $C/nn_f16_256x512x512_bias_residual.mlir $C/tn_f16_136x264x512.mlir $M/nn_f16_512x768x3072_bias_residual.mlir $M/nn_f16_128x256x64.mlir $M/batch_nn_bf16_2x128x256x136.mlir
g2cp|wgmma-groups=2 tma=false stages=6|$M/tn_f16_256x512x520.mlir $M/nt_f16_250x384x200.mlir
VALUES
du -sh "$dir"
