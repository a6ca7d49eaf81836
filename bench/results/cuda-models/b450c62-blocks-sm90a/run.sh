#!/bin/bash
# On the H200: program_bench of each prepared block folder named (build/b/NAME), into
# $OUT/NAME, under every runtime mode of timing.RUNTIME_MODES. For this folder's figures two
# modes were added there for the call (README.md says which; not kept).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for b in "$@"; do
  timeout 400 python -m ldsopt.measure.program_bench build/b/$b --repetitions 2 --out $OUT/$b 2>&1 | grep -v Warning | tee $OUT/$b.log
  rm -f $OUT/$b/program_results.png
done
