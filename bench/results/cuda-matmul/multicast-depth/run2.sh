#!/bin/bash
# On the GPU machine, from the repository root, after prepare2.sh DIR (carried with the
# runtime wheel): values, FFN down's kernel alone under each variant (ncu), the average warp
# stall reasons of FFN down under three (ncu's smsp__average_warps_issue_stalled_* counters,
# every warp of the kernel), then each variant's four products twice. Usage: run2.sh DIR OUT
set -u
dir=${1:?DIR}; out=${2:?OUT}; mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
for d in "$dir"/vals/*/*; do
  echo "$(basename "$(dirname "$d")") $(basename "$d"): $(timeout 60 python -m ldsopt.run.replay "$d" --require-ldsopt 2>&1 | tail -1)"
done | tee "$out/values.txt"
down=matmul_NN_512x768x3072_f16_bias_residual
python3 bench/kernel_times.py $(ls "$dir"/time/*/$down/ldsopt/*.vmfb) 2>&1 | grep -v Warn | tee "$out/kernel_times.txt"
for v in ${STALL_VARIANTS:-t64 m42s8o m42s12}; do
  timeout 100 ncu --clock-control none --cache-control none --csv --print-units base \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$,smsp__warps_active.avg.per_cycle_active,sm__cycles_elapsed.avg' \
    --launch-skip 20 --launch-count 3 iree-benchmark-module --device=cuda \
    --module="$(ls "$dir"/time/$v/$down/ldsopt/*.vmfb)" --batch_size=20 --benchmark_repetitions=1 \
    --benchmark_min_time=0.05s > "$out/stalls_$v.csv" 2>&1
done
python -m ldsopt.measure.bench_replay "$dir/time/def" --repetitions 3 --out "$out/def" > "$out/def.log" 2>&1
for round in 1 2; do
  for v in $(ls "$dir/time"); do
    echo "== $v"
    python -m ldsopt.measure.bench_replay "$dir/time/$v" --variants ldsopt --no-torch --repetitions 3 --min-time 0.1s \
      --out "$out/$v$round" 2>&1 | grep "^| matmul" | awk -F'|' '{print $2, $4}'
  done
done | tee "$out/sweep.txt"
