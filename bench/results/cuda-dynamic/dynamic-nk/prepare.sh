#!/bin/bash
# Here, from the repository's root: compile ldsopt-matmul-lds's matmuls of a dynamic N and K with
# their dims dynamic, for cuda (sm_89 PTX: mma.sync, or FMA for f32) and cuda-sm90a (wgmma where
# its 16-byte copies allow, else mma.sync), each with its inputs and reference, into
# build/dnk/T-CASE (ignored by git); run.sh replays them on the H200.
set -eu
P=test/e2e/programs/dynamic
prep() {  # prep TARGET CASE PROGRAM SHAPE...
  local t=$1 case=$2 prog=$3 i=0 args=()
  shift 3
  for s in "$@"; do args+=(--input-shape "$i=$s"); i=$((i + 1)); done
  lds-run "$prog" --target "$t" --keep-dynamic --require-ldsopt "${args[@]}" --prepare "build/dnk/$t-$case"
}
rm -rf build/dnk build/dnk-bert
for T in cuda cuda-sm90a; do
  # f16 into f32, M, N and K dynamic (A [b, m, k], B [b, n, k]) + tanh: mma.sync on both
  prep $T mnk-1x1x1 $P/batch_matmul_mnk_f16.mlir 2x1x1 2x1x1
  prep $T mnk-37x5x13 $P/batch_matmul_mnk_f16.mlir 2x37x13 2x5x13
  prep $T mnk-300x509x131 $P/batch_matmul_mnk_f16.mlir 2x300x131 2x509x131
  # Q K^T NT f16, M and N dynamic: wgmma on sm_90a (its cp.async rows clamped to N - 1)
  prep $T qk-nt-37x131 $P/batch_matmul_qk_nt_f16.mlir 2x37x64 2x131x64
  prep $T qk-nt-509x300 $P/batch_matmul_qk_nt_f16.mlir 2x509x64 2x300x64
  # TN f16 over a dynamic K: wgmma on sm_90a (its copies zero-filled past K, the prologue's too)
  prep $T tn-k-1 $P/matmul_tn_k_f16.mlir 1x128 1x64
  prep $T tn-k-37 $P/matmul_tn_k_f16.mlir 37x128 37x64
  prep $T tn-k-509 $P/matmul_tn_k_f16.mlir 509x128 509x64
  # eager attention's f32 Q K^T (M, N) and P V (M, K), FMA on CUDA (mma.sync would round to tf32)
  prep $T qkt-131x7 $P/batch_matmul_qkt_f32.mlir 2x131x16 2x16x7
  prep $T pv-37x131 $P/batch_matmul_pv_f32.mlir 2x37x131 2x131x16
  # a dynamic N with a bias of its length; a dynamic K alone
  prep $T n-bias-131 $P/matmul_n_bias_f32.mlir 33x40 40x131 131
  prep $T k-131 $P/matmul_k_f32.mlir 33x131 131x48
done
# The transformers BERT of test_torch.py (eager attention) exported with a dynamic sequence, at
# 11 and 29 tokens: its Q K^T (M, N) and P V (M, K) among 11 of 12 dispatches ldsopt's (cuda
# only: its f32 matmuls take the same FMA kernels on sm_90a).
python - <<'PY'
import sys
import torch
sys.path.insert(0, "test/e2e")
import test_torch as tt  # noqa: E402
import ldsopt.torch as lt  # noqa: E402
lt.export(tt.tiny("bert"), (tt.ids(),), "build/dnk-bert", dynamic_shapes={"input_ids": {1: torch.export.Dim("s", max=32)}})
PY
for L in 11 29; do
  lds-run build/dnk-bert/export/model.mlir --target cuda --parameters model=build/dnk-bert/parameters/model.irpa \
    --input-shape 0=1x$L --keep-dynamic --prepare build/dnk/cuda-bert-$L
done
