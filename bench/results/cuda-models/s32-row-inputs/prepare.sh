#!/bin/bash
# From the repository root: build/ri/out/NAME-*.vmfb, the dispatch benchmark module of the QKV
# product plain (../s31-fold-diag/qkv_plain.mlir), folded with its row sums in the K loop
# (../s31-fold-diag/qkv_fold.mlir) and with its row values loaded (qkv_rows_loaded.mlir here),
# each as lds-bench plans it for cuda-sm90a.
set -eu
export PATH=$PWD/.venv/bin:$PATH
here=$(dirname "$0"); rm -rf build/ri; mkdir -p build/ri/out
for p in $here/qkv_rows_loaded $here/../s31-fold-diag/qkv_plain $here/../s31-fold-diag/qkv_fold; do
  n=$(basename $p)
  lds-bench $p.mlir --target cuda-sm90a --no-torch --prepare build/ri/$n > build/ri/$n.log 2>&1
  for f in build/ri/$n/dispatches/ldsopt/*.vmfb; do cp $f build/ri/out/$n-$(basename $f); done
done
