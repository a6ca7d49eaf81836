# Device half: MobileViT and MobileNetV1 prepared for --target cuda (their sweep weights, the
# matmul's vectors bounded by the rows' alignment) replayed for values (30 s at most each). If
# MobileViT's does not end, each module of build/mvswap (the module before, its matmul passes'
# dispatches left to IREE but one) runs for at most 10 s, and the first that does not end runs
# under compute-sanitizer's memcheck (30 s).
source bench/device_rounds.sh; device_setup
for d in build/mv39c/mobilevit/ldsopt build/mn39c/mobilenet_v1/ldsopt; do
  n=$(basename "$(dirname "$d")")
  timeout -s INT 30 python -m ldsopt.run.replay "$d" > "$OUT/$n.txt" 2>&1
  rc=$?; echo "$n: exit $rc $(tail -1 "$OUT/$n.txt" | cut -c1-150)" | tee -a "$OUT/summary.txt"
  [ "$n" = mobilevit ] && mv_rc=$rc
done
[ "$mv_rc" = 0 ] && exit 0
F=build/mvcuda/mobilevit/ldsopt
ARGS="--device=cuda --function=main --input=1x3x32x32xf32=@$F/input0.bin --parameters=model=build/mvcuda/mobilevit/parameters/model.irpa"
source bench/results/coverage/mobilevit-cuda/swap_modules.sh
