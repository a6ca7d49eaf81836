#!/bin/bash
# There (carrying .whl and build/fence as ../fence-d844df1/ leaves it): period.py on the GPT-2
# block's 12-layer module in three runtime modes (CUPTI through torch.profiler).
set -u
source bench/device_rounds.sh; device_setup
for v in gpt2_attn; do
  for f in $(cat bench/results/cuda-models/fence-d844df1/shared-files.txt); do cp -r build/fence/gpt2_block/$f build/fence/$v/$f 2>/dev/null; done
done
nproc; lscpu | grep -E "Model name|MHz" | head -3
for m in "no tracing" default graphs; do
  timeout 120 python3 "$(dirname "$0")/period.py" build/fence/gpt2_attn/ldsopt-stack "$m" 12 2>&1 | grep -v Warn
done | tee $OUT/timeline.txt
