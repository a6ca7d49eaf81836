#!/bin/bash
# Here (no GPU), from the repository root: build/pp/base (the large wgmma products as the default
# pipeline plans them) and build/pp/new (the same with ldsopt-matmul-lds{persistent=true}), and
# build/pers (the matmul_persistent programs under persistent=true on 128x256 tiles, for values)
# and build/pers_stage (matmul_persistent_stage's, on 128x128 tiles whose f32 output goes
# through the LDS output stage).
set -euo pipefail
export PATH=$PWD/.venv/bin:$PATH
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
C=matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16,matmul_NN_8192x8192x1024_bf16,matmul_NT_4096x4096x4096_bf16
rm -rf build/pp build/pers build/pers_stage
lds-bench --target cuda-sm90a --cases $C --prepare build/pp/base
lds-bench --target cuda-sm90a --cases $C --pipeline "$(with persistent=true)" --prepare build/pp/new
lds-run --target cuda-sm90a --pipeline "$(with persistent=true tiles=128x256x8x16)" --prepare build/pers \
  test/e2e/programs/matmul_persistent/*.mlir
lds-run --target cuda-sm90a --pipeline "$(with persistent=true tiles=128x128x8x8 workgroups-per-cu=1)" \
  --prepare build/pers_stage test/e2e/programs/matmul_persistent_stage/*.mlir
