source bench/device_rounds.sh; device_setup
N=build/mv39c/mobilevit; O=build/mvcuda/mobilevit
run() { # name module params input
  timeout -s INT 20 iree-run-module --device=cuda --function=main --module=$2 --parameters=model=$3 \
    --input=1x3x32x32xf32=@$4 > "$OUT/$1.txt" 2>&1; echo "$1: exit $?" | tee -a "$OUT/summary.txt"; }
run new-code_new-weights $N/ldsopt/ldsopt.vmfb $N/parameters/model.irpa $N/ldsopt/input0.bin
run new-code_old-weights $N/ldsopt/ldsopt.vmfb $O/parameters/model.irpa $O/ldsopt/input0.bin
run old-code_new-weights $O/ldsopt/ldsopt.vmfb $N/parameters/model.irpa $N/ldsopt/input0.bin
run old-code_old-weights $O/ldsopt/ldsopt.vmfb $O/parameters/model.irpa $O/ldsopt/input0.bin
F=$O/ldsopt; ARGS="--device=cuda --function=main --input=1x3x32x32xf32=@$F/input0.bin --parameters=model=$O/parameters/model.irpa"
for v in build/mvswap/*.vmfb; do
  timeout -s INT 10 iree-run-module $ARGS --module="$v" > /tmp/o.txt 2>&1
  echo "$(basename "$v" .vmfb): exit $?"
done | tee "$OUT/swap.txt"
exe=$(python3 -c "from ldsopt.run.iree_tools import tool; print(tool('iree-run-module'))")
first=$(grep -m1 "exit 124" "$OUT/swap.txt" | cut -d: -f1)
[ -n "$first" ] && timeout -s INT 30 compute-sanitizer --tool memcheck --print-limit 10 "$exe" $ARGS \
  --module=build/mvswap/$first.vmfb > "$OUT/memcheck-$first.txt" 2>&1
echo "memcheck $first: exit $?" | tee -a "$OUT/summary.txt"; head -c 3000 "$OUT/memcheck-$first.txt"
