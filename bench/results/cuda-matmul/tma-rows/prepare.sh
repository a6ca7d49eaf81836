#!/bin/bash
# Run here (no GPU): the BERT/GPT-2 products, Q K^T and the long-K case with their tensor maps
# at the start of 128-byte output rows (TMA, the default now), at most S LDS tiles an operand
# (tS; t4 is the default), and the same products with cp.async (ldsopt-matmul-lds{tma=false}).
set -e
CASES=matmul_NN_512x2304x768_f16_bias,matmul_NN_512x768x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x3072_f16_bias_residual,matmul_NT_512x2304x768_f16_bias,matmul_NT_512x768x768_f16_bias,matmul_NT_512x3072x768_f16_bias_gelu,matmul_NT_512x768x3072_f16_bias_residual,batch_matmul_NT_12x512x512x64_f16_scale,matmul_NN_64x64x8192_f16_cast
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
lds-bench --target cuda-sm90a --cases $CASES --prepare build/t/t4
lds-bench --target cuda-sm90a --cases $CASES --pipeline "$(with tma=false)" --prepare build/t/c4
for s in 6 8; do lds-bench --target cuda-sm90a --cases $CASES --pipeline "$(with stages=$s)" --prepare build/t/t$s; done
lds-bench --target cuda-sm90a --cases $CASES --pipeline "$(with stages=8 tma=false)" --prepare build/t/c8
P=test/e2e/programs/matmul_large
lds-run --target cuda-sm90a --prepare build/t/v $P/{nn_f16_residual_f16out_130x768x520,batch_nt_f16_gelu_f16out_3x520x512x264,nn_bf16_bias_bf16out_129x640x200,nn_f16_bias_f16out_300x512x200}.mlir
