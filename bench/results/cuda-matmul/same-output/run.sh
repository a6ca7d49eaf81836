#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR and ../persistent/prepare.sh, carrying
# .whl, DIR, build/pers and build/pers_stage: the persistent programs' values (128x256 walks
# and the 128x128 walk through the output stage), then bench_replay of def (with cuBLAS), p,
# o3, po3, twice, side by side in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
for d in build/pers build/pers_stage; do
  timeout 200 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror|passed"
done | tee $OUT/persistent-values.txt
replay_rounds "$dir" def1 p2 o33 po34 def5 p6 o37 po38
