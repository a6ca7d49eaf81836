#!/bin/bash
# On the H200 (one call, `build/dvs` and `.whl` carried): the modules' values, then their
# whole-program times in one run (iree-benchmark-module, each module's own inputs at 512). The
# first call ran static, dynamic and iree; the second dynamic2's values, then static, dynamic
# and dynamic2 (program_bench-fused.json).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in static dynamic iree; do
  echo "== $d"; timeout 150 python -m ldsopt.run.replay build/dvs/$d 2>&1 | grep -E "^PASS|^FAIL|rror"
done | tee $OUT/values.txt
python -m ldsopt.measure.program_bench build/dvs/static build/dvs/dynamic build/dvs/iree --repetitions 5 --out $OUT 2>&1 | tail -20
