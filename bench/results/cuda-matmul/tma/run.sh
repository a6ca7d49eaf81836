#!/bin/bash
# On the H200 (one device call), after prepare.sh: the values, then bench_replay of new (with
# IREE's default and cuBLAS), old, new, old, interleaved; summary.txt has the times side by side.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/d4/vd build/d4/vf; do timeout 200 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror|passed"; done | tee $OUT/values.txt
timeout 200 python -m ldsopt.measure.bench_replay build/d4/new --out $OUT/new1 > $OUT/new1.log 2>&1
for r in old2 new3 old4; do v=${r%?}; timeout 150 python -m ldsopt.measure.bench_replay build/d4/$v --variants ldsopt --no-torch --out $OUT/$r > $OUT/$r.log 2>&1; done
python3 bench/side_by_side.py $OUT new1 old2 new3 old4 | tee $OUT/summary.txt
