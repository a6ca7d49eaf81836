#!/bin/bash
# On the H200 (one device call), after prepare.sh: bench_replay of s4 (with IREE's default and
# cuBLAS), then s6, s8, s12, s4 again; summary.txt has the times side by side.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
timeout 200 python -m ldsopt.measure.bench_replay build/s/s4 --out $OUT/s4 > $OUT/s4.log 2>&1
for r in s6 s8 s12 s4b; do timeout 120 python -m ldsopt.measure.bench_replay build/s/${r%b} --variants ldsopt --no-torch --out $OUT/$r > $OUT/$r.log 2>&1; done
python3 bench/side_by_side.py $OUT s4 s6 s8 s12 s4b | tee $OUT/summary.txt
