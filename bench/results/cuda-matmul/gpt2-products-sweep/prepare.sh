#!/bin/bash
# GPT-2's products with K x N weights (ONNX): tilings and cluster K splits of the wgmma scheme.
cd /work/main
export PATH=$PWD/.venv/bin:$PATH
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"; }
DOWN=matmul_NN_512x768x3072_f16_bias_residual
QKV=matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x768_f16_bias
rm -rf build/s13w; mkdir -p build/s13w
lds-bench --target cuda-sm90a --cases $DOWN,$QKV --prepare build/s13w/def > build/s13w/def.log 2>&1; echo def $?
for v in k2:cluster-k=2 k4:cluster-k=4 t64k2:"tiles=64x64x8x4 cluster-k=2" t64k4:"tiles=64x64x8x4 cluster-k=4" \
         t128k2:"tiles=64x128x8x8 cluster-k=2" t128k4:"tiles=64x128x8x8 cluster-k=4" t128:"tiles=64x128x8x8" t64:"tiles=64x64x8x4"; do
  n=${v%%:*}
  lds-bench --target cuda-sm90a --cases $DOWN,$QKV --pipeline "$(with "${v#*:}")" --prepare build/s13w/$n > build/s13w/$n.log 2>&1
  echo $n $?
done
