#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: the values, then
# bench_replay of each accumulator count in two rounds (cuBLAS beside the first), side by side
# in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
replay_values "$dir"/vals/*/*/
timeout 60 python3 bench/results/cuda-matmul/tma-store/check.py "$dir/walk/plain_kn_2056x2304x520.vmfb" plain 2056 2304 520 kn \
  2>&1 | tail -1 | tee "$OUT/walk-values.txt"
replay_rounds "$dir/time" a11 a21 a41 a12 a22 a42
