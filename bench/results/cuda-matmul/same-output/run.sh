#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR and ../persistent/prepare.sh, carrying
# .whl, DIR, build/pers and build/pers_stage: the persistent programs' values (128x256 walks
# and the 128x128 walk through the output stage), then bench_replay of def (with cuBLAS), p,
# o3, po3, twice, side by side in summary.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/pers build/pers_stage; do
  timeout 200 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror|passed"
done | tee $OUT/persistent-values.txt
mkdir -p $OUT/runs
for r in def1 p2 o33 po34 def5 p6 o37 po38; do
  torch=--no-torch; [ $r = def1 ] && torch=
  timeout 150 python -m ldsopt.measure.bench_replay "$dir/${r%?}" --variants ldsopt $torch --out $OUT/runs/$r \
    > $OUT/runs/$r.log 2>&1
done
python3 bench/side_by_side.py $OUT/runs def1 p2 o33 po34 def5 p6 o37 po38 | tee $OUT/summary.txt
(cd $OUT && tar czf runs.tgz runs && rm -rf runs)
