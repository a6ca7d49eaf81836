#!/bin/bash
# Values of the persistent walk with quad stores and an epilogue: 1152x2048x192 f16 + bias +
# residual, f16 out, on 64x256 tiles (144 tiles: more than the 132 SMs; 256 f16 columns hold
# both tensor maps) without the output stage (output-lds=false), by the default pipeline
# otherwise (persistent=auto); checked against numpy there (check_walk.py). Here:
# `walk.sh prepare DIR`; there (carrying .whl and DIR): `OUT=... walk.sh run DIR`.
set -u
what=${1:?prepare or run}; dir=${2:?DIR}
if [ "$what" = prepare ]; then
  set -e; rm -rf "$dir"; mkdir -p "$dir"
  export PATH=$PWD/.venv/bin:$PATH
  python -c "from ldsopt.measure import cases; print(cases._matmul_epilogue(0, 1152, 2048, 192, 'kn', 'bias_residual').mlir)" \
    > "$dir/nn_f16_bias_residual_1152x2048x192.mlir"
  pipeline=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{tiles=64x256x8x16 output-lds=false},'))")
  lds-run --target cuda-sm90a --require-ldsopt --pipeline "$pipeline" --prepare "$dir/prep" \
    "$dir/nn_f16_bias_residual_1152x2048x192.mlir" > "$dir/prepare.log"
  cp "$dir/prep/ldsopt.vmfb" "$dir/walk.vmfb"
  echo "shuffles $(grep -c gpu.shuffle "$dir/prep/ldsopt.mlir"), $(grep -o 'block_id x upper_bound [0-9]*' "$dir/prep/ldsopt.mlir" | head -1)"
  rm -rf "$dir/prep"
else
  . bench/device_rounds.sh
  device_setup
  timeout 60 python3 bench/results/cuda-matmul/quad-stores/check_walk.py "$dir/walk.vmfb" 1152 2048 192 2>&1 \
    | tail -3 | tee $OUT/values.txt
fi
