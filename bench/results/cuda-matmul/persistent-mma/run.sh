#!/bin/bash
# On the GPU (one call), after prepare.sh DIR, carrying .whl and DIR: the walking programs'
# values (DIR/values-sm90a, DIR/values-cuda) into OUT/values-*.txt, then the five large cases
# plain and walking (and the other variants) in alternating rounds (bench_replay, ldsopt only, cuBLAS beside the first)
# into OUT/summary.txt and OUT/runs.tgz. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup > /dev/null
for t in sm90a cuda; do
  [ -d "$dir/values-$t" ] || continue
  replay_values "$dir/values-$t"/* > /dev/null; mv "$OUT/values.txt" "$OUT/values-$t.txt"
done
rounds="lg1 walk1 t512w1 s4w1 c891 c89w1 lg2 walk2 t512w2 s4w2 t5121"  # what call 1 ran
replay_rounds "$dir" $rounds
cp "$dir/commit.txt" "$OUT/"
