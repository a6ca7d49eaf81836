#!/usr/bin/env bash
# The mma.sync matmul kernels' variants on the H200 (issue 36): compiled here, replayed there.
#
#   bench/matmul_sweep.sh prepare DIR     # here (the compiler): fills DIR (23 MiB, 4 minutes)
#   bench/matmul_sweep.sh replay DIR OUT [values|bench]
#                                         # there (runtime wheel, torch): values, then timings
#                                         # (or only one of them), one call of about 6 minutes
#
# prepare makes
# - DIR/values/NAME: `lds-run --target cuda --prepare` of every f16, bf16 and i8 matmul e2e
#   program (storage orders, tails, batch, epilogues, prologues, skinny, 16-bit results, split
#   K: the products mma.sync takes; f32 runs on FMA on CUDA) but the three of LARGE, with the
#   default pipelines; DIR/values-KNOB/NAME of some of them under the kernel options the
#   defaults do not take (KNOBS below: carried fragments; 128x256 tiles of 8 warps by cp.async
#   with carried fragments), so that each code path's values are checked on the GPU;
# - DIR/bench-default: `lds-bench --prepare` of the matmul cases (BERT-base's products, QKV
#   fused, with their epilogues and cast twins; the 4096^3 and 8192x8192x1024 products; the
#   split-K cases) with the default pipelines, replayed with IREE's default and cuBLAS beside;
# - DIR/bench-main: the same cases prepared by another checkout's lds-bench (`BASE=CHECKOUT`,
#   whose .venv has ldsopt installed: the commit this one is measured against), if given;
# - DIR/bench-VARIANT: the cases a variant is about, under the matmul passes' options
#   (VARIANTS below, each a step from the defaults: carried fragments, a fourth cp.async stage,
#   other tilings, split K, cp.async staging of the large products at 3 or 4 stages and 64 or
#   128 bytes of K, 128x256 tiles of 8 warps at one workgroup an SM), replayed for ldsopt
#   alone, 3 repetitions of 0.1 s.
# replay runs `python -m ldsopt.run.replay` on each value suite, then `python -m
# ldsopt.measure.bench_replay` on each bench folder into OUT/NAME, and prints each results.md.
# TARGET (default cuda), the case lists BERT_WIDE, BERT_NARROW, BIG and DEFAULT_CASES, the value
# folders VALUE_FOLDERS and ONLY (the variants and values-KNOBs to prepare, comma-separated;
# default all) may be set to try the script elsewhere: a lavapipe smoke test of both halves.
set -euo pipefail
mode=${1:?usage: bench/matmul_sweep.sh prepare DIR | replay DIR OUT [values|bench]}
dir=${2:?usage: bench/matmul_sweep.sh prepare DIR | replay DIR OUT [values|bench]}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/sweep_replay.sh
. "$here/bench/sweep_replay.sh"
target=${TARGET:-cuda}

# BERT-base's projections with their epilogues: QKV and FFN up (wide), attention's output and
# FFN down (768 wide: 96 tiles of 64x64 on 132 SMs); the large products.
BERT_WIDE=${BERT_WIDE-matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu}
BERT_NARROW=${BERT_NARROW-matmul_NN_512x768x768_f16_bias,matmul_NN_512x768x3072_f16_bias_residual}
BERT=$BERT_WIDE${BERT_WIDE:+${BERT_NARROW:+,}}$BERT_NARROW
BIG=${BIG-matmul_NN_4096x4096x4096_f16,matmul_TN_4096x4096x4096_f16,matmul_NT_4096x4096x4096_f16}

# name|cases|ldsopt-dtl-layout options|ldsopt-matmul-lds options|plan options of all three staging
# passes|program pipeline ('-': the default). The default pipeline's ldsopt-dtl-layout is
# `grids=auto k-bytes=128 stages=3`; SMALL is its `grids=small` half.
SMALL="grids=small k-bytes=128 stages=3"
VARIANTS=(
  "carry|$BERT,$BIG|$SMALL|carry-fragments=true||-"
  "s4|$BERT|grids=small k-bytes=128 stages=4|||-"
  "s4carry|$BERT|grids=small k-bytes=128 stages=4|carry-fragments=true||-"
  "t64x128|$BERT_WIDE|$SMALL||tiles=64x128x4x8|-"
  "t128x64|$BERT_WIDE|$SMALL||tiles=128x64x8x4|-"
  "t32x64|$BERT_NARROW|$SMALL||tiles=32x64x4x4|-"
  "split2|$BERT_NARROW|$SMALL|||split=2"
  "split4|$BERT_NARROW|$SMALL|||split=4"
  "dtl3|$BIG|grids=all k-bytes=64 stages=3|||-"
  "dtl4|$BIG|grids=all k-bytes=64 stages=4|||-"
  "dtl3carry|$BIG|grids=all k-bytes=64 stages=3|carry-fragments=true||-"
  "k128dtl3|$BIG|grids=all k-bytes=128 stages=3|||-"
  "t128x256|$BIG|grids=all k-bytes=64 stages=3||tiles=128x256x8x16 workgroups-per-cu=1|-"
  "t128x256carry|$BIG|grids=all k-bytes=64 stages=3|carry-fragments=true|tiles=128x256x8x16 workgroups-per-cu=1|-"
)
# name|program folders (under test/e2e/programs) or folder/program|the variant whose pipeline
# they take; their f16, bf16 and i8 programs
KNOBS=(
  "carry|matmul matmul_epilogue matmul_i8 matmul_f16_out|carry"
  "t128x256carry|matmul/nn_bf16_128x256x64 matmul/nn_f16_96x160x64 matmul/tn_f16_64x96x48 matmul/tt_bf16_96x160x64 matmul/batch_nt_f16_2x64x80x48_acc matmul/swapped_inputs_f16_48x72x40 matmul_epilogue/bias_f16_96x160x64 matmul_epilogue/gelu_f16_body_33x40x70|t128x256carry"
)
VALUE_FOLDERS=${VALUE_FOLDERS-matmul matmul_epilogue matmul_f16_out matmul_i8 matmul_named matmul_prologue matmul_skinny split_matmul matmul_large}
# Programs whose inputs take several MB each (the folder must stay under 35 MiB); the other
# skinny and split-K programs take the same kernel paths.
LARGE="matmul_skinny/m1_f16_1x512x4096 matmul_skinny/n5_f16_300x5x4096 split_matmul/nn_f16_bias_cast_64x64x8190"

# Whether program `folder/name` is one mma.sync takes (f16, bf16, i8; f32 runs on FMA there).
mma_program() { [[ ${1#*/} =~ (^|_)(f16|bf16|i8)(_|$) ]]; }

# `pass NAME OPTIONS`: the pipeline element.
pass() { local o; o=$(echo $2); if [ -n "$o" ]; then echo "$1{$o}"; else echo "$1"; fi; }

# The default pipeline with these options on its three matmul passes.
pipeline() {
  local dtl=$1 mm=$2 plan=$3
  echo "builtin.module(ldsopt-attention, ldsopt-vector-distribute, $(pass ldsopt-dtl-layout "$dtl $plan"), \
$(pass ldsopt-inthread-transpose "$plan"), $(pass ldsopt-matmul-lds "$mm $plan"), ldsopt-preload-transposed, \
ldsopt-lower-elementwise, canonicalize, cse)"
}

# The default program pipeline, its K split forced to `split=N`.
program_pipeline() {
  echo "builtin.module(ldsopt-raise-attention, ldsopt-fuse-projections, ldsopt-split-attention, \
ldsopt-split-matmul{splits=${1#split=}}, ldsopt-split-reduction)"
}

wanted() { [ -z "${ONLY:-}" ] || [[ ",$ONLY," == *",$1,"* ]]; }

variant() {  # name -> the variant's line
  local v
  for v in "${VARIANTS[@]}"; do [ "${v%%|*}" = "$1" ] && { echo "$v"; return; }; done
  echo "no variant $1" >&2; exit 2
}

prepare() {
  mkdir -p "$dir"
  local programs=$here/test/e2e/programs name f k names folder vname cases dtl mm plan program args
  for folder in $VALUE_FOLDERS; do
    for f in "$programs/$folder"/*.mlir; do
      name=$folder/$(basename "$f" .mlir)
      mma_program "$name" && [[ " $LARGE " != *" $name "* ]] || continue
      name=${name/\//.}
      lds-run "$f" --target "$target" --prepare "$dir/values/$name" >/dev/null
    done
  done
  for k in "${KNOBS[@]}"; do
    IFS='|' read -r name names vname <<<"$k"
    wanted "values-$name" || continue
    IFS='|' read -r _ _ dtl mm plan _ <<<"$(variant "$vname")"
    for f in $names; do
      if [ -d "$programs/$f" ]; then set -- "$programs/$f"/*.mlir; else set -- "$programs/$f.mlir"; fi
      for p in "$@"; do
        folder=$(basename "$(dirname "$p")")
        mma_program "$folder/$(basename "$p" .mlir)" || continue
        lds-run "$p" --target "$target" --prepare "$dir/values-$name/$folder.$(basename "$p" .mlir)" \
          --pipeline "$(pipeline "$dtl" "$mm" "$plan")" >/dev/null
      done
    done
  done
  local all=${DEFAULT_CASES-$("${PYTHON:-python3}" -c "from ldsopt.measure import cases
print(','.join(c.name for c in cases.CASES if 'matmul' in c.name))")}
  lds-bench --target "$target" --prepare "$dir/bench-default" --cases "$all"
  if [ -n "${BASE:-}" ]; then  # the cases that checkout knows
    local known
    known=$(cd "$BASE" && .venv/bin/python -c "import sys; from ldsopt.measure import cases
names = {c.name for c in cases.CASES}; print(','.join(n for n in sys.argv[1].split(',') if n in names))" "$all")
    "$BASE/.venv/bin/lds-bench" --target "$target" --prepare "$dir/bench-main" --cases "$known"
  fi
  for v in "${VARIANTS[@]}"; do
    IFS='|' read -r name cases dtl mm plan program <<<"$v"
    cases=$(echo "$cases" | tr -s ',' | sed 's/^,//; s/,$//')
    [ -z "$cases" ] || ! wanted "$name" && continue
    args=(--target "$target" --prepare "$dir/bench-$name" --cases "$cases" --pipeline "$(pipeline "$dtl" "$mm" "$plan")")
    [ "$program" != - ] && args+=(--program-pipeline "$(program_pipeline "$program")")
    lds-bench "${args[@]}"
  done
  # The IREE-default modules of the other folders are never timed (--variants ldsopt): dropped.
  find "$dir" -path "$dir/bench-default" -prune -o -type d -name iree-default -print0 | xargs -0 rm -rf
  du -sh "$dir"
}

replay() {
  local out=${3:?usage: bench/matmul_sweep.sh replay DIR OUT [values|bench]} part=${4:-all} v name
  mkdir -p "$out"
  [ "$part" = bench ] || replay_values "$out"
  [ "$part" = values ] || replay_bench_folders "$dir" "$out"
}

replay_values() {
  local out=$1 v name
  for v in "$dir"/values*; do
    name=${v##*/}
    "${PYTHON:-python3}" -m ldsopt.run.replay "$v" --require-ldsopt >"$out/$name.log" 2>&1 \
      || echo "$name: not all PASS" >&2
    grep -E "^(FAIL|error)" "$out/$name.log" || true
    echo "$name: $(tail -n 1 "$out/$name.log")"
  done
}

case $mode in
  prepare) prepare ;;
  replay) replay "$@" ;;
  *) echo "usage: bench/matmul_sweep.sh prepare DIR | replay DIR OUT [values|bench]" >&2; exit 2 ;;
esac
