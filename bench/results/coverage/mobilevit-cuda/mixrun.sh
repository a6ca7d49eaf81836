source bench/device_rounds.sh; device_setup
O=build/mvcuda/mobilevit
ARGS="--device=cuda --function=main --input=1x3x32x32xf32=@$O/ldsopt/input0.bin --parameters=model=$O/parameters/model.irpa"
for v in all10 conv stores d2 d5 d8 d14 d18 d45 d46 d50 d108 d109; do
  timeout -s INT 12 iree-run-module $ARGS --module=build/mvmix/$v.vmfb > "$OUT/$v.txt" 2>&1
  echo "$v: exit $?"
done | tee "$OUT/summary.txt"
timeout -s INT 12 iree-run-module $ARGS --module=$O/ldsopt/ldsopt.vmfb > /dev/null 2>&1; echo "old again: exit $?" | tee -a "$OUT/summary.txt"
