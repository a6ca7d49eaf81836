#!/bin/bash
# On the GPU machine, from the repository's root, with build/s36t's blocks carried (each block's
# 12-layer module and parameter archive copied from build/s36): `run_where.sh BLOCK...` traces
# each block's 12-layer call in graphs and default modes (bench/program_timeline.py at c245eec:
# kernels, idle GPU between them, copies, the GPU without a kernel between calls) into
# $OUT/where-BLOCK.txt.
set -u
source bench/device_rounds.sh; device_setup > /dev/null
for b in "$@"; do
  for m in graphs default; do
    timeout 80 python3 bench/program_timeline.py build/s36t/$b/ldsopt-stack --mode $m --layers 12 2>&1 | grep -v -i warn
  done > $OUT/where-$b.txt
  grep -h "per call\|between calls\|copies and" $OUT/where-$b.txt
done
