#!/bin/bash
# On the H200 (or H100), from the repository's root, .whl and build/share carried: the folders
# prepare.sh made, run as ../fence-d844df1/run.sh runs its own (values, the per-dispatch table,
# 12 layers a call in every runtime mode against IREE's default and the PyTorch twin eager and
# in one CUDA graph, the kernels' durations by ncu), then packed into one archive: a call
# returns at most 8 files. Usage: run.sh NAME...
BUILD=build/share bash "$(dirname "$0")/../fence-d844df1/run.sh" "$@"
(cd $OUT && tar czf folders.tgz */ && rm -rf */)
