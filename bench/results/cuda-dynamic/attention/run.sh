#!/bin/bash
# On the H200 (one call, `build/dattn` and `.whl` carried): values of ldsopt-attention's kernels
# of a dynamic sequence, compiled here by prepare.sh with their dims dynamic (`--keep-dynamic`)
# and run at one length each; the suite twins' whole exports are in ../exports/.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/dattn/*/; do echo "== $d"; timeout 100 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror"; done | tee $OUT/values.txt
