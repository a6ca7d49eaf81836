#!/usr/bin/env bash
# Dynamic-shape dispatches on the GPU: IREE's regression programs with dynamic dims
# (test/e2e/programs/regression/) compiled with their dims dynamic (`lds-run --keep-dynamic`).
#
#   bench/dynamic_ab.sh prepare DIR      # here (the compiler); e.g. DIR=.out/dynamic (6 MB)
#   bench/dynamic_ab.sh run DIR OUT      # on the GPU machine (runtime wheel and numpy)
#
# DIR/check/<case>: small sizes (primes, 1, non-multiples of a vector) with their references;
# `run` replays them all (--require-ldsopt). DIR/time/<case>/{dyn,iree-dyn,static}: serving
# sizes, aligned and not, prepared three ways: ldsopt on the dynamic program (`dyn`), IREE's
# default on it (`iree-dyn`), ldsopt on the program specialized to the sizes (`static`: what
# dynamism costs ldsopt's kernels). Their folders keep only the manifest and the module (the
# inputs of these sizes would not travel); `run` draws their inputs there (uniform in [1, 2],
# seeded) and times dyn against iree-dyn and against static (bench/ab_program.py), into
# OUT/<case>_dyn_vs_iree.json and OUT/<case>_dyn_vs_static.json.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
programs=$here/test/e2e/programs/regression

# case  program  lds-run input arguments (the 2nd and 3rd of LayerNorm: its row length as a
# value, and epsilon)
check_cases() {
  echo "softmax_3x37x129 softmax_dynamic_f32.mlir --input-shape 0=3x37x129"
  echo "softmax_2x5x4099 softmax_dynamic_f32.mlir --input-shape 0=2x5x4099"
  echo "max_sub_exp_3x37x131 max_sub_exp_dynamic_f32.mlir --input-shape 0=3x37x131"
  echo "softmax_row_65x1531 softmax_dynamic_row_f32.mlir --input-shape 0=65x1531"
  echo "softmax_row_65x1 softmax_dynamic_row_f32.mlir --input-shape 0=65x1"
  echo "layernorm_37x257 layernorm_dynamic_f32.mlir --input-shape 0=37x257 --input-shape 1=37x1 --input-shape 2=37x1"
  echo "abs_13x1031 abs_dynamic_f32.mlir --input-shape 0=13x1031"
  echo "add_rows_37 add_dynamic_rows_f32.mlir --input-shape 0=37x4 --input-shape 1=37x4"
  echo "reduce_min_37x1031 reduce_min_dynamic_f32.mlir --input-shape 0=37x1031"
}
time_cases() {
  echo "softmax_32x128x4096 softmax_dynamic_f32.mlir --input-shape 0=32x128x4096"
  echo "softmax_32x128x4099 softmax_dynamic_f32.mlir --input-shape 0=32x128x4099"
  echo "max_sub_exp_32x128x4096 max_sub_exp_dynamic_f32.mlir --input-shape 0=32x128x4096"
  echo "softmax_row_65x50257 softmax_dynamic_row_f32.mlir --input-shape 0=65x50257"
  echo "layernorm_8192x768 layernorm_dynamic_f32.mlir --input-shape 0=8192x768 --input-shape 1=8192x1 --input-shape 2=8192x1"
  echo "layernorm_8192x771 layernorm_dynamic_f32.mlir --input-shape 0=8192x771 --input-shape 1=8192x1 --input-shape 2=8192x1"
  echo "abs_8192x4096 abs_dynamic_f32.mlir --input-shape 0=8192x4096"
  echo "abs_8191x4093 abs_dynamic_f32.mlir --input-shape 0=8191x4093"
  echo "reduce_min_4096x4096 reduce_min_dynamic_f32.mlir --input-shape 0=4096x4096"
}

ranges() {  # LayerNorm's row length and epsilon: positive
  [[ $1 == layernorm* ]] && echo "--input-range 1=100:400 --input-range 2=1e-6:1e-5" || true
}

slim() {  # only the manifest and the module
  local f
  for f in "$1"/*; do
    case ${f##*/} in manifest.json | *.vmfb) ;; *) rm -f "$f" ;; esac
  done
}

prepare() {
  local dir=$1 name prog args
  check_cases | while read -r name prog args; do
    # shellcheck disable=SC2046,SC2086
    lds-run "$programs/$prog" --target cuda $args $(ranges "$prog") --keep-dynamic --prepare "$dir/check/$name" | tail -1
  done
  time_cases | while read -r name prog args; do
    # shellcheck disable=SC2046,SC2086
    lds-run "$programs/$prog" --target cuda $args $(ranges "$prog") --keep-dynamic --prepare "$dir/time/$name/dyn" | tail -1
    # shellcheck disable=SC2046,SC2086
    lds-run "$programs/$prog" --target cuda $args $(ranges "$prog") --keep-dynamic --baseline --prepare "$dir/time/$name/iree-dyn" | tail -1
    # shellcheck disable=SC2046,SC2086
    lds-run "$programs/$prog" --target cuda $args $(ranges "$prog") --prepare "$dir/time/$name/static" | tail -1
    for v in dyn iree-dyn static; do slim "$dir/time/$name/$v"; done
  done
}

draw_inputs() {  # the inputs a slimmed folder's manifest names, drawn here
  "${PYTHON:-python3}" - "$1" <<'EOF'
import json, os, sys
import numpy as np
from ldsopt.run.tensor_file import Tensor
folder = sys.argv[1]
man = json.load(open(os.path.join(folder, "manifest.json")))
rng = np.random.default_rng(0)
for t in (Tensor(**t) for t in man["inputs"]):
    t.save(folder, rng.uniform(1.0, 2.0, t.shape))  # the programs here are f32
EOF
}

run() {
  local dir=$1 out=$2 case v
  mkdir -p "$out"
  "${PYTHON:-python3}" -m ldsopt.run.replay "$dir/check" --require-ldsopt || echo "check: failed (above)" >&2
  for case in "$dir"/time/*/; do
    case=${case%/}
    for v in dyn iree-dyn static; do draw_inputs "$case/$v"; done
    "${PYTHON:-python3}" "$here/bench/ab_program.py" "$case/dyn" "$case/iree-dyn" "$out/${case##*/}_dyn_vs_iree.json"
    "${PYTHON:-python3}" "$here/bench/ab_program.py" "$case/dyn" "$case/static" "$out/${case##*/}_dyn_vs_static.json"
  done
}

case ${1:-} in
  prepare) prepare "$2" ;;
  run) run "$2" "$3" ;;
  *) echo "usage: $0 prepare DIR | run DIR OUT" >&2; exit 2 ;;
esac
