#!/bin/bash
# Here, from the repository's root: the suite's blocks at base size, f16, 12 layers a call, for
# cuda-sm90a, as lds-bench folders build/share/NAME, NAME = BLOCK[_fold][_all][_cN]: BLOCK
# (gpt2_block, llama_block, encoder_layer) with the default program pipeline, _fold with
# ldsopt-fold-norm appended, _all with ldsopt-transpose-weights{mode=all}, _cN with
# ldsopt-matmul-lds{row-sums-cluster=N} (the folded products' row sums shared by N workgroups
# at most; without it, the default). A block's variants share its weights, inputs, IREE
# baseline and twin: those stay in its first folder alone (../fence-d844df1/shared-files.txt),
# and run.sh copies them back (carried files are limited to 64 MiB).
# Usage: prepare.sh NAME...
set -eu
shared=$(dirname "$0")/../fence-d844df1/shared-files.txt
pipelines() {  # NAME: its program pipeline, then its ldsopt pipeline
  python - "$1" <<'PY'
import re, sys
from ldsopt.run import driver, pipelines
name, p, lds = sys.argv[1], pipelines.PROGRAM_PIPELINE, driver.DEFAULT_PIPELINE
if "_all" in name:
    p = p.replace("ldsopt-transpose-weights,", "ldsopt-transpose-weights{mode=all},")
if "_fold" in name:
    p = p.replace("ldsopt-split-reduction)", "ldsopt-split-reduction, ldsopt-fold-norm)")
share = re.search(r"_c(\d+)$", name)
if share:
    lds = lds.replace("ldsopt-matmul-lds,", f"ldsopt-matmul-lds{{row-sums-cluster={share[1]}}},")
print(p)
print(lds)
PY
}
block() { echo "$1" | sed -E 's/(_fold|_all|_c[0-9]+)+$//'; }
python models/suite.py build/share/models --size base --dtype f16
declare -A first
for name in "$@"; do
  b=$(block $name)
  mapfile -t p < <(pipelines $name)
  rm -rf build/share/$name
  lds-bench build/share/models/${b}_base_f16.onnx --target cuda-sm90a --weights-to-archive --stack 12 \
    --program-pipeline "${p[0]}" --pipeline "${p[1]}" --prepare build/share/$name
  if [[ -n ${first[$b]:-} ]]; then
    for f in $(cat "$shared"); do rm -rf build/share/$name/$f; done
  else
    first[$b]=$name
  fi
  echo "$name ${first[$b]}" >> build/share/variants.txt
done
