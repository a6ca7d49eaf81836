#!/bin/bash
# On the GPU, after prepare.sh DIR, carrying .whl and DIR: bench_replay of each skew in two
# rounds (cuBLAS beside the first), side by side in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
replay_rounds "$dir/time" k01 k41 k81 k161 k301 k02 k42 k82 k162 k302
