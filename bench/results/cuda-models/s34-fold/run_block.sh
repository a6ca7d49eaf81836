#!/bin/bash
# On the GPU machine, from the repository's root, build/s34 carried (folders of
# ../fence-d844df1/prepare.sh; the default's iree, iree-stack and dispatches/iree-default left
# behind: the default pipeline is compared with the folds, not with IREE). Once each: program_bench
# (values, 12 layers a call against the twin eager and in one CUDA graph), then the kernels' own
# durations (ncu), packed into $OUT/BLOCK.tgz (8 files come back).
# Usage: run_block.sh BLOCK VARIANT...   (VARIANT: a folder of build/s34, BLOCK's first)
set -u
b=$1; shift
source bench/device_rounds.sh; device_setup
blocks_once build/s34 "$@"
for v in "$@"; do
  timeout 60 python3 bench/kernel_times.py "build/s34/$v/dispatches/ldsopt/*${b}*.vmfb" > $OUT/$v/kernel_times.txt 2>&1
  grep -v "^#" $OUT/$v/kernel_times.txt | sed 's/ *build.*dispatch_/ /' | head -8
done
(cd $OUT && tar czf $b.tgz "$@" $(printf '%s.log ' "$@") && rm -rf "$@" $(printf '%s.log ' "$@"))
