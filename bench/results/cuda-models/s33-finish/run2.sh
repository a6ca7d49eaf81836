#!/bin/bash
# Call 2 (carry .whl and build/s33b as for run.sh): GPT-2's block by the default pipeline and
# with ldsopt-fold-norm{stats=producer} at ff74a4c (row values after the first copies, q lanes
# a row loading consecutive chunks: gpt2_block_prod2), each against its twin
# (../fence-d844df1/run.sh: values, the twin in one CUDA graph, the kernels' own times); then
# the folded block's 12-layer call under CUPTI (bench/program_timeline.py).
set -u
BUILD=build/s33b bash bench/results/cuda-models/fence-d844df1/run.sh gpt2_block gpt2_block_prod2
# Where each block's 12-layer call spends its time, kernel by kernel (CUPTI).
for b in gpt2_block_prod2; do
  timeout 120 python3 bench/program_timeline.py build/s33b/$b/ldsopt-stack --layers 12 > $OUT/$b/timeline.txt 2>&1
done
