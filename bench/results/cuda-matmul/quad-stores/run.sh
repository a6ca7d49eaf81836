#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: the values of the
# direct-store programs (sm_90a and sm_89 PTX), then bench_replay of base (with cuBLAS), quad,
# base, quad, side by side in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in "$dir"/vals/*/*/; do
  r=$(timeout 30 python -m ldsopt.run.replay "$d" --require-ldsopt 2>&1); rc=$?
  echo "$(basename "$(dirname "$d")") $(basename "$d"): exit $rc $(grep -E "^PASS|^FAIL|rror" <<< "$r" | tail -1)"
done | tee $OUT/values.txt
mkdir -p $OUT/runs
for r in base1 quad2 base3 quad4; do
  torch=--no-torch; [ $r = base1 ] && torch=
  timeout 100 python -m ldsopt.measure.bench_replay "$dir/time/${r%?}" --variants ldsopt $torch --out $OUT/runs/$r \
    > $OUT/runs/$r.log 2>&1
done
python3 bench/side_by_side.py $OUT/runs base1 quad2 base3 quad4 | tee $OUT/summary.txt
(cd $OUT && tar czf runs.tgz runs && rm -rf runs)
