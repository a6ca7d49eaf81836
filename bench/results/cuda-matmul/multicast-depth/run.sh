#!/bin/bash
# On the GPU machine, from the repository root, after prepare.sh CALL DIR (carried with the
# runtime wheel): an attempt at FFN down's warp stalls under three variants (call 1: `ncu --set
# full` and the SASS source page; call 2: ncu's smsp__average_warps_issue_stalled_* counters;
# neither profiled a kernel, README), then ../multicast/run.sh: the values, each variant's four
# products twice (ldsopt only; IREE's default and PyTorch beside the default plan) and FFN
# down's kernel alone under each variant (ncu). The calls ran the same steps with the kernel
# times first. Usage: run.sh 1|2 DIR OUT
set -u
call=${1:?1 or 2}; dir=${2:?DIR}; out=${3:?OUT}; mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
down=matmul_NN_512x768x3072_f16_bias_residual
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
NCU_VARIANTS="$(ls "$dir/time")" bash bench/results/cuda-matmul/multicast/run.sh "$dir" "$out"
