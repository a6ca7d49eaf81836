#!/bin/bash
# On the H200, from the repository root: the per-dispatch table of every folder prepare.sh
# made, packed as $OUT/dispatches.tar.gz. Usage: run.sh DIR
set -u
dir=${1:?DIR}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
R=/tmp/r; mkdir -p $R
for d in "$dir"/*/; do
  b=$(basename "$d")
  timeout 300 python -m ldsopt.measure.program_bench "$d" --dispatches-only --repetitions 3 --out $R/$b > $R/$b.log 2>&1
  grep "^| [0-9]" $R/$b/program_results.md | sed "s/^/$b /"
done
tar -C $R -czf $OUT/dispatches.tar.gz .
