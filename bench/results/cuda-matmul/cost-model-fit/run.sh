#!/bin/bash
# On the GPU machine, from the repository's root (carry .whl and DIR): run.sh DIR. Each
# variant of prepare.sh twice, alternated (bench_replay, ldsopt only; cuBLAS beside the first).
set -u
DIR=$1
. bench/device_rounds.sh; device_setup >/dev/null
replay_rounds "$DIR" default1 t64x128x8x81 t128x128x8x81 t128x256x8x161 t64x256x8x161 \
  default2 t64x128x8x82 t128x128x8x82 t128x256x8x162 t64x256x8x162
