#!/bin/bash
# On the H200 (one call): values of ldsopt-matmul-lds's dynamic-M matmuls, and of the dynamic
# transposes, compiled here with their dims dynamic and run at one shape each:
#   P=test/e2e/programs/dynamic
#   lds-run $P/batch_matmul_bias_tanh_f16.mlir --target T --keep-dynamic --require-ldsopt \
#     --input-shape 0=2xMx32 --input-shape 1=2x32x48 --input-shape 2=48 --prepare build/dm/T-bmm-M  (M = 1, 37, 300)
#   lds-run $P/matmul_bias_f32.mlir ... 0=300x64 1=64x48 2=48 --prepare build/dm/T-mm-300
#   lds-run $P/matmul_tn_f32.mlir ... 0=64x300 1=64x48 --prepare build/dm/T-tn-300
#   lds-run bench/results/cuda-dynamic/dynamic-m/ffn_up_dyn.mlir ... 0=509x768 1=768x1024 2=1024 --prepare build/dm/T-ffn-509
# for T = cuda (mma.sync) and cuda-sm90a (wgmma, cp.async: TMA refuses dynamic shapes).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in build/dm/*/; do echo "== $d"; timeout 100 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror"; done | tee $OUT/values.txt
# The dynamic copies of ldsopt-lower-copy (a6b80b0), in a second call:
#   lds-run test/e2e/programs/dynamic/split_f32.mlir --target cuda --keep-dynamic --require-ldsopt --input-shape 0=300x96 --prepare build/lc/split300
#   lds-run test/e2e/programs/dynamic/split_odd_f16.mlir --target cuda-sm90a --keep-dynamic --require-ldsopt --input-shape 0=131x75 --prepare build/lc/odd131
# replayed the same way (for d in build/lc/*/), into values-copies.txt.
