#!/bin/bash
# On the H200, from the repository root, after prepare.sh DIR (carried with the runtime
# wheel): the value programs of every cluster shape, then GPT-2's products under each variant
# (ldsopt only; the default with IREE's default and PyTorch), twice. Usage: run.sh DIR OUT
set -u
dir=${1:?DIR}; out=${2:?OUT}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
for d in "$dir"/vals/*/*; do
  echo "$(basename "$(dirname "$d")") $(basename "$d"): $(timeout 60 python -m ldsopt.run.replay "$d" --require-ldsopt 2>&1 | tail -1)"
done | tee "$out/values.txt"
python -m ldsopt.measure.bench_replay "$dir/time/def" --repetitions 3 --out "$out/def" > "$out/def.log" 2>&1
for round in 1 2; do
  for v in $(ls "$dir/time"); do
    echo "== $v"
    python -m ldsopt.measure.bench_replay "$dir/time/$v" --variants ldsopt --no-torch --repetitions 3 --min-time 0.1s \
      --out "$out/$v$round" 2>&1 | grep "^| matmul" | awk -F'|' '{print $2, $4}'
  done
done | tee "$out/sweep.txt"
# The FFN down kernel's own duration and L2 bytes (ncu) under the plans that matter.
for v in ${NCU_VARIANTS:-def t64 t64m22s6 h_t64m22s6 t128 t128notma}; do
  ls "$dir"/time/$v/matmul_NN_512x768x3072_f16_bias_residual/ldsopt/*.vmfb 2>/dev/null
done > /tmp/down.txt
python3 bench/kernel_times.py $(cat /tmp/down.txt) 2>&1 | grep -v Warn | tee "$out/kernel_times.txt"
