#!/bin/bash
# On the GPU machine, from the repository root: the tensor cores' issue peaks (tensor_peak.cu)
# and cuBLAS with 16-bit and f32 outputs (cublas_out_types.py). Usage: bench/tensor_peak/run.sh OUT
set -euo pipefail
out=${1:?OUT}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# wgmma m64n256k16 takes 128 accumulator operands; the inline assembly's list is generated.
python3 - "$work/wgmma_operands.inc" <<'PY'
import sys
n = 128
regs = ",".join(f"%{i}" for i in range(n))
outs = ", ".join(f'"+f"(d[{i}])' for i in range(n))
open(sys.argv[1], "w").write(f'#define WGMMA_REGS "{{{regs}}}"\n#define WGMMA_OUTS {outs}\n'
                             f'#define WGMMA_A "%{n}"\n#define WGMMA_B "%{n + 1}"\n')
PY
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -gencode arch=compute_90a,code=sm_90a -I"$work" -o "$work/tensor_peak" "$here/tensor_peak.cu"
"$work/tensor_peak" | tee "$out/tensor_peak.txt"
python3 "$here/cublas_out_types.py" | tee "$out/cublas_out_types.txt"
