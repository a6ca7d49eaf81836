#!/bin/bash
# On the GPU (one call), after prepare.sh DIR, carrying .whl and DIR: the walking programs'
# values (DIR/values-sm90a, DIR/values-cuda) into OUT/values-*.txt, then the five large cases
# plain and walking in alternating rounds (bench_replay, ldsopt only, cuBLAS beside the first)
# into OUT/summary.txt and OUT/runs.tgz. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup > /dev/null
for t in sm90a cuda; do
  [ -d "$dir/values-$t" ] || continue
  replay_values "$dir/values-$t"/* > /dev/null; mv "$OUT/values.txt" "$OUT/values-$t.txt"
done
rounds="lg1 walk1 lg2 walk2"  # with the same cases for --target cuda where DIR has them (c89, c89w)
[ -d "$dir/c89" ] && rounds="lg1 walk1 c891 c89w1 lg2 walk2 c892 c89w2"
replay_rounds "$dir" $rounds
cp "$dir/commit.txt" "$OUT/"
