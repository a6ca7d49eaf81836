#!/bin/bash
# Call 2 (carrying .whl and build/ri/out, build/rv32, build/cs32 and build/cs32c, from
# prepare.sh): the values of the row-value and chunk-statistics programs for cuda-sm90a (wgmma)
# and cuda (sm_89 PTX: mma.sync, where carried), then every kernel of
# build/ri/out twice (QKV's consumers, O and FFN down with and without chunk statistics).
set -u
source bench/device_rounds.sh; device_setup
replay_values $(ls -d build/rv32/* build/rv32c/* build/cs32/* build/cs32c/* 2>/dev/null)
[ -d build/ri/out ] || exit 0
for r in 1 2; do timeout 150 python3 bench/kernel_times.py "build/ri/out/*.vmfb" 2>&1 | tee -a $OUT/kernels.txt; done
