#!/bin/bash
# On the GPU machine (carrying .whl, build/ri, build/ln and build/s13b/gpt2_block less its iree,
# iree-stack and dispatches/iree-default folders): the QKV product's kernels (plain, its row
# values loaded, the fold as it is; build/ri/out, made by prepare.sh here) and the LayerNorm
# plans (build/ln, ../s31-pending/), twice each, then the GPT-2 block against its twin.
set -u
source bench/device_rounds.sh; device_setup
for r in 1 2; do
  timeout 100 python3 bench/kernel_times.py "build/ri/out/*.vmfb" 2>&1 | tee -a $OUT/qkv_kernels.txt
  timeout 100 python3 bench/kernel_times.py "build/ln/*.vmfb" 2>&1 | tee -a $OUT/ln_kernels.txt
done
bash bench/results/cuda-models/s13-blocks/run.sh gpt2_block
