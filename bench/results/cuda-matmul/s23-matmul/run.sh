#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: bench_replay of the
# wgmma kernels against IREE's default and cuBLAS (torch), and of the mma.sync ones (ldsopt
# alone), into OUT/sm90a and OUT/sm89. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
cp "$dir/commit.txt" "$OUT/"
timeout 400 python -m ldsopt.measure.bench_replay "$dir/sm90a" --out "$OUT/sm90a" > "$OUT/sm90a.log" 2>&1
timeout 120 python -m ldsopt.measure.bench_replay "$dir/sm89" --variants ldsopt --no-torch --out "$OUT/sm89" \
  > "$OUT/sm89.log" 2>&1
tail -45 "$OUT/sm90a.log"; tail -8 "$OUT/sm89.log"
