#!/bin/bash
# On the H200, from the repository root, carrying .whl and DIR: values, then times. Usage: run.sh DIR
set -u
dir=${1:?DIR}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
python -m ldsopt.run.replay "$dir/values" --require-ldsopt > $OUT/values.txt 2>&1; tail -3 $OUT/values.txt
python -m ldsopt.measure.bench_replay "$dir/bench" --out $OUT/bench > $OUT/bench.log 2>&1; tail -8 $OUT/bench.log
