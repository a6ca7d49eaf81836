#!/bin/bash
# Does the output stage still pay where quad stores can take its place? GPT-2's four products
# (f16 out, 64-wide tiles that the stage fits beside) under the default (the stage) and with
# output-lds=false (quad stores), and the large f16-out products with persistent=true; base:
# the default before quad stores (272431e's parent, a worktree; FFN down's K split has no
# stage, so its stores widened by default). Here:
# `stage.sh prepare DIR`; there (carrying .whl and DIR): `OUT=... stage.sh run DIR`.
set -u
what=${1:?prepare or run}; dir=${2:?DIR}
gpt2=matmul_NN_512x768x3072_f16_bias_residual,matmul_NN_512x2304x768_f16_bias,matmul_NN_512x3072x768_f16_bias_gelu,matmul_NN_512x768x768_f16_bias
large=matmul_NN_4096x4096x4096_f16_cast,matmul_NN_8192x8192x1024_f16_cast
if [ "$what" = prepare ]; then
  set -e; rm -rf "$dir"
  export PATH=$PWD/.venv/bin:$PATH
  with() { python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{$*},'))"; }
  lds-bench --target cuda-sm90a --cases $gpt2,$large --prepare "$dir/def" > /dev/null
  lds-bench --target cuda-sm90a --cases $gpt2 --pipeline "$(with output-lds=false)" --prepare "$dir/quad" > /dev/null
  lds-bench --target cuda-sm90a --cases $large --pipeline "$(with persistent=true)" --prepare "$dir/p" > /dev/null
  base=$(mktemp -d); trap 'git worktree remove --force "$base"' EXIT
  git worktree add -q --detach "$base" 272431e~1
  PYTHONPATH="$base" lds-bench --target cuda-sm90a --cases $gpt2,$large --prepare "$dir/base" > /dev/null
  du -sh "$dir"
else
  . bench/device_rounds.sh
  device_setup
  replay_rounds "$dir" base1 def2 quad3 p4 base5 def6 quad7 p8
  timeout 150 python3 bench/kernel_times.py "$dir"/{base,def,quad}/matmul_NN_512x*/ldsopt/*.vmfb 2>&1 | grep -v Warn \
    | tee $OUT/kernel_times.txt
fi
