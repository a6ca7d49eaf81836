#!/usr/bin/env bash
# Nsight Compute shared-memory counters of one launch of a prepared lds-bench case's kernel
# (bank conflicts and wavefronts of LDS loads and stores), on the GPU machine:
#
#   bench/ncu_matmul.sh FOLDER CASE [VARIANT]      e.g.
#   bench/ncu_matmul.sh .out/bench-inthread-auto matmul_TN_4096x4096x4096_f16
#
# FOLDER is made by `lds-bench --prepare`; VARIANT is ldsopt (default) or iree-default. Runs
# from the repository root with the IREE runtime importable (PYTHONPATH) and ncu on PATH; the
# module runs its dispatch 4 times (batch 1, 3 warm-up launches skipped) and ncu profiles the
# 4th with unlocked clocks (as bench_replay times it). Prints ncu's report, then one line per
# metric: `CASE VARIANT metric value`.
set -euo pipefail
folder=${1:?usage: bench/ncu_matmul.sh FOLDER CASE [VARIANT]}
case_name=${2:?usage: bench/ncu_matmul.sh FOLDER CASE [VARIANT]}
variant=${3:-ldsopt}
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
)
bench=$(command -v iree-benchmark-module || python3 -c "from ldsopt.replay import tool; print(tool('iree-benchmark-module'))")
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
report=$(timeout 300 ncu --clock-control none --metrics "$metrics" --kernel-name regex:main_dispatch \
  --launch-skip 3 --launch-count 1 \
  "$bench" --device=cuda --module="$module" --batch_size=1 --benchmark_repetitions=1 --benchmark_min_time=4x 2>&1)
echo "$report"
echo "$report" | awk -v c="$case_name" -v v="$variant" '$1 ~ /^l1tex__data_/ {gsub(",", "", $NF); print c, v, $1, $NF}'
