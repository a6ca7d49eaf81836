#!/bin/bash
# (Calls 1-2, h100-call1/ and h100-call2/; call 1 ran it before --api and the direct module.)
# On the GPU machine, from the repository's root, build/s36a/BLOCK carried (prepared as
# s36-blocks/run_async.sh says; GPT-2's with ldsopt-async-direct from direct.py): `run.sh
# BLOCK...` runs s36-blocks/run_async.sh on each block (program_bench: the awaited call, the
# async stack's calls back to back chained and independent, the twin), then traces
# (bench/program_timeline.py --api: kernels, idle GPU, and the CUDA API calls a call makes) the
# awaited stack in graphs mode and the async stack's calls back to back both ways in two
# runtime modes, into $OUT/trace-BLOCK.txt; where ldsopt-async-direct is there, the same
# back-to-back timings and traces of it, and its outputs against the async stack's, into
# $OUT/direct-BLOCK.txt.
set -u
bash bench/results/cuda-models/s36-blocks/run_async.sh "$@"
source bench/device_rounds.sh; device_setup > /dev/null
trace() {  # FOLDER: the awaited call (if not async), then back to back both ways in two modes
  local m w
  for m in graphs default; do
    for w in chained independent; do
      timeout 60 python3 bench/program_timeline.py $1 --mode $m --layers 12 --calls 30 --back-to-back $w --api
    done
  done
}
for b in "$@"; do
  d=build/s36a/$b
  {
    timeout 60 python3 bench/program_timeline.py $d/ldsopt-stack --mode graphs --layers 12 --api
    trace $d/ldsopt-async-stack
  } 2>&1 | grep -v -i warn > $OUT/trace-$b.txt
  grep -A1 "ldsopt-.*stack" $OUT/trace-$b.txt
  [ -d $d/ldsopt-async-direct ] || continue
  {
    timeout 60 python3 bench/results/cuda-models/s37-async/same_outputs.py $d/ldsopt-async-stack $d/ldsopt-async-direct graphs
    for m in graphs default; do
      for w in "" --independent; do
        timeout 60 python3 -m ldsopt.measure.back_to_back $d/ldsopt-async-direct --mode $m --calls 100 $w
      done
    done
    trace $d/ldsopt-async-direct
  } 2>&1 | grep -v -i warn > $OUT/direct-$b.txt
  grep -E "^output|^\{|ldsopt-async-direct" $OUT/direct-$b.txt
done
