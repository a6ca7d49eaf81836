#!/bin/bash
# On the GPU machine (carry .whl, build/s33/out, build/s33b less gpt2_block's iree, iree-stack and
# dispatches/iree-default): the FFN up kernels twice (bench/kernel_times.py: ncu kernel time),
# then GPT-2's block both ways against its twin (../fence-d844df1/run.sh: values, runtime modes,
# the twin in one CUDA graph, the kernels' own times).
set -u
source bench/device_rounds.sh; device_setup
for r in 1 2; do timeout 120 python3 bench/kernel_times.py "build/s33/out/*.vmfb" 2>&1 | tee -a $OUT/kernels.txt; done
BUILD=build/s33b bash bench/results/cuda-models/fence-d844df1/run.sh gpt2_block gpt2_block_prod
