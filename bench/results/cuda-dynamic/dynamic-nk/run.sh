#!/bin/bash
# On the H200 (one call, `build/dnk` and `.whl` carried): values of ldsopt-matmul-lds's matmuls of
# a dynamic N and K, compiled here by prepare.sh with their dims dynamic, each run at its shapes
# (the BERT without --require-ldsopt: its pooler's matmul of one token is IREE's).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/dnk/*/; do
  case $d in *bert*) req=();; *) req=(--require-ldsopt);; esac
  echo "== $d"; timeout 100 python -m ldsopt.run.replay $d "${req[@]}" 2>&1 | grep -E "^PASS|^FAIL|rror"
done | tee $OUT/values.txt
