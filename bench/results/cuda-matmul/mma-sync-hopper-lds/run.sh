#!/bin/bash
# On the GPU (one call), after prepare.sh DIR ..., carrying .whl and DIR (and VALUES, an
# lds-run --prepare folder of programs, if given): each variant NAME of DIR replayed by
# bench_replay (ldsopt only), the programs' values, into OUT/summary.txt and OUT/runs.tgz.
# Usage: OUT=... run.sh DIR "NAME..." [VALUES]
set -u
dir=${1:?DIR}; names=${2:?NAMES}; values=${3:-}
. bench/device_rounds.sh
device_setup > /dev/null
mkdir -p /tmp/r
[ -n "$values" ] && { replay_values "$values"/* > /dev/null; cp "$OUT/values.txt" /tmp/r/; }
for v in $names; do
  timeout 100 python -m ldsopt.measure.bench_replay "$dir/$v" --variants ldsopt --no-torch --out /tmp/r/$v > /tmp/r/$v.log 2>&1
  echo "== $v"; grep -E '^\| matmul' /tmp/r/$v.log | awk -F'|' '{print $2, $4}'
done | tee "$OUT/summary.txt"
cp "$dir/commit.txt" /tmp/r/
tar czf "$OUT/runs.tgz" -C /tmp r
