#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: the values of the
# direct-store programs (sm_90a and sm_89 PTX), then bench_replay of base (with cuBLAS), quad,
# base, quad, side by side in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
replay_values "$dir"/vals/*/*/
replay_rounds "$dir/time" base1 quad2 base3 quad4
