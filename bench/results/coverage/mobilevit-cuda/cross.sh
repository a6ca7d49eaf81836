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
source bench/results/coverage/mobilevit-cuda/swap_modules.sh
