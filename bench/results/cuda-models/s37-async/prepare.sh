#!/bin/bash
# Here, from the repository's root (PATH with the venv's tools): $BUILD (build/s37 by default)
# for run.sh, the
# suite's blocks at base size (f16, 12 layers a call, cuda-sm90a) by the default program
# pipeline, as ../fence-d844df1/prepare.sh prepares them; `prepare.sh BLOCK...`.
set -eu
BUILD=${BUILD:-build/s37} bash bench/results/cuda-models/fence-d844df1/prepare.sh "$@"
