# Device half: where MobileViT's ldsopt module for --target cuda stops (run from the repository
# root on the GPU machine, build/mvcuda and build/mvtrace carried). Each run is bounded; exit 124
# is a run that did not end.
source bench/device_rounds.sh; device_setup
F=build/mvcuda/mobilevit/ldsopt
ARGS="--function=main --input=1x3x32x32xf32=@$F/input0.bin --parameters=model=build/mvcuda/mobilevit/parameters/model.irpa"
run() {  # NAME SECONDS iree-run-module-args...
  local name=$1 s=$2; shift 2
  timeout -s INT "$s" iree-run-module --device=cuda $ARGS "$@" > "$OUT/$name.txt" 2>&1
  echo "$name: exit $?" | tee -a "$OUT/summary.txt"
}
run plain 40 --module=$F/ldsopt.vmfb
run streams_inline 20 --module=$F/ldsopt.vmfb --cuda_allow_inline_execution=true
run no_async_alloc 20 --module=$F/ldsopt.vmfb --cuda_async_allocations=false
run graphs 20 --module=$F/ldsopt.vmfb --cuda_use_streams=false
run trace_execution 20 --module=$F/ldsopt.vmfb --trace_execution=true
run traced_tensors 60 --module=build/mvtrace/traced.vmfb
for v in build/mvbis/*.vmfb; do run "bis-$(basename "$v" .vmfb)" 20 --module="$v"; done
for f in "$OUT"/*.txt; do [ "$(stat -c %s "$f")" -gt 400000 ] && { tail -c 400000 "$f" > "$f.tail"; mv "$f.tail" "$f"; }; done
if command -v compute-sanitizer > /dev/null; then
  timeout -s INT 90 compute-sanitizer --tool synccheck iree-run-module --device=cuda $ARGS --module=$F/ldsopt.vmfb \
    > "$OUT/synccheck.txt" 2>&1
  echo "synccheck: exit $?" | tee -a "$OUT/summary.txt"
  tail -c 200000 "$OUT/synccheck.txt" > "$OUT/s" && mv "$OUT/s" "$OUT/synccheck.txt"
fi
