#!/bin/bash
# On the GPU machine, from the repository's root, build/s36cmp carried (prepare_cmp.sh): the
# BERT layer's 12-layer call as prepared at this commit and at f4bff36 (same model, weights and
# runtime), timed in one program_bench run (each at its fastest runtime mode, three
# repetitions), then traced (bench/program_timeline.py, default and graphs modes: kernels,
# idle GPU inside a call, copies, and idle GPU between calls).
set -u
source bench/device_rounds.sh; device_setup > /dev/null
d=build/s36cmp/encoder_layer
timeout 200 python -m ldsopt.measure.program_bench $d --repetitions 3 --out $OUT/cmp 2>&1 | grep -v Warning > $OUT/cmp.log
grep -h "layers in one call\|twin" $OUT/cmp.log | grep -v "^ *$" | tail -8
for s in ldsopt-stack ldsopt-old-stack; do
  for m in default graphs; do
    timeout 60 python3 bench/program_timeline.py $d/$s --mode $m --layers 12 2>&1 | grep -v -i warn
  done
done > $OUT/timelines.txt
grep -h "per call\|between calls\|copies and" $OUT/timelines.txt
rm -f $OUT/cmp/program_results.png
(cd $OUT && tar czf s36-cmp.tgz --exclude '*.tgz' --exclude gpu.txt . 2>/dev/null)
find $OUT -mindepth 1 ! -name '*.tgz' ! -name gpu.txt -delete
