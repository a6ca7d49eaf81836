#!/usr/bin/env bash
# Nsight Compute counters of one launch of a prepared lds-bench case's kernel, on the GPU machine:
#
#   bench/ncu_lds.sh OUT CASE FOLDER... [-- VARIANT]
#   e.g. bench/ncu_lds.sh /tmp/ncu matmul_NT_4096x4096x4096_f16 .out/bench-dtl-*
#
# For each FOLDER (made by `lds-bench --prepare`) writes OUT/ncu_<folder>_<CASE>.txt: LDS load and
# store bank conflicts and wavefronts, and cp.async (LDGSTS) instructions, which write shared
# memory without st.shared and so count in neither store column. With NCU_SECTIONS=1 it adds the
# speed-of-light, launch (registers), occupancy, warp-state and memory sections; with NCU_STALLS=1
# the warps' issue stalls by reason (cycles per issued instruction), the instructions executed
# (all, and on the LSU pipe) and the tensor pipe's active cycles. VARIANT is
# ldsopt (default) or iree-default. The module runs its dispatch 4 times (batch 1) and ncu
# profiles the 4th with unlocked clocks, as bench_replay times it. Needs ncu on PATH and the IREE
# runtime importable (PYTHONPATH); prints one `folder case metric value` line per metric.
set -uo pipefail
out=${1:?usage: bench/ncu_lds.sh OUT CASE FOLDER... [-- VARIANT]}
case_name=${2:?usage: bench/ncu_lds.sh OUT CASE FOLDER... [-- VARIANT]}
shift 2
folders=(); variant=ldsopt
while [ $# -gt 0 ]; do
  [ "$1" = -- ] && { variant=${2:?VARIANT after --}; break; }
  folders+=("$1"); shift
done
mkdir -p "$out"
bench=$(command -v iree-benchmark-module || python3 -c "from ldsopt.run.iree_tools import tool; print(tool('iree-benchmark-module'))") || exit 1
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_ldgsts.sum
[ "${NCU_STALLS:-0}" = 1 ] && for r in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait \
    not_selected selected lg_throttle dispatch_stall; do metrics+=",smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done \
  && metrics+=",smsp__inst_executed.sum,smsp__inst_executed_pipe_lsu.sum,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"
sections=()
[ "${NCU_SECTIONS:-0}" = 1 ] && for s in SpeedOfLight LaunchStats Occupancy WarpStateStats MemoryWorkloadAnalysis; do sections+=(--section "$s"); done
for folder in "${folders[@]}"; do
  name=$(basename "$folder")
  module=$(python3 - "$folder" "$case_name" "$variant" <<'PY'
import json, os, sys
folder, name, variant = sys.argv[1:]
with open(os.path.join(folder, "manifest.json")) as f:
    cases = {c["name"]: c for c in json.load(f)["cases"]}
if name not in cases:
    sys.exit(f"no case {name} in {folder} (cases: {', '.join(cases)})")
modules = cases[name]["variants"][variant]["modules"]
if len(modules) != 1:
    sys.exit(f"{name} {variant}: {len(modules)} modules, expected one")
print(os.path.join(folder, modules[0]))
PY
  ) || continue
  file=$out/ncu_${name}_${case_name}.txt
  timeout 300 ncu --clock-control none --metrics "$metrics" "${sections[@]}" --kernel-name regex:main_dispatch \
    --launch-skip 3 --launch-count 1 "$bench" --device=cuda --module="$module" --batch_size=1 \
    --benchmark_repetitions=1 --benchmark_min_time=4x > "$file" 2>&1
  echo "== $name $case_name rc=$?"
  awk -v f="$name" -v c="$case_name" '$1 ~ /^(l1tex|smsp|sm)__/ {gsub(",", "", $NF); print f, c, $1, $NF}
    /Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|DRAM Throughput|Duration/ {print f, c, $0}' "$file"
done
