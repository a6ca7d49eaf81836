#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: the values, then
# bench_replay of each variant's products twice, interleaved (the default's first round with
# cuBLAS), side by side in summary.txt; then GPT-2's four products' kernels alone (ncu) under
# the cp.async variants. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in "$dir"/vals/*/*/; do
  echo "$(basename "$(dirname "$d")") $(timeout 60 python -m ldsopt.run.replay "$d" --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror" | tail -1)"
done | tee $OUT/values.txt
variants="def g2 s6 g2s6 p pg2"
runs=()
for round in 1 2; do for v in $variants; do
  torch=--no-torch; [ "$v$round" = def1 ] && torch=
  timeout 150 python -m ldsopt.measure.bench_replay "$dir/time/$v" --variants ldsopt $torch --repetitions 3 \
    --out "$OUT/runs/$v$round" > "$OUT/runs-$v$round.log" 2>&1; runs+=("$v$round")
done; done
python3 bench/side_by_side.py "$OUT/runs" "${runs[@]}" | tee $OUT/summary.txt
for v in def g2 s6 g2s6; do ls "$dir"/time/$v/matmul_NN_512x*/ldsopt/*.vmfb; done > /tmp/small.txt
timeout 200 python3 bench/kernel_times.py $(cat /tmp/small.txt) 2>&1 | grep -v Warn | tee $OUT/kernel_times.txt
(cd $OUT && tar czf runs.tgz runs runs-*.log && rm -rf runs runs-*.log)
