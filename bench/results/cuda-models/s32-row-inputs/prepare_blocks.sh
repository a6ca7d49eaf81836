#!/bin/bash
# From the repository root (about 10 minutes): build/s32b/gpt2_block and gpt2_block_prod, GPT-2's
# base block for cuda-sm90a, 12 layers a call, by the default program pipeline and with
# ldsopt-fold-norm{stats=producer} appended (../fence-d844df1/prepare.sh's `_prod` variant).
set -eu
export PATH=$PWD/.venv/bin:$PATH
rm -rf build/s32b
BUILD=build/s32b bash "$(dirname "$0")/../fence-d844df1/prepare.sh" gpt2_block gpt2_block_prod
