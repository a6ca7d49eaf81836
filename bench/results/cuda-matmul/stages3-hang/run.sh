#!/bin/bash
# On the GPU, after prepare.sh DIR, carrying .whl and DIR: each variant's values (30 s at most:
# a hang shows as exit 124), then the f16-out cases through the output stage at 3 LDS tiles
# against 4 without it (prepare.sh says by what copies). Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in "$dir"/vals/*/; do
  r=$(timeout 30 python -m ldsopt.run.replay "$d" --require-ldsopt 2>&1); rc=$?
  echo "$(basename "$d"): exit $rc $(grep -E "^PASS|^FAIL|rror" <<< "$r" | tail -1)"
done | tee $OUT/values.txt
mkdir -p $OUT/runs
for r in s41 s32 s43 s34; do
  timeout 100 python -m ldsopt.measure.bench_replay "$dir/time/${r%?}" --variants ldsopt --no-torch --out $OUT/runs/$r \
    > $OUT/runs/$r.log 2>&1
done
python3 bench/side_by_side.py $OUT/runs s41 s32 s43 s34 | tee $OUT/summary.txt
(cd $OUT && tar czf runs.tgz runs && rm -rf runs)
