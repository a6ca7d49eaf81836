#!/bin/bash
# On the GPU (one call), carrying .whl and DIR (prepare.sh): the variants NAME... of DIR replayed
# by bench_replay (ldsopt only) in two rounds, side by side (OUT/summary.txt, OUT/runs.tgz), then
# Nsight Compute's source counters (warp stalls sampled per SASS instruction) of the first
# variant's NT and NN f16 kernels (OUT/source-*.csv).
# Usage: OUT=... run.sh DIR NAME...
set -u
dir=${1:?DIR}; shift
. bench/device_rounds.sh
device_setup > /dev/null
runs=(); for r in 1 2; do for v in "$@"; do runs+=("$v$r"); done; done
replay_rounds "$dir" "${runs[@]}"
bench=$(python3 -c "from ldsopt.run.iree_tools import tool; print(tool('iree-benchmark-module'))")
for c in NT NN; do
  m=$dir/$1/matmul_${c}_4096x4096x4096_f16/ldsopt/module_main_dispatch_0_cuda_nvptx_fb.vmfb
  timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats --kernel-name regex:main_dispatch \
    --launch-skip 3 --launch-count 1 -o /tmp/src-$c "$bench" --device=cuda --module="$m" --batch_size=1 \
    --benchmark_repetitions=1 --benchmark_min_time=4x > "$OUT/ncu-$c.log" 2>&1
  ncu --import /tmp/src-$c.ncu-rep --page source --csv --print-source sass > "$OUT/source-$c.csv" 2>&1
  ncu --import /tmp/src-$c.ncu-rep --page details > "$OUT/details-$c.txt" 2>&1
  echo "== $c: $(wc -l < "$OUT/source-$c.csv") source lines"
done
