#!/bin/bash
# Here (no GPU), from the repository root: DIR/def and DIR/p, lds-bench --prepare of the large
# products as the cases define them (f32 out) and with cuBLAS's output (the `_cast` cases: f16
# out), under the default pipeline, with ldsopt-matmul-lds{persistent=true}, and both with
# the output stage at 3 LDS tiles (o3, po3). Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"
export PATH=$PWD/.venv/bin:$PATH
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
C=matmul_NN_4096x4096x4096_f16_cast,matmul_NN_8192x8192x1024_f16_cast,matmul_NN_4096x4096x4096_f16,matmul_NN_8192x8192x1024_bf16
lds-bench --target cuda-sm90a --cases $C --prepare "$dir/def"
lds-bench --target cuda-sm90a --cases $C --pipeline "$(with persistent=true)" --prepare "$dir/p"
# the output through an LDS stage (16-byte row pieces), which 3 LDS tiles of operands leave room for
lds-bench --target cuda-sm90a --cases $C --pipeline "$(with output-lds=true stages=3)" --prepare "$dir/o3"
lds-bench --target cuda-sm90a --cases $C --pipeline "$(with persistent=true output-lds=true stages=3)" --prepare "$dir/po3"
