#!/bin/bash
# Here (no GPU), from the repository root: which part of the wgmma kernel at 3 LDS tiles hung
# (../same-output/). DIR/vals/V: a 256x512x512 f16 product with f16 out (128x256 tiles, TMA copies
# by default) under each variant V below, prepared by lds-run for values; DIR/time/V: the
# 4096^3 and 8192x8192x1024 f16-out cases at 3 LDS tiles with the output stage and at 4
# without. Usage: [CALL=1] prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir"
export PATH=$PWD/.venv/bin:$PATH
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
python -c "from ldsopt.measure import cases; print(cases._matmul_epilogue(0, 256, 512, 512, 'kn', 'cast').mlir)" > "$dir/nn_f16_cast_256x512x512.mlir"
while IFS='|' read -r name opts; do
  lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with $opts)" --prepare "$dir/vals/$name" \
    "$dir/nn_f16_cast_256x512x512.mlir" > "$dir/vals-$name.log" 2>&1
done <<VARIANTS
s4|tiles=128x256x8x16
s3|tiles=128x256x8x16 stages=3
s3direct|tiles=128x256x8x16 stages=3 output-lds=false
s4stage128|tiles=128x128x8x8 output-lds=true
s3cp|tiles=128x256x8x16 stages=3 tma=false
s4cpdirect|tiles=128x256x8x16 tma=false
VARIANTS
C=matmul_NN_4096x4096x4096_f16_cast,matmul_NN_8192x8192x1024_f16_cast
# call 1: by cp.async, 3 LDS tiles and the output stage against 4 and direct stores; call 2
# (after the fix): the same by TMA
if [ "${CALL:-2}" = 1 ]; then v3="stages=3 tma=false" v4="tma=false"; else v3="stages=3" v4=""; fi
lds-bench --target cuda-sm90a --cases $C --pipeline "$(with tiles=128x256x8x16 $v3)" --prepare "$dir/time/s3"
lds-bench --target cuda-sm90a --cases $C --pipeline "$(with tiles=128x256x8x16 $v4)" --prepare "$dir/time/s4"
