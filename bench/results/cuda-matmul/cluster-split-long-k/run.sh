#!/bin/bash
# On the H200, after prepare.sh: bench/kernel_times.py on every module of build/s13c.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
python3 bench/kernel_times.py 'build/s13c/*/*.vmfb' --out $OUT/kernel_times.json 2>&1 | grep -v Warning > $OUT/kernel_times.txt
cat $OUT/kernel_times.txt | awk '{print $1, $4, $10, $12, $13}'
