#!/bin/bash
# On the GPU (one device call), after prepare.sh, carrying .whl, build/pp, build/pers and
# build/pers_stage: the
# values, then bench_replay of base (with IREE's default and cuBLAS), new, base, new, interleaved;
# summary.txt has the times side by side.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/pers build/pers_stage; do
  timeout 200 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror|passed"
done | tee $OUT/values.txt
timeout 150 python -m ldsopt.measure.bench_replay build/pp/base --out $OUT/base1 > $OUT/base1.log 2>&1
for r in new2 base3 new4; do v=${r%?}; timeout 100 python -m ldsopt.measure.bench_replay build/pp/$v --variants ldsopt --no-torch --out $OUT/$r > $OUT/$r.log 2>&1; done
python3 bench/side_by_side.py $OUT base1 new2 base3 new4 | tee $OUT/summary.txt
