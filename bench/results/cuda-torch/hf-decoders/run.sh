#!/bin/bash
# There (the GPU machine), from the repository's root, carrying .whl and build/hf:
#   OUT=$OUT bash bench/results/cuda-torch/hf-decoders/run.sh gpt2 llama
# values against the reference and PyTorch; times of ldsopt, IREE's default, PyTorch eager,
# torch.compile and its CUDA graphs (torch_replay), into OUT/<model>/.
set -u
. bench/device_rounds.sh
device_setup
for M in "$@"; do
  mkdir -p "$OUT/$M"
  python -m ldsopt.run.torch_replay build/hf/$M > "$OUT/$M/replay.log" 2>&1
  cp build/hf/$M/torch_results.json "$OUT/$M/" 2>/dev/null
  tail -6 "$OUT/$M/replay.log"
done
