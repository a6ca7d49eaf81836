#!/bin/bash
# On the H200, one call: values of the dynamic matmul programs after 0fe0cc0's clamp
# (bench/results/cuda-dynamic/dynamic-nk/prepare.sh's folders but the two largest sm_89 ones,
# copied to build/dnk2); the PyTorch CNN export of test_torch.py (AdaptiveAvgPool2d(1)) for
# cuda-sm90a (build/s13p/cnn); lds-bench of ResNet-50's head exported from PyTorch
# (AdaptiveAvgPool2d(1) of 8x2048x7x7 f16, Flatten, Linear 2048 -> 1000: build/s13p/bench), and
# the kernel times (ncu) of its pool dispatch both ways.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
for d in build/dnk2/*/ build/s13p/cnn/; do
  case $d in *bert*) req=();; *) req=(--require-ldsopt);; esac
  echo "== $d"; timeout 100 python -m ldsopt.run.replay $d "${req[@]}" 2>&1 | grep -E "^PASS|^FAIL|rror"
done > $OUT/values.txt
timeout 300 python -m ldsopt.measure.program_bench build/s13p/bench --repetitions 3 --out $OUT/head 2>&1 | grep -v Warning > $OUT/head.log
rm -f $OUT/head/program_results.png
python3 bench/kernel_times.py 'build/s13p/bench/dispatches/*/module_main_dispatch_1_*.vmfb' 2>&1 | grep -v Warning > $OUT/pool_kernel_times.txt
grep -c PASS $OUT/values.txt; grep -v PASS $OUT/values.txt | grep -v "^==" ; cat $OUT/pool_kernel_times.txt; grep -E "PASS|FAIL|^\| [0-9]|ldsopt:|IREE's default" $OUT/head/program_results.md
