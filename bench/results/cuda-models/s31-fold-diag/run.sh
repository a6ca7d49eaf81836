#!/bin/bash
# There (carrying .whl, build/dg, build/rsv and build/fence as ../fence-d844df1/ leaves it):
# the dispatch kernels' times (bench/kernel_times.py), the row-sum programs' values
# (`lds-run test/e2e/programs/matmul_row_sums/*.mlir test/e2e/programs/fold_norm/*.mlir
# --target cuda-sm90a --prepare build/rsv`), and the GPT-2 block against a folded variant
# (call 3: gpt2_fold_lanes, call 4: gpt2_fold_under, each `lds-bench ... --program-pipeline
# <default + ldsopt-fold-norm>` from the patched tree).
set -u
source bench/device_rounds.sh; device_setup
timeout 200 python3 bench/kernel_times.py "build/dg/out/*.vmfb" 2>&1 | tee $OUT/dg_kernels.txt
replay_values build/rsv/*
BUILD=build/fence bash bench/results/cuda-models/fence-d844df1/run.sh gpt2_attn gpt2_fold_under
(cd $OUT && tar czf runs.tgz gpt2_* && rm -rf gpt2_*)
