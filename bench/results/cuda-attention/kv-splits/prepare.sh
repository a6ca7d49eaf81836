#!/bin/bash
# Here, from the repository's root: prepare.sh DIR BASE. DIR/base: lds-bench's six attention
# cases for cuda-sm90a compiled by a worktree of commit BASE (run_from.py); DIR/new: the same by
# this tree; DIR/values: every attention e2e program but the decode ones (the split-KV FMA
# kernel), BERT's, and the dynamic rows_keys program at three lengths, for cuda-sm90a.
set -eu
DIR=$1 BASE=$2
CASES=attention_1x12x512x64_f16,attention_causal_1x12x512x64_f16,attention_4x16x1024x64_f16,attention_causal_4x16x1024x64_f16,attention_1x32x2048x128_f16,attention_causal_1x32x2048x128_f16
WT=$(mktemp -d)
trap 'git worktree remove --force "$WT"' EXIT
git worktree add -f "$WT" "$BASE" -q
python bench/results/cuda-matmul/streaming-stores/run_from.py "$WT" --target cuda-sm90a --prepare "$DIR/base" --cases $CASES
lds-bench --target cuda-sm90a --prepare "$DIR/new" --cases $CASES
for f in test/e2e/programs/attention/*.mlir test/e2e/programs/attention_large/bert_f16_1x12x512x512x64.mlir; do
  n=$(basename "$f" .mlir)
  case $n in decode*) continue;; esac
  lds-run "$f" --target cuda-sm90a --require-ldsopt --prepare "$DIR/values/$n" > /dev/null
done
for mk in "300 390" "5 37" "64 131"; do
  set -- $mk
  lds-run test/e2e/programs/attention_dynamic/rows_keys_f16_2x3xMxK2x64.mlir --keep-dynamic --target cuda-sm90a \
    --input-shape 0=2x3x$1x64 --input-shape 1=2x3x$2x64 --input-shape 2=2x3x$2x64 --require-ldsopt \
    --prepare "$DIR/values/rk_$1x$2" > /dev/null
done
