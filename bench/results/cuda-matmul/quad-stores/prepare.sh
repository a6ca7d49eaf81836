#!/bin/bash
# Here (no GPU), from the repository root, at 272431e (which adds quad_stores.py): DIR/vals/T/P,
# small products whose output leaves by direct stores (no output stage) prepared by lds-run for
# values: on sm_90a (wgmma, 128x256 tiles: no room for the stage) and on sm_89 PTX (mma.sync,
# output-lds=false); DIR/time/{base,quad}: lds-bench --prepare of the large products with f16
# and f32 out, base built from the parent commit's ldsopt/ (a worktree), quad from this one.
# Usage: prepare.sh DIR
set -euo pipefail
dir=${1:?DIR}; rm -rf "$dir"; mkdir -p "$dir/src"
export PATH=$PWD/.venv/bin:$PATH
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
python - "$dir/src" <<'PY'
import sys
from ldsopt.measure import cases
out = sys.argv[1]
programs = {
    "nn_f16_cast_128x512x512": cases._matmul_epilogue(0, 128, 512, 512, "kn", "cast"),
    "nn_f16_bias_residual_128x512x128": cases._matmul_epilogue(0, 128, 512, 128, "kn", "bias_residual"),
    "nt_f16_bias_gelu_128x512x192": cases._matmul_epilogue(0, 128, 512, 192, "nk", "bias_gelu"),
    "batch_nt_f16_scale_2x128x256x64": cases._matmul_epilogue(2, 128, 256, 64, "nk", "scale"),
    "nn_f16_f32out_128x512x256": cases._matmul(128, 512, 256, "f16", "mk", "kn"),
}
for name, case in programs.items():
    open(f"{out}/{name}.mlir", "w").write(case.mlir)
PY
lds-run --target cuda-sm90a --require-ldsopt --pipeline "$(with tiles=128x256x8x16)" --prepare "$dir/vals/sm90a" \
  "$dir"/src/*.mlir > "$dir/vals-sm90a.log" 2>&1
lds-run --target cuda --require-ldsopt --pipeline "$(with output-lds=false)" --prepare "$dir/vals/sm89" \
  "$dir"/src/*.mlir > "$dir/vals-sm89.log" 2>&1
C=matmul_NN_4096x4096x4096_f16_cast,matmul_NN_8192x8192x1024_f16_cast,matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NN_8192x8192x1024_bf16
lds-bench --target cuda-sm90a --cases $C --prepare "$dir/time/quad" > "$dir/time-quad.log" 2>&1
base=$(mktemp -d); trap 'git worktree remove --force "$base"' EXIT
git worktree add -q --detach "$base" 272431e~1
PYTHONPATH="$base" lds-bench --target cuda-sm90a --cases $C --prepare "$dir/time/base" > "$dir/time-base.log" 2>&1
du -sh "$dir"
