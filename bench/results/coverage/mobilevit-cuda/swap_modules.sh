# Sourced by fixrun.sh and cross.sh (device half, $ARGS set): each module of build/mvswap (the
# module without the matmul passes, one of their dispatches put back) runs for at most 10 s;
# the first that does not end runs under compute-sanitizer's memcheck (30 s).
for v in build/mvswap/*.vmfb; do
  timeout -s INT 10 iree-run-module $ARGS --module="$v" > /tmp/o.txt 2>&1
  echo "$(basename "$v" .vmfb): exit $?"
done | tee "$OUT/swap.txt"
exe=$(python3 -c "from ldsopt.run.iree_tools import tool; print(tool('iree-run-module'))")
first=$(grep -m1 "exit 124" "$OUT/swap.txt" | cut -d: -f1)
[ -n "$first" ] && timeout -s INT 30 compute-sanitizer --tool memcheck --print-limit 10 "$exe" $ARGS \
  --module=build/mvswap/$first.vmfb > "$OUT/memcheck-$first.txt" 2>&1
echo "memcheck $first: exit $?" | tee -a "$OUT/summary.txt"; head -c 5000 "$OUT/memcheck-$first.txt"
