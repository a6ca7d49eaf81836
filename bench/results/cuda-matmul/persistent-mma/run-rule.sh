#!/bin/bash
# On the GPU (one call), after prepare-rule.sh DIR OLD, carrying .whl and DIR: the walking NT
# program's values, then lg, new, cast and wg in alternating rounds (bench_replay, ldsopt only,
# cuBLAS beside the first) into OUT/summary.txt and OUT/runs.tgz. Usage: OUT=... run-rule.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup > /dev/null
replay_values "$dir"/values/*
replay_rounds "$dir" lg1 new1 cast1 wg1 lg2 new2 cast2 wg2 lg3 new3
cp "$dir/commit.txt" "$OUT/"
