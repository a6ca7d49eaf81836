#!/bin/bash
# On the H200 (one call): how much of 8192x8192x1024 is its f32 output's stores. build/st/c was
# prepared here at 9ef6a94 with two cases added to ldsopt/measure/cases.py for the call (not
# kept): `_matmul(8192, 8192, 1024, "f16", "mk", "kn")` (f32 out) and
# `_matmul_epilogue(0, 8192, 8192, 1024, "kn", "cast")` (f16 out), beside the bf16 case:
# lds-bench --target cuda-sm90a --cases matmul_NN_8192x8192x1024_bf16,matmul_NN_8192x8192x1024_f16,matmul_NN_8192x8192x1024_f16_cast --prepare build/st/c
# Also the values of the dynamic transposes (build/st/dyn: lds-run --keep-dynamic --prepare).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/st/dyn/*; do timeout 100 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror"; done | tee $OUT/values.txt
for r in 1 2; do timeout 150 python -m ldsopt.measure.bench_replay build/st/c --variants ldsopt --no-torch --repetitions 5 --out $OUT/r$r 2>&1 | grep -E "^matmul|^\| matmul" | tee $OUT/r$r.log; rm -f $OUT/r$r/results.png; done
