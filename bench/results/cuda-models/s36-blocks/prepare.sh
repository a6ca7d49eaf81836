#!/bin/bash
# Here, from the repository's root (PATH with the venv's tools): build/s36 and build/s36k for
# run.sh. The suite's three blocks at base size (f16, 12 layers a call, cuda-sm90a) by the
# default program pipeline (../fence-d844df1/prepare.sh), GPT-2's also with
# ldsopt-fold-norm{stats=producer} appended (gpt2_block_prod: its shared files left to
# gpt2_block's folder, as prepare.sh leaves a variant's), and the FFN down chunk statistics'
# program (build/s36k/down_split, its dispatch benchmarks removed) for its values.
set -eu
BUILD=build/s36 bash bench/results/cuda-models/fence-d844df1/prepare.sh encoder_layer gpt2_block llama_block
P=$(python -c "from ldsopt.run import pipelines; print(pipelines.PROGRAM_PIPELINE.replace(
    'ldsopt-split-reduction)', 'ldsopt-split-reduction, ldsopt-fold-norm{stats=producer})'))")
lds-bench build/s36/models/gpt2_block_base_f16.onnx --target cuda-sm90a --weights-to-archive --stack 12 \
  --program-pipeline "$P" --prepare build/s36/gpt2_block_prod
for f in $(cat bench/results/cuda-models/fence-d844df1/shared-files.txt); do
  cmp -s <(cd build/s36/gpt2_block_prod && find $f -type f -exec md5sum {} + | grep -v vmfb) \
         <(cd build/s36/gpt2_block && find $f -type f -exec md5sum {} + | grep -v vmfb)
  rm -rf build/s36/gpt2_block_prod/$f
done
echo "gpt2_block_prod gpt2_block" >> build/s36/variants.txt
rm -rf build/s36k
lds-bench test/e2e/programs/matmul_chunk_stats/residual_chunks_f16_512x768x3072.mlir --target cuda-sm90a \
  --prepare build/s36k/down_split
rm -rf build/s36k/down_split/dispatches
