#!/bin/bash
# The clock64 trace of FFN down's multicast kernels (trace.patch, stamps.py). Here, from the
# repository root: `trace.sh prepare DIR` builds the kernel at 4x2 with 4, 8 and 12 LDS tiles
# from a copy of ldsopt/ with trace.patch applied (DIR/s4 holds the inputs, DIR/s8 and DIR/s12
# their modules alone). There (carrying .whl and DIR): `trace.sh run DIR OUT` runs each module
# three times and keeps each output, the stamps over its tiles' first rows; then here
# `python stamps.py OUT/s*_*.npy`.
set -euo pipefail
what=${1:?prepare or run}; dir=${2:?DIR}
prog=test/e2e/programs/matmul_multicast/nn_f16_512x768x3072_bias_residual.mlir
if [ "$what" = prepare ]; then
  export PATH=$PWD/.venv/bin:$PATH
  copy=$(mktemp -d); cp -r ldsopt "$copy/"
  patch -s -d "$copy" -p1 < bench/results/cuda-matmul/multicast-depth/trace.patch
  for s in 4 8 12; do
    pipeline=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=$s},'))")
    PYTHONPATH="$copy" lds-run --target cuda-sm90a --prepare "$copy/s$s" --pipeline "$pipeline" "$prog" > /dev/null
    mkdir -p "$dir/s$s"
    if [ $s = 4 ]; then cp -r "$copy/s$s/." "$dir/s$s/"; else cp "$copy/s$s/ldsopt.vmfb" "$dir/s$s/"; fi
  done
  rm -rf "$copy"
else
  out=${3:?OUT}; mkdir -p "$out"
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
  export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
  inputs=$(python3 -c "import json; m = json.load(open('$dir/s4/manifest.json')); print(' '.join(
    '--input=%sx%s=@$dir/s4/%s' % ('x'.join(map(str, t['shape'])), t['dtype'], t['file']) for t in m['inputs']))")
  for s in 4 8 12; do for r in 1 2 3; do
    iree-run-module --device=cuda --module="$dir/s$s/ldsopt.vmfb" --function=main $inputs --output=@"$out/s${s}_$r.npy" > /dev/null
  done; done
fi
