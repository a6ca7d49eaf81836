#!/bin/bash
# On the GPU machine, from the repository's root (carry .whl and DIR): values of DIR/values,
# then base and new alternated twice (bench_replay, cuBLAS/SDPA through torch beside the first),
# then each BERT-shaped kernel's own time under Nsight Compute.
set -u
DIR=$1
. bench/device_rounds.sh; device_setup >/dev/null
replay_values "$DIR"/values/*/ | cut -c1-160
replay_rounds "$DIR" base1 new1 base2 new2
timeout 200 python3 bench/kernel_times.py "$DIR"/*/attention_*1x12x512*/ldsopt/*.vmfb --out $OUT/kernel_times.json \
  > $OUT/kernel_times.txt 2>&1
cat $OUT/kernel_times.txt
