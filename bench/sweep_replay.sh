# Sourced by the kernel sweeps (bench/attention_sweep.sh, bench/matmul_sweep.sh): their bench
# folders replayed on the GPU machine.
#
# replay_bench_folders DIR OUT: DIR/bench-default with IREE's default and PyTorch beside it
# (`python -m ldsopt.measure.bench_replay`), every other DIR/bench-VARIANT for ldsopt alone,
# 3 repetitions of 0.1 s, each into OUT/NAME; then prints each results.md. A folder that fails
# is said and the others still run.
replay_bench_folders() {
  local dir=$1 out=$2 b name
  "${PYTHON:-python3}" -m ldsopt.measure.bench_replay "$dir/bench-default" --out "$out/default" \
    || echo "bench-default: failed (above)" >&2
  for b in "$dir"/bench-*; do
    name=${b##*/bench-}
    [ "$name" = default ] && continue
    "${PYTHON:-python3}" -m ldsopt.measure.bench_replay "$b" --out "$out/$name" --variants ldsopt --no-torch \
      --repetitions 3 --min-time 0.1s \
      || echo "bench-$name: failed (above)" >&2
  done
  for r in "$out"/*/results.md; do echo "== $r"; cat "$r"; done
}
