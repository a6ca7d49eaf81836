#!/bin/bash
# Here, from the repository's root: transformers' GPT-2 and Llama (and BERT) of BERT-base's
# width, one layer, f16, sdpa, 512 tokens, exported by ldsopt.torch (which rewrites their
# masks' ops for IREE's import) and compiled for CUDA on Hopper (cuda-sm90a: wgmma) with IREE's
# default beside. About 19-22 MiB a folder: carry one a call beside the runtime wheel.
#   bash bench/results/cuda-torch/hf-decoders/prepare.sh gpt2 llama
set -eu
for M in "$@"; do
  rm -rf build/hf/$M
  python models/transformers_base.py build/hf/$M --model $M --dtype f16 --attn sdpa --seq 512 --target cuda-sm90a
done
