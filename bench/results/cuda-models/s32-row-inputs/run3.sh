#!/bin/bash
# Call 3 (carrying .whl, build/ri/out and build/s32b from prepare_blocks.sh, less
# build/s32b/gpt2_block's iree and iree-stack folders): every kernel of build/ri/out twice, then
# GPT-2's base block, 12 layers a call, as the default program pipeline forms it (gpt2_block)
# and with ldsopt-fold-norm{stats=producer} (gpt2_block_prod), against the PyTorch twin
# (../fence-d844df1/run.sh: values, runtime modes, per-dispatch table, ncu kernel times).
set -u
source bench/device_rounds.sh; device_setup
for r in 1 2; do timeout 150 python3 bench/kernel_times.py "build/ri/out/*.vmfb" 2>&1 | tee -a $OUT/kernels.txt; done
BUILD=build/s32b bash bench/results/cuda-models/fence-d844df1/run.sh gpt2_block gpt2_block_prod
