#!/bin/bash
# On the H200 (one call, `build/dex` and `.whl` carried): the values of prepare.sh's exports,
# each compiled once with its sequence dynamic and run at its length, every dispatch ldsopt's.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/dex/*/; do
  echo "== $d"; timeout 100 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror"
done | tee $OUT/values.txt
