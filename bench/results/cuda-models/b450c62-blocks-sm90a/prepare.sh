#!/bin/bash
# Run here (no GPU): the suite's three blocks at base size, 12 layers a call, and the
# ResNet-style CNN, for cuda-sm90a (M: `python models/suite.py M --size base --dtype f16`).
set -e
M=${M:-/work/scratch/m}
for b in gpt2_block encoder_layer llama_block; do
  lds-bench $M/${b}_base_f16.onnx --target cuda-sm90a --weights-to-archive --stack 12 --prepare build/b/$b
done
lds-bench $M/resnet_cnn_base_f16.onnx --target cuda-sm90a --weights-to-archive --prepare build/b/resnet_cnn
# ResNet-50's convolution shapes (every conv case of lds-bench), with IREE's default and PyTorch.
lds-bench --target cuda-sm90a --cases $(lds-bench --list | awk '{print $1}' | grep "^conv_" | paste -sd,) --prepare build/b/conv
