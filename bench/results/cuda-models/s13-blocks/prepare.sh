#!/bin/bash
# Here, from the repository's root: the suite's blocks at base size, f16, 12 layers a call.
set -eu
python models/suite.py build/s13b/models --size base --dtype f16
for M in "$@"; do
  rm -rf build/s13b/$M
  lds-bench build/s13b/models/${M}_base_f16.onnx --target cuda-sm90a --weights-to-archive --stack 12 --prepare build/s13b/$M
done
