#!/bin/bash
# On the H200 (one device call), after prepare.sh: the values of build/t/v, then bench_replay of
# t4 (with IREE's default and cuBLAS), c4, t6, t8, c8, t4 again; summary.txt side by side.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
timeout 200 python -m ldsopt.run.replay build/t/v --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror|passed" | tee $OUT/values.txt
timeout 200 python -m ldsopt.measure.bench_replay build/t/t4 --out $OUT/t4 > $OUT/t4.log 2>&1
for r in c4 t6 t8 c8 t4b; do timeout 100 python -m ldsopt.measure.bench_replay build/t/${r%b} --variants ldsopt --no-torch --out $OUT/$r > $OUT/$r.log 2>&1; done
python3 bench/side_by_side.py $OUT t4 c4 t6 t8 c8 t4b | tee $OUT/summary.txt
for r in t4 c4 t6 t8 c8 t4b; do rm -f $OUT/$r/results.md $OUT/$r/results.png; done
