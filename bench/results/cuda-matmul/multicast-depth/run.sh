#!/bin/bash
# On the GPU machine, from the repository root, after prepare.sh CALL DIR (carried with the
# runtime wheel): values, FFN down's kernel alone under each variant (ncu), an attempt at its
# warp stalls under three variants (call 1: `ncu --set full` and the SASS source page; call 2:
# ncu's smsp__average_warps_issue_stalled_* counters; neither profiled a kernel, README), then
# each variant's four products twice (ldsopt only; IREE's default and PyTorch beside the
# default plan). Usage: run.sh 1|2 DIR OUT
set -u
call=${1:?1 or 2}; dir=${2:?DIR}; out=${3:?OUT}; mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
for d in "$dir"/vals/*/*; do
  echo "$(basename "$(dirname "$d")") $(basename "$d"): $(timeout 60 python -m ldsopt.run.replay "$d" --require-ldsopt 2>&1 | tail -1)"
done | tee "$out/values.txt"
down=matmul_NN_512x768x3072_f16_bias_residual
python3 bench/kernel_times.py $(ls "$dir"/time/*/$down/ldsopt/*.vmfb) 2>&1 | grep -v Warn | tee "$out/kernel_times.txt"
bench_module() { echo iree-benchmark-module --device=cuda --module="$(ls "$dir"/time/$1/$down/ldsopt/*.vmfb)" \
  --batch_size=20 --benchmark_repetitions=1 --benchmark_min_time=0.05s; }
for v in $([ "$call" = 1 ] && echo t64 m42s4 m42s12 || echo t64 m42s8o m42s12); do
  if [ "$call" = 1 ]; then
    timeout 120 ncu --set full --import-source no --launch-skip 20 --launch-count 1 -o "/tmp/stall_$v" \
      $(bench_module $v) > "$out/ncu_$v.log" 2>&1
    ncu -i "/tmp/stall_$v.ncu-rep" --page source --csv --print-source sass > "$out/stall_sass_$v.csv" 2>&1
  else
    timeout 100 ncu --clock-control none --cache-control none --csv --print-units base \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$' \
      --launch-skip 20 --launch-count 3 $(bench_module $v) > "$out/stalls_$v.csv" 2>&1
  fi
done
python -m ldsopt.measure.bench_replay "$dir/time/def" --repetitions 3 --out "$out/def" > "$out/def.log" 2>&1
for round in 1 2; do
  for v in $(ls "$dir/time"); do
    echo "== $v"
    python -m ldsopt.measure.bench_replay "$dir/time/$v" --variants ldsopt --no-torch --repetitions 3 --min-time 0.1s \
      --out "$out/$v$round" 2>&1 | grep "^| matmul" | awk -F'|' '{print $2, $4}'
  done
done | tee "$out/sweep.txt"
