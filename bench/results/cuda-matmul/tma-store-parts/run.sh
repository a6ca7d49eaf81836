#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: the walking
# kernels against numpy, the persistent programs against llvm-cpu, then bench_replay of the
# variants in two rounds, side by side in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
check=bench/results/cuda-matmul/tma-store/check.py
for spec in "plain_kn_2056x2304x520 plain 2056 2304 520 kn" "plain_nk_2100x4096x264 plain 2100 4096 264 nk" \
            "bias_residual_kn_2100x2048x200 bias_residual 2100 2048 200 kn"; do
  set -- $spec
  for v in "" _double; do
    echo "$1$v: $(timeout 60 python3 $check "$dir/walk/$1$v.vmfb" "${@:2}" 2>&1 | tail -1)"
  done
done | tee "$OUT/walk-values.txt"
replay_values "$dir"/vals/*/*/
replay_rounds "$dir/time" base1 p41 p21 d81 d41 base2 p42 p22 d82 d42
