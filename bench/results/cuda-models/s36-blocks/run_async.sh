#!/bin/bash
# On the GPU machine, from the repository's root, build/s36a/BLOCK carried (made as prepare.sh
# makes build/s36, at a4119f2: --stack also prepares ldsopt-async-stack): `run_async.sh
# BLOCK...` replays each block once by program_bench, which now also issues the async stack's
# calls back to back (ldsopt/measure/back_to_back.py), into $OUT/s36-async.tgz.
set -u
source bench/device_rounds.sh; device_setup > /dev/null
for b in "$@"; do
  timeout 200 python -m ldsopt.measure.program_bench build/s36a/$b --repetitions 1 --out $OUT/$b 2>&1 \
    | grep -v Warning > $OUT/$b.log
  rm -f $OUT/$b/program_results.png
  grep -hE "^- (ldsopt|PyTorch|values of)|^Values" $OUT/$b/program_results.md
done
(cd $OUT && tar czf s36-async.tgz --exclude '*.tgz' --exclude gpu.txt . 2>/dev/null)
find $OUT -mindepth 1 ! -name '*.tgz' ! -name gpu.txt -delete
