#!/bin/bash
# Run here (no GPU): build/d9/new{,89} from this tree, build/d9/old{,89} from 5719f36 (git stash
# of the change), and the value folders (matmul, matmul_epilogue and two conv programs).
set -e
C=conv_nhwc_8x56x56x64_256x1x1_s1_f16,conv_nhwc_8x56x56x256_64x1x1_s1_f16,conv_nhwc_8x28x28x128_512x1x1_s1_f16,conv_nhwc_8x7x7x2048_512x1x1_s1_f16,conv_nhwc_8x28x28x128_128x3x3_s1_f16,matmul_NN_512x768x3072_f16_bias_residual,matmul_NT_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_64x64x8192_f16_cast,batch_matmul_NT_12x512x512x64_f16_scale,batch_matmul_NN_12x512x64x512_f16_cast,matmul_NN_512x768x768_f16_bias
P=test/e2e/programs
lds-bench --target cuda-sm90a --cases $C --prepare build/d9/new
lds-bench --target cuda --cases $C --prepare build/d9/new89
lds-run --target cuda-sm90a --prepare build/d9/v90 $P/matmul/*.mlir $P/matmul_epilogue/*.mlir $P/conv/fhwc_3x3_s1_f16_2x16x16x64_128.mlir $P/conv/pad_fhwc_3x3_s2_bias_relu_f16_2x17x13x32_24.mlir
lds-run --target cuda --prepare build/d9/v89 $P/matmul/*.mlir $P/matmul_epilogue/*.mlir
git stash
lds-bench --target cuda-sm90a --cases $C --prepare build/d9/old
lds-bench --target cuda --cases $C --prepare build/d9/old89
git stash pop
