#!/bin/bash
# On the H200 (carrying .whl, build/ln and build/s13b/gpt2_block without its iree, iree-stack
# and dispatches/iree-default folders, to fit 64 MiB): the LayerNorm kernels' times under each
# plan (twice), then the GPT-2 block against its twin.
set -u
source bench/device_rounds.sh; device_setup
for r in 1 2; do timeout 100 python3 bench/kernel_times.py "build/ln/*.vmfb" 2>&1 | tee -a $OUT/ln_kernels.txt; done
bash bench/results/cuda-models/s13-blocks/run.sh gpt2_block
