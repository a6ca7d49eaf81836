#!/bin/bash
# Here, from the repository's root, after prepare.sh: build/s36cmp/encoder_layer for
# run_cmp.sh: build/s36/encoder_layer (IREE's default modules left out) with the same block's
# 12-layer call prepared at f4bff36 (session 29's H100 figures: 51.6 us a layer) beside its own,
# as a second stack variant (ldsopt-f4bff36) of its manifest.
set -eu
tree=$(mktemp -d)
trap 'git worktree remove --force "$tree"' EXIT
git worktree add -q --detach "$tree" f4bff36 && ln -s ../passes "$tree/ldsopt/passes"
(cd "$tree" && PYTHONPATH="$tree" lds-bench "$OLDPWD/build/s36/models/encoder_layer_base_f16.onnx" --target cuda-sm90a \
   --weights-to-archive --stack 12 --prepare "$OLDPWD/build/s36old/encoder_layer")
cmp build/s36old/encoder_layer/parameters/weights.irpa build/s36/encoder_layer/parameters/weights.irpa
rm -rf build/s36cmp && mkdir -p build/s36cmp && cp -r build/s36/encoder_layer build/s36cmp/
cd build/s36cmp/encoder_layer && rm -rf iree iree-stack && cp -r ../../s36old/encoder_layer/ldsopt-stack ldsopt-old-stack
python3 - <<'PY'
import json
m = json.load(open("manifest.json"))
m["stack"]["whole"] = {"ldsopt": "ldsopt-stack", "ldsopt-f4bff36": "ldsopt-old-stack"}
m["whole"] = {"ldsopt": m["whole"]["ldsopt"]}
m.pop("whole_errors", None)
json.dump(m, open("manifest.json", "w"), indent=1)
PY
