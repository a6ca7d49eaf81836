#!/bin/bash
# builders.patch (the tensor maps built side by side, never landed) on the GPU: its trace and
# its values. Here, from the repository root: `builders.sh prepare DIR` builds, from a copy of
# ldsopt/ with builders.patch applied (and trace.patch for the traced kernels), FFN down traced
# as a 4x2 multicast at 8 LDS tiles, a TMA kernel on 64x256 tiles and the cp.async 64x64 one
# (DIR/trace), and the multicast e2e programs untraced at 4x2 for values (DIR/vals). There,
# carrying .whl and DIR: `OUT=... builders.sh run DIR`; then here `python stamps.py
# OUT/trace/*_2.npy` against trace-warm-h100/ and diag-h100/stamps-wide.txt.
set -euo pipefail
what=${1:?prepare or run}; dir=${2:?DIR}
here=bench/results/cuda-matmul/multicast-depth
if [ "$what" = prepare ]; then
  export PATH=$PWD/.venv/bin:$PATH
  rm -rf "$dir"; mkdir -p "$dir/trace"
  plain=$(mktemp -d); traced=$(mktemp -d)
  for copy in "$plain" "$traced"; do
    cp -r ldsopt "$copy/"; ln -s "$PWD/passes" "$copy/ldsopt/passes"
    patch -s -d "$copy" -p1 < $here/builders.patch
  done
  patch -s -d "$traced" -p1 < $here/trace.patch
  with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
  prog=test/e2e/programs/matmul_multicast/nn_f16_512x768x3072_bias_residual.mlir
  for spec in "m4x2-64x64-s8:tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8" \
              "tma-64x256-s4:tiles=64x256x8x16 cluster-k=1 stages=4" "cp-64x64-s4:tiles=64x64x8x4 cluster-k=1 stages=4"; do
    IFS=: read -r name opts <<< "$spec"
    PYTHONPATH="$traced" lds-run --target cuda-sm90a --prepare "$traced/$name" --pipeline "$(with $opts)" "$prog" > /dev/null
    cp "$traced/$name/ldsopt.vmfb" "$dir/trace/$name.vmfb"
  done
  PYTHONPATH="$plain" lds-run --target cuda-sm90a --require-ldsopt --prepare "$dir/vals/m4x2" \
    --pipeline "$(with tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8)" \
    test/e2e/programs/matmul_multicast/*.mlir > "$dir/vals.log" 2>&1
  rm -rf "$plain" "$traced"
  du -sh "$dir"
else
  . bench/device_rounds.sh
  device_setup
  # the traced program's inputs: those of its values folder (carried once)
  cp -r "$dir/vals/m4x2/nn_f16_512x768x3072_bias_residual" "$dir/trace/inputs"
  bash $here/trace.sh run "$dir/trace" "$OUT/trace"
  replay_values "$dir"/vals/*/*/
  (cd "$OUT" && tar czf trace.tgz trace && rm -rf trace)
fi
