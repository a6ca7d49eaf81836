#!/bin/bash
# On the H200: program_bench of each prepared block folder named (build/fold/NAME: values, the
# per-dispatch table, 12 layers a call under every runtime mode, the PyTorch twin eager and in
# one CUDA graph), then the kernels' own durations (ncu), into $OUT/NAME.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
for b in "$@"; do
  timeout 420 python -m ldsopt.measure.program_bench build/fold/$b --repetitions 2 --out $OUT/$b 2>&1 | grep -v Warning > $OUT/$b.log
  rm -f $OUT/$b/program_results.png
  grep -E "PASS|FAIL|per layer|us \(|^\| [0-9]" $OUT/$b/program_results.md | head -40
  timeout 120 python3 bench/kernel_times.py "build/fold/$b/dispatches/ldsopt/*.vmfb" > $OUT/$b/kernel_times.txt 2>&1
done
