#!/bin/bash
# On the H200: the per-dispatch table of each model folder carried under build/s13d (its
# manifest.json and dispatches/ only: `program_bench --dispatches-only`), into R/NAME, packed
# as $OUT/dispatches.tar.gz (a call returns at most 8 files).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
for d in build/s13d/*/; do
  b=$(basename $d)
  timeout 300 python -m ldsopt.measure.program_bench $d --dispatches-only --repetitions 3 --out $R/$b 2>&1 \
    | grep -v Warning > $R/$b.log
  rm -f $R/$b/program_results.png $R/$b/program_results.json.tmp
  grep "^| [0-9]" $R/$b/program_results.md | sed "s/^/$b /"
done
tar -C $R -czf $OUT/dispatches.tar.gz .
