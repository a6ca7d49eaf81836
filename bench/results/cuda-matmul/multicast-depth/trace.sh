#!/bin/bash
# The clock64 trace of FFN down's K loop (trace.patch, stamps.py), for the multicast kernels
# and the unshared cp.async ones beside them. Here, from the repository root: `trace.sh
# prepare DIR` builds each VARIANT below (its name: m4x2 multicast or cp cp.async, tiles BMxBN,
# sS LDS tiles) from a copy of ldsopt/ with trace.patch applied (DIR/inputs holds the program's
# inputs, DIR/VARIANT.vmfb each module). There (carrying .whl and DIR): `trace.sh run DIR OUT`
# runs each module twice (`warm.py`: three calls in one process, the last one's output kept; 30 s
# at most), the stamps over its tiles' first rows; then here `python stamps.py OUT/*_*.npy`.
set -euo pipefail
what=${1:?prepare or run}; dir=${2:?DIR}
prog=test/e2e/programs/matmul_multicast/nn_f16_512x768x3072_bias_residual.mlir
variants="m4x2-64x64-s4:tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=4
m4x2-64x64-s8:tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8
m4x2-64x64-s12:tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=12
cp-64x64-s4:tiles=64x64x8x4 cluster-k=1 stages=4
cp-64x64-s8:tiles=64x64x8x4 cluster-k=1 stages=8
cp-64x128-s4:tiles=64x128x8x8 cluster-k=1 stages=4
cp-128x128-s4:tiles=128x128x8x8 cluster-k=1 stages=4"
if [ "$what" = prepare ]; then
  export PATH=$PWD/.venv/bin:$PATH
  copy=$(mktemp -d); cp -r ldsopt "$copy/"
  patch -s -d "$copy" -p1 < bench/results/cuda-matmul/multicast-depth/trace.patch
  mkdir -p "$dir"
  while IFS=: read -r name opts; do
    pipeline=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$opts},'))")
    PYTHONPATH="$copy" lds-run --target cuda-sm90a --prepare "$copy/$name" --pipeline "$pipeline" "$prog" > /dev/null
    [ -d "$dir/inputs" ] || cp -r "$copy/$name" "$dir/inputs"
    cp "$copy/$name/ldsopt.vmfb" "$dir/$name.vmfb"
  done <<< "$variants"
  rm -rf "$copy"
else
  out=${3:?OUT}; mkdir -p "$out"
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
  export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
  for v in "$dir"/*.vmfb; do name=$(basename "$v" .vmfb); for r in 1 2; do
    timeout 30 python3 bench/results/cuda-matmul/multicast-depth/warm.py "$v" "$dir/inputs" "$out/${name}_$r.npy" \
      || { echo "$name run $r: exit $?" | tee -a "$out/failed.txt"; break; }
  done; done
fi
