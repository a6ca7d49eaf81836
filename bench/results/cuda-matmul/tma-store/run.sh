#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: the walking
# kernels against numpy (check.py), the persistent programs against llvm-cpu, then bench_replay
# of the variants in two rounds, side by side in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
here=bench/results/cuda-matmul/tma-store
for spec in "plain_kn_2056x2304x520 plain 2056 2304 520 kn" "plain_nk_1000x4096x264 plain 1000 4096 264 nk" \
            "bias_residual_kn_2100x2048x200 bias_residual 2100 2048 200 kn"; do
  set -- $spec
  timeout 60 python3 $here/check.py "$dir/walk/$1.vmfb" "${@:2}" 2>&1 | tail -1
done | tee "$OUT/walk-values.txt"
replay_values "$dir"/vals/*/*/
replay_rounds "$dir/time" base1 t1281 t128s1 t128s51 t64s1 base2 t128s2 t128s52 t64s2
