#!/bin/bash
# On the H200 (one device call): values of the cp.async kernels (sm_90a wgmma and sm_89
# dtl-layout), then new (tiles past the last K step not read) against old (5719f36) interleaved.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
for v in v90 v89; do timeout 150 python -m ldsopt.run.replay build/d9/$v --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror|passed"; done > $OUT/values.txt
grep -E "passed|FAIL" $OUT/values.txt
for r in new old new89 old89; do echo "== $r"; timeout 100 python -m ldsopt.measure.bench_replay build/d9/$r --variants ldsopt --no-torch --repetitions 3 --min-time 0.1s --out $OUT/$r-$RANDOM 2>&1 | grep -E "^\| (conv|matmul|batch)" | awk -F'|' '{print $2, $4}'; done | tee $OUT/times.txt
