#!/bin/bash
# On the H200: bench/kernel_times.py (dispatch time in a batch, and the kernel's own duration by
# ncu) of the per-dispatch table's dispatches near the floor, ldsopt's and IREE's, copied from
# the lds-bench folders into build/s13k/LABEL/VARIANT.vmfb; the dispatch of nothing
# (bench/dispatch_floor.mlir) both ways; FFN down 512x768x3072 + bias + residual under four
# wgmma plans (`../../cuda-matmul/gpt2-products-sweep/`).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
python3 bench/kernel_times.py 'build/s13k/*/*.vmfb' --out $OUT/kernel_times.json 2>&1 | grep -v Warning | tee $OUT/kernel_times.txt
