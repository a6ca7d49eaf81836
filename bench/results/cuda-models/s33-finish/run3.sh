#!/bin/bash
# Call 3 (carry .whl, build/s33l/llama_block less its iree, iree-stack and dispatches/iree-default,
# build/s33l/llama_block_prod, build/s33l/variants.txt): the suite's Llama block by the default
# pipeline and with ldsopt-fold-norm{stats=producer} (RMSNorm: sums of squares per chunk),
# against its twin (../fence-d844df1/run.sh), then both 12-layer calls under CUPTI.
set -u
BUILD=build/s33l bash bench/results/cuda-models/fence-d844df1/run.sh llama_block llama_block_prod
for b in llama_block llama_block_prod; do
  timeout 120 python3 bench/program_timeline.py build/s33l/$b/ldsopt-stack --layers 12 > $OUT/$b/timeline.txt 2>&1
done
