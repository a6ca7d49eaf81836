#!/bin/bash
# On the H200 (one call): values of ldsopt-attention's kernels of a dynamic sequence, compiled
# here with their dims dynamic (`--keep-dynamic`) and run at one length each. Prepared with
#   P=test/e2e/programs/attention_dynamic D=bench/results/cuda-dynamic/attention
#   lds-run PROG --target T --keep-dynamic --require-ldsopt --input-shape ... --prepare $D/T-NAME
# for T = cuda (mma.sync; FMA for f32 and decode) and cuda-sm90a (wgmma):
#   $P/rows_keys_f16_2x3xMxK2x64.mlir   0=2x3xMx64 1=2x3xKx64 2=2x3xKx64      rows-keys-MxK: 37x45 (both T), 67x300, 1x1;
#                                                                              131x300 (cuda-sm90a)
#   $D/causal_f16_1x4xSx64.mlir          0,1,2=1x4x200x64                      causal-f16-200 (both T)
#   $P/keys_decode_f16_1x2x1xK2x128.mlir 1,2=1x2x400x128                       decode-400
#   $P/causal_f32_1x2xSx32.mlir          0,1,2=1x2x131x32                      causal-f32-131
#   $P/mask_rows_f32_1x2xMx60x80.mlir    0=1x2x131x80 3=131x60                 mask-rows-131
#   $P/vt_keys_f16_2xSx64.mlir           0,1=2x37x64 2=2x64x37                 vt-keys-f16-37 (FMA)
#   the suite BERT twin (ldsopt.torch.export of models.torch_twins.of_model(suite.encoder_layer, small), x dim 1 Dim 2..64),
#   --parameters model=IRPA 0=1x13x32                                          bert-twin-13 (8 of 8 dispatches ldsopt's)
#   the suite Llama twin likewise (x dim 1 Dim 2..16): llama-twin-13 (10 of 10 a call)
# The prepared folders (binaries) are not committed: regenerate them with the commands above.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for d in bench/results/cuda-dynamic/attention/*/; do echo "== $d"; timeout 100 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "^PASS|^FAIL|rror"; done | tee $OUT/values.txt
