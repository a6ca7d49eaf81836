#!/usr/bin/env bash
# The attention kernels' variants on the H200 (issue 33), compiled here, replayed there in one call.
#
#   bench/attention_sweep.sh prepare DIR     # here (the compiler): fills DIR (< 35 MiB)
#   bench/attention_sweep.sh replay DIR OUT  # there (runtime wheel, torch): values, then timings,
#                                            # one call of about 3 minutes
#
# prepare makes
# - DIR/values/NAME: `lds-run --target cuda --prepare` of every attention e2e program with the
#   default pipelines (decode split by ldsopt-split-attention), and DIR/values-knobs/NAME of the
#   matrix-core ones under the mma.sync options that the defaults do not take (KNOBS below:
#   4 warps of 32 rows, three stages, padded LDS; Q in padded LDS with query-row tails), so
#   that each code path's values are checked on the GPU;
# - DIR/bench-default: `lds-bench --prepare` of every attention case with the default
#   pipelines (replayed with IREE's default and PyTorch's SDPA beside it);
# - DIR/bench-VARIANT: the cases a variant changes, under ldsopt-attention's mma.sync options
#   (VARIANTS below: each one step from the plan's defaults, which are 4 warps x 16 rows on
#   BERT's 12 x 512, 4 x 32 on 4x16x1024x64, 4 x 32 with Q in LDS at head dim 128,
#   XOR-swizzled LDS, two stages, 64 keys a tile; decode in 16 chunks) or another split of
#   decode's keys (the program pipeline),
#   replayed for ldsopt alone, 3 repetitions of 0.1 s.
# replay runs `python -m ldsopt.run.replay` on both value suites, then `python -m
# ldsopt.measure.bench_replay` on each bench folder into OUT/NAME, and prints each results.md.
set -euo pipefail
mode=${1:?usage: bench/attention_sweep.sh prepare DIR | replay DIR OUT}
dir=${2:?usage: bench/attention_sweep.sh prepare DIR | replay DIR OUT}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/sweep_replay.sh
. "$here/bench/sweep_replay.sh"

# The rest of the default pipeline after ldsopt-attention (what an attention case's dispatches see).
REST="ldsopt-vector-distribute, ldsopt-lower-elementwise, canonicalize, cse"
PROGRAM_REST="ldsopt-split-reduction"
D128="attention_1x32x2048x128_f16,attention_causal_1x32x2048x128_f16"
DECODE="attention_1x32x1x4096x128_f16"
# name|ldsopt-attention options|cases|program pipeline ('-': the default)
VARIANTS=(
  "w4r16|mma-warps=4 mma-rows-per-warp=16|$D128|-"
  "keys32|mma-keys=32|$D128|-"
  "keys32s3|mma-keys=32 mma-stages=3|$D128|-"
  "split8||$DECODE|ldsopt-raise-attention, ldsopt-split-attention{splits=8}, $PROGRAM_REST"
)
# programs|options: the matrix-core programs (head dims of multiples of 64, whose default layout
# is the swizzle) padded, in 3 stages; two row tiles a warp past head dim 64 (Q in LDS) padded,
# with query rows that leave the last workgroup part empty.
KNOBS=(
  "plain_f16_2x3x80x100x64 causal_f16_1x2x100x100x64 mask_i1_bf16_2x2x24x41x64|mma-warps=4 mma-rows-per-warp=32 mma-stages=3 mma-lds-layout=pad"
  "gqa_f16_1x8x33x70x128 vdim_f16_2x2x40x50x64x80|mma-warps=2 mma-rows-per-warp=32 mma-lds-layout=pad"
)

prepare() {
  mkdir -p "$dir"
  local programs=$here/test/e2e/programs/attention
  for f in "$programs"/*.mlir; do
    name=$(basename "$f" .mlir)
    lds-run "$f" --target cuda --prepare "$dir/values/$name" >/dev/null
  done
  for k in "${KNOBS[@]}"; do
    IFS='|' read -r names opts <<<"$k"
    for name in $names; do
      lds-run "$programs/$name.mlir" --target cuda --prepare "$dir/values-knobs/$name" \
        --pipeline "builtin.module(ldsopt-attention{$opts}, $REST)" >/dev/null
    done
  done
  cases=$(python3 -c "from ldsopt.measure import cases; print(','.join(c.name for c in cases.ATTENTION))")
  lds-bench --target cuda --prepare "$dir/bench-default" --cases "$cases"
  for v in "${VARIANTS[@]}"; do
    IFS='|' read -r name opts cases program <<<"$v"
    args=(--target cuda --prepare "$dir/bench-$name" --cases "$cases")
    [ -n "$opts" ] && args+=(--pipeline "builtin.module(ldsopt-attention{$opts}, $REST)")
    [ "$program" != - ] && args+=(--program-pipeline "builtin.module($program)")
    lds-bench "${args[@]}"
  done
  # The IREE-default modules of the variant folders are never timed (--variants ldsopt): dropped.
  find "$dir" -path "$dir/bench-default" -prune -o -type d -name iree-default -print0 | xargs -0 rm -rf
  du -sh "$dir"
}

replay() {
  local out=${3:?usage: bench/attention_sweep.sh replay DIR OUT}
  mkdir -p "$out"
  "${PYTHON:-python3}" -m ldsopt.run.replay "$dir/values" --require-ldsopt | tee "$out/values.log"
  "${PYTHON:-python3}" -m ldsopt.run.replay "$dir/values-knobs" --require-ldsopt | tee "$out/values-knobs.log"
  replay_bench_folders "$dir" "$out"
}

case $mode in
  prepare) prepare ;;
  replay) replay "$@" ;;
  *) echo "usage: bench/attention_sweep.sh prepare DIR | replay DIR OUT" >&2; exit 2 ;;
esac
