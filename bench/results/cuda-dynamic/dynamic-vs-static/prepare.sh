#!/bin/bash
# Here, from the repository's root: the suite's BERT-base layer twin (f16, SDPA) exported with a
# dynamic sequence (up to 512), compiled for cuda-sm90a three ways, each run at 512 tokens:
#   static   the export specialized to 1x512 before it is compiled (what a fixed shape gets)
#   dynamic  compiled once with the sequence dynamic (`--keep-dynamic`: a server's module);
#            at 3cc6a4b, before ldsopt-fuse-projections took dynamic shapes (README, first call)
#   dynamic2 the same at the commit after it (README, second call)
#   iree     IREE's default of the dynamic module (`--keep-dynamic --baseline`)
# into build/dvs/* (ignored by git); the weights once, the other folders' archives links to it.
set -eu
rm -rf build/dvs build/dvs-src
python - <<'PY'
import torch
import ldsopt.torch as lt
from ldsopt.models import suite, torch_twins
size = suite.SIZES["base"]
torch.manual_seed(0)
model = torch_twins.of_model(suite.encoder_layer(size, "f16"), "float16")
lt.export(model, (torch.randn(1, size.seq, size.hidden, dtype=torch.float16),), "build/dvs-src",
          dynamic_shapes={"x": {1: torch.export.Dim("seq", min=2, max=size.seq)}})
print(size.seq, size.hidden)
PY
run() {  # run NAME ARGS...
  local name=$1; shift
  lds-run build/dvs-src/export/model.mlir --target cuda-sm90a --parameters model=build/dvs-src/parameters/model.irpa \
    --input-shape 0=1x512x768 "$@" --prepare build/dvs/$name
}
run static --require-ldsopt
run dynamic --keep-dynamic --require-ldsopt
run iree --keep-dynamic --baseline
# The same weights, inputs and reference in each folder: kept once (the carry limit of 64 MiB).
for name in dynamic iree; do
  for f in build/dvs/$name/parameters/*.irpa; do
    ln -sf "../../static/parameters/$(basename "$f")" "$f"
  done
  for f in expected0.bin sensitivity0.bin input0.bin; do
    cmp -s build/dvs/static/$f build/dvs/$name/$f && ln -sf ../static/$f build/dvs/$name/$f
  done
done
rm -f build/dvs/*/*.mlir
du -sb build/dvs
