# Sourced by the device halves of bench/results/*/run.sh (on the GPU machine, from the
# repository root): `device_setup` installs the carried runtime wheel and records the GPU in
# $OUT/gpu.txt; `replay_values FOLDER...` replays each lds-run --prepare folder for values (30 s
# at most: exit 124 is a hang) into $OUT/values.txt; `replay_rounds DIR RUN...` replays
# DIR/VARIANT for each RUN named VARIANT plus its round digit (bench_replay, ldsopt only, cuBLAS
# beside the first), 150 s at most each, prints them side by side into $OUT/summary.txt and
# packs their folders into $OUT/runs.tgz; `blocks_once BUILD NAME...` gives each variant folder
# of BUILD/variants.txt its block's shared files back (cuda-models/fence-d844df1) and runs
# program_bench once on each NAME into $OUT/NAME.

device_setup() {
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
  export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
}

replay_values() {
  local d r rc
  for d in "$@"; do
    r=$(timeout 30 python -m ldsopt.run.replay "$d" --require-ldsopt 2>&1); rc=$?
    echo "$(basename "$(dirname "$d")")/$(basename "$d"): exit $rc $(grep -E "^PASS|^FAIL|rror" <<< "$r" | tail -1)"
  done | tee "$OUT/values.txt"
}

replay_rounds() {
  local dir=$1 run torch; shift
  mkdir -p "$OUT/runs"
  for run in "$@"; do
    torch=--no-torch; [ "$run" = "$1" ] && torch=
    timeout 150 python -m ldsopt.measure.bench_replay "$dir/${run%?}" --variants ldsopt $torch --out "$OUT/runs/$run" \
      > "$OUT/runs/$run.log" 2>&1
  done
  python3 bench/side_by_side.py "$OUT/runs" "$@" | tee "$OUT/summary.txt"
  (cd "$OUT" && tar czf runs.tgz runs && rm -rf runs)
}

blocks_once() {
  local build=$1 name first f; shift
  while read -r name first; do
    [[ $name == "$first" ]] && continue
    for f in $(cat bench/results/cuda-models/fence-d844df1/shared-files.txt); do
      [ -e "$build/$first/$f" ] && cp -r "$build/$first/$f" "$build/$name/$f"
    done
  done < "$build/variants.txt"
  for name in "$@"; do
    timeout 100 python -m ldsopt.measure.program_bench "$build/$name" --repetitions 1 --out "$OUT/$name" 2>&1 \
      | grep -v Warning > "$OUT/$name.log"
    rm -f "$OUT/$name/program_results.png"
    grep -E "^- (ldsopt|PyTorch|values of)|^Values" "$OUT/$name/program_results.md"
  done
}
