#!/bin/bash
# On the H200, after prepare.sh: GPT-2's products with K x N weights under each wgmma variant
# of build/s13w (ldsopt only), around the default with IREE's default and PyTorch.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
R=/tmp/w; mkdir -p $R
python -m ldsopt.measure.bench_replay build/s13w/def --repetitions 3 --out $R/def > $R/def.log 2>&1
for v in k2 k4 t64 t64k2 t64k4 t128 t128k2 t128k4 def; do
  echo "== $v"
  python -m ldsopt.measure.bench_replay build/s13w/$v --variants ldsopt --no-torch --repetitions 3 --min-time 0.1s \
    --out $R/$v 2>&1 | grep "^| matmul" | awk -F'|' '{print $2, $4}'
done | tee $R/sweep.txt
tar -C $R -czf $OUT/sweep.tar.gz .
