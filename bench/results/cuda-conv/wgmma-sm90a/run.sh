#!/bin/bash
# On the H200, after prepare.sh (two device calls: build/d7, then build/d8).
python -m ldsopt.run.replay build/d7/v --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror|passed" > values.txt
python -m ldsopt.measure.bench_replay build/d7/c90 --out c90-1 > c90-1.log 2>&1
for r in c89-2 c90-3 c89-4; do python -m ldsopt.measure.bench_replay build/d7/${r%-?} --variants ldsopt --no-torch --out $r > $r.log 2>&1; done
for v in def wpc2 wpc3 t128x256 t128x128 def wpc2 wpc3; do echo "== $v"
  python -m ldsopt.measure.bench_replay build/d8/$v --variants ldsopt --no-torch --repetitions 3 --min-time 0.1s --out $v \
    | grep "^| conv" | awk -F'|' '{print $2, $4}'; done > sweep_1x1.txt
