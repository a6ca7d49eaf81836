#!/bin/bash
# Run here (no GPU): the BERT/GPT-2 products, Q K^T, the long-K and one large case under the
# wgmma scheme with at most S LDS tiles an operand (ldsopt-matmul-lds{stages=S}); s4 is the default.
set -e
CASES=matmul_NN_512x2304x768_f16_bias,matmul_NN_512x768x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x3072_f16_bias_residual,matmul_NT_512x2304x768_f16_bias,matmul_NT_512x768x768_f16_bias,matmul_NT_512x3072x768_f16_bias_gelu,matmul_NT_512x768x3072_f16_bias_residual,batch_matmul_NT_12x512x512x64_f16_scale,matmul_NN_64x64x8192_f16_cast,matmul_NT_4096x4096x4096_f16
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"; }
lds-bench --target cuda-sm90a --cases $CASES --prepare build/s/s4
for s in 6 8 12; do lds-bench --target cuda-sm90a --cases $CASES --pipeline "$(with stages=$s)" --prepare build/s/s$s; done
