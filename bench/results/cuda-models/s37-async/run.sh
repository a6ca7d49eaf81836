#!/bin/bash
# On the GPU machine, from the repository's root, $BUILD/BLOCK carried (build/s37 by default;
# prepare.sh): `run.sh BLOCK...` runs program_bench once on each block (the awaited call, the
# async stack's calls back to back chained and independent, the twin; values) into $OUT/BLOCK,
# then traces
# (bench/program_timeline.py --api) the awaited stack in graphs mode and the async stack's
# calls back to back both ways in two runtime modes into $OUT/trace-BLOCK.txt; all packed
# into $OUT/s37.tgz.
set -u
source bench/device_rounds.sh; device_setup > /dev/null
for b in "$@"; do
  d=${BUILD:-build/s37}/$b
  timeout 200 python -m ldsopt.measure.program_bench $d --repetitions 1 --out $OUT/$b 2>&1 | grep -v Warning > $OUT/$b.log
  rm -f $OUT/$b/program_results.png
  grep -hE "^- (ldsopt|IREE|PyTorch|values of)|^Values" $OUT/$b/program_results.md
  {
    timeout 60 python3 bench/program_timeline.py $d/ldsopt-stack --mode graphs --layers 12 --api
    for m in graphs default; do
      for w in chained independent; do
        timeout 60 python3 bench/program_timeline.py $d/ldsopt-async-stack --mode $m --layers 12 --calls 30 \
          --back-to-back $w --api
      done
    done
  } 2>&1 | grep -v -i warn > $OUT/trace-$b.txt
  grep -A2 "ldsopt-.*stack" $OUT/trace-$b.txt
done
(cd $OUT && tar czf s37.tgz --exclude '*.tgz' --exclude gpu.txt . 2>/dev/null)
find $OUT -mindepth 1 ! -name '*.tgz' ! -name gpu.txt -delete
