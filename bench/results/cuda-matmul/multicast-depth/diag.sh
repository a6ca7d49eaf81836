#!/bin/bash
# Where FFN down's 400-cycle K step goes: trace.patch's stamps, plus diag.patch (never landed),
# whose LDSOPT_DIAG takes parts out of the cp.async K step (the values are then wrong; the
# stamps are what is read): nocopy (no copies, no wait for them, no barrier: the wgmmas
# alone), copyonly (no wgmmas: the copies, their wait and the barrier alone), nobar (no
# barrier), wait0 (`wgmma.wait_group 0` in place of 1). Here: `diag.sh prepare DIR` (from the
# repository root); there: `trace.sh run DIR OUT` (carrying .whl and DIR), then here
# `python stamps.py OUT/*_*.npy`.
set -euo pipefail
dir=${1:?DIR}
export PATH=$PWD/.venv/bin:$PATH
here=bench/results/cuda-matmul/multicast-depth
copy=$(mktemp -d); cp -r ldsopt "$copy/"
patch -s -d "$copy" -p1 < $here/trace.patch
patch -s -d "$copy" -p1 < $here/diag.patch
ln -s "$PWD/passes" "$copy/ldsopt/passes"
prog=test/e2e/programs/matmul_multicast/nn_f16_512x768x3072_bias_residual.mlir
rm -rf "$dir"; mkdir -p "$dir"
for spec in base-64x64:64x64x8x4: nocopy-64x64:64x64x8x4:nocopy nobar-64x64:64x64x8x4:nobar wait0-64x64:64x64x8x4:wait0 \
            copyonly-64x64:64x64x8x4:copyonly base-64x128:64x128x8x8: nocopy-64x128:64x128x8x8:nocopy; do
  IFS=: read -r name tiles diag <<< "$spec"
  pipeline=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{tiles=$tiles cluster-k=1 stages=4},'))")
  LDSOPT_DIAG=$diag PYTHONPATH="$copy" lds-run --target cuda-sm90a --prepare "$copy/$name" --pipeline "$pipeline" "$prog" > /dev/null
  [ -d "$dir/inputs" ] || cp -r "$copy/$name" "$dir/inputs"
  cp "$copy/$name/ldsopt.vmfb" "$dir/$name-s4.vmfb"
done
rm -rf "$copy"
