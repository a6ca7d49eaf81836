#!/bin/bash
# Call 2 (carry .whl and build/s33b as for run.sh): GPT-2's block by the default pipeline, with
# ldsopt-fold-norm{stats=producer} at 328bf42 (row values after the first copies:
# gpt2_block_prod) and with q lanes a row loading consecutive chunks (gpt2_block_prod2,
# ff74a4c), each against its
# twin (../fence-d844df1/run.sh: values, the twin in one CUDA graph, the kernels' own times);
# then both blocks' 12-layer calls under CUPTI (bench/program_timeline.py).
set -u
BUILD=build/s33b bash bench/results/cuda-models/fence-d844df1/run.sh gpt2_block gpt2_block_prod gpt2_block_prod2
# Where each block's 12-layer call spends its time, kernel by kernel (CUPTI).
for b in gpt2_block gpt2_block_prod2; do
  timeout 120 python3 bench/program_timeline.py build/s33b/$b/ldsopt-stack --layers 12 > $OUT/$b/timeline.txt 2>&1
done
