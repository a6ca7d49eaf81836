#!/bin/bash
# Here: long-K f16 products + bias + residual whose unsplit wgmma grid is under one wave of the
# H200's 132 SMs (and two controls that fill it), as programs/*.mlir from ldsopt/measure/cases.py's
# template, each prepared by lds-bench for cuda-sm90a unsplit (default) and split over a
# cluster of 2 (`cluster-k=2`) into build/csk/{def,k2}/NAME; then the vmfbs gathered for
# bench/kernel_times.py into build/s13c/NAME_{def,k2,iree}/ (several where ldsopt-split-matmul
# splits K at the program level).
set -eu
cd "$(git rev-parse --show-toplevel)"
mkdir -p build/csk/src
python - <<'PY'
from ldsopt.measure import cases
for m, n, k in ((512, 768, 3072), (256, 768, 3072), (384, 768, 3072), (128, 768, 3072), (512, 1024, 4096),
                (512, 512, 4096), (512, 768, 2048), (1024, 768, 3072), (2048, 768, 3072)):
    for b in ("kn", "nk"):
        c = cases._matmul_epilogue(0, m, n, k, b, "bias_residual")
        open(f"build/csk/src/{b}_{m}x{n}x{k}.mlir", "w").write(c.mlir)
PY
with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$1},'))"; }
rm -rf build/s13c
for f in build/csk/src/*.mlir; do
  n=$(basename $f .mlir)
  lds-bench $f --target cuda-sm90a --prepare build/csk/def/$n > /dev/null
  # A product the split does not fit is an error of the option (planner.split_fits): no k2 then.
  lds-bench $f --target cuda-sm90a --pipeline "$(with cluster-k=2)" --prepare build/csk/k2/$n > /dev/null 2>&1 || true
  mkdir -p build/s13c/${n}_iree && cp build/csk/def/$n/dispatches/iree-default/*.vmfb build/s13c/${n}_iree/
  for v in def k2; do
    [ -d build/csk/$v/$n/dispatches ] || continue
    mkdir -p build/s13c/${n}_$v && cp build/csk/$v/$n/dispatches/ldsopt/*.vmfb build/s13c/${n}_$v/
  done
  echo $n $(ls build/s13c/${n}_def | wc -l) $(ls build/s13c/${n}_k2 2>/dev/null | wc -l)
done
