#!/bin/bash
# On the GPU machine, from the repository's root, with build/s36's blocks carried (prepare.sh;
# the carried files allow one block a call): `run.sh BLOCK...` times each block once
# (program_bench: the call alone, 12 layers a call, the twin eager and in one CUDA graph, each
# dispatch alone, the stack's values against the twin), then traces each 12-layer call
# (bench/program_timeline.py: kernels and idle GPU between them) and its twin's graph
# (bench/twin_kernels.py); with build/s36k carried, replays the FFN down chunk statistics'
# program for values. All of it is packed into $OUT/s36-BLOCK.tgz (few files come back).
set -u
source bench/device_rounds.sh; device_setup > /dev/null
blocks_once build/s36 "$@"
for b in "$@"; do
  [[ $b == *_prod ]] && continue
  timeout 80 python3 bench/program_timeline.py build/s36/$b/ldsopt-stack --mode graphs --layers 12 2>&1 \
    | grep -v -i warn > $OUT/timeline-$b.txt
  timeout 60 python3 bench/twin_kernels.py build/s36/$b 2>&1 | grep -v -i warn > $OUT/twin-$b.txt
  grep -h "per call" $OUT/timeline-$b.txt; grep -h "kernel sum" $OUT/twin-$b.txt
done
if [ -d build/s36k ]; then
  timeout 60 python -m ldsopt.run.replay build/s36k/down_split/ldsopt --require-ldsopt 2>&1 | tail -6 > $OUT/values.txt
  tail -1 $OUT/values.txt
fi
(cd $OUT && tar czf s36-$1.tgz --exclude '*.tgz' --exclude gpu.txt . 2>/dev/null)
find $OUT -mindepth 1 ! -name '*.tgz' ! -name gpu.txt -delete
