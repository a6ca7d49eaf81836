#!/bin/bash
# Nsight Compute shared-memory counters of the DTL variants: one launch of the ldsopt dispatch of
# CASE in each prepared folder, one text file per variant.
#   bash bench/ncu_dtl.sh OUT [CASE] [FOLDER...]
# OUT: where the files go (ncu_<folder>_<case>.txt); CASE: default matmul_NT_4096x4096x4096_f16;
# FOLDERs: default .out/bench-dtl-* (made by `lds-bench --prepare`, see bench/README or the issue 6
# report). Needs ncu and the IREE runtime (iree-benchmark-module, found as ldsopt.replay.tool finds
# it: `pip install --target /tmp/site iree-base-runtime` and PYTHONPATH=/tmp/site:$PWD works).
# The first four metrics are the comparison of the issue (LDS loads = the fragment reads, LDS
# stores = register staging's st.shared); cp.async writes shared memory as LDGSTS, which those do
# not count, so a second call asks for the LDGSTS counters and may fail on an ncu without them
# (its file says so; the first file stands alone).
set -u
OUT=${1:?usage: bash bench/ncu_dtl.sh OUT [CASE] [FOLDER...]}
CASE=${2:-matmul_NT_4096x4096x4096_f16}
shift $(( $# < 2 ? $# : 2 ))
FOLDERS=("$@"); [ ${#FOLDERS[@]} -eq 0 ] && FOLDERS=(.out/bench-dtl-*)
mkdir -p "$OUT"
BENCH=$(python3 -c "from ldsopt.replay import tool; print(tool('iree-benchmark-module'))") || exit 1
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
LDGSTS=smsp__inst_executed_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ldgsts.sum
for d in "${FOLDERS[@]}"; do
  v=$(basename "$d")
  f=$(ls "$d/$CASE"/ldsopt/*.vmfb 2>/dev/null | head -1)
  [ -n "$f" ] || { echo "== $v: no $CASE ldsopt module"; continue; }
  for pass in main ldgsts; do
    metrics=$M; file=$OUT/ncu_${v}_${CASE}.txt
    [ $pass = ldgsts ] && metrics=$LDGSTS && file=$OUT/ncu_${v}_${CASE}_ldgsts.txt
    # launch 3 of the dispatch (skip 2 warm-ups), as the NN f16 counters of bench/results/cuda-matmul
    timeout 120 ncu --clock-control none --metrics "$metrics" --kernel-name regex:main_dispatch \
      --launch-skip 2 --launch-count 1 "$BENCH" --device=cuda --module="$f" --batch_size=1 \
      --benchmark_repetitions=1 --benchmark_min_time=3x > "$file" 2>&1
    echo "== $v $pass rc=$?"; grep -E "bank_conflicts|wavefronts|ldgsts|ERROR" "$file"
  done
done
