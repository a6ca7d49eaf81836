set -x
cd /work/main
O=build/c3
rm -rf $O; mkdir -p $O
P(){ echo "builtin.module(ldsopt-attention, ldsopt-vector-distribute, ldsopt-dtl-layout{$1}, ldsopt-inthread-transpose, ldsopt-matmul-lds$2, ldsopt-window-reduce, ldsopt-preload-transposed, ldsopt-lower-elementwise, ldsopt-lower-copy, canonicalize, cse)"; }
C=conv_nhwc_8x56x56x64_256x1x1_s1_f16,conv_nhwc_8x56x56x256_64x1x1_s1_f16,conv_nhwc_8x28x28x128_512x1x1_s1_f16,conv_nhwc_8x7x7x512_2048x1x1_s1_f16
.venv/bin/lds-bench --target cuda --prepare $O/conv/default --cases $C 2>&1 | tail -1
.venv/bin/lds-bench --target cuda --prepare $O/conv/all --cases $C --pipeline "$(P "grids=all k-bytes=128 stages=3")" 2>&1 | tail -1
.venv/bin/lds-bench --target cuda --prepare $O/conv/all64s4 --cases $C --pipeline "$(P "grids=all k-bytes=64 stages=4")" 2>&1 | tail -1
.venv/bin/lds-bench --target cuda-sm90a --prepare $O/conv/sm90a --cases $C 2>&1 | tail -1
.venv/bin/lds-bench M/resnet_cnn_base_f16.onnx --target cuda --prepare $O/cnn 2>&1 | tail -3
du -sh $O/*
