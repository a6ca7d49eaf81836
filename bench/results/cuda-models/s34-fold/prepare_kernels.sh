#!/bin/bash
# Here, from the repository's root (PATH with the venv's tools): build/s34k for run_kernels.sh.
# GPT-2's base block (build/s34/models, ../fence-d844df1/prepare.sh) prepared with
# ldsopt-fold-norm{stats=producer} at each commit below (a worktree each, built there as
# bench/patched_tree.sh does), its FFN up folded from the O projection's chunk statistics
# (dispatch 4) kept (9140700 emits what ff74a4c does; 20d3a9a: one pass over the rows); the plain FFN up and FFN down of build/s34/gpt2_block (the default pipeline
# at af0c419's tree); and the FFN down program with chunk statistics
# (test/e2e/programs/matmul_chunk_stats/residual_chunks_f16_512x768x3072.mlir) by the default
# pipeline (split over a cluster of 2, statistics from registers) and with cluster-k=1 (unsplit,
# from the stage), the first with its values.
set -eu
out=build/s34k
rm -rf $out && mkdir -p $out/k
for c in ee42205 328bf42 9140700 20d3a9a; do
  tree=$(mktemp -d) && git worktree add -q --detach $tree $c && ln -s ../passes $tree/ldsopt/passes
  P=$(cd $tree && PYTHONPATH=$tree python -c "from ldsopt.run import pipelines; print(pipelines.PROGRAM_PIPELINE.replace('ldsopt-split-reduction)', 'ldsopt-split-reduction, ldsopt-fold-norm{stats=producer})'))")
  (cd $tree && PYTHONPATH=$tree lds-bench $OLDPWD/build/s34/models/gpt2_block_base_f16.onnx --target cuda-sm90a \
     --weights-to-archive --program-pipeline "$P" --prepare $tree/out)
  cp $tree/out/dispatches/ldsopt/module_gpt2_block_dispatch_4_cuda_nvptx_fb.vmfb $out/k/up_fold_$c.vmfb
  git worktree remove --force $tree
done
cp build/s34/gpt2_block/dispatches/ldsopt/module_gpt2_block_dispatch_5_cuda_nvptx_fb.vmfb $out/k/up_plain.vmfb
cp build/s34/gpt2_block/dispatches/ldsopt/module_gpt2_block_dispatch_6_cuda_nvptx_fb.vmfb $out/k/down_plain.vmfb
prog=test/e2e/programs/matmul_chunk_stats/residual_chunks_f16_512x768x3072.mlir
lds-bench $prog --target cuda-sm90a --prepare $out/down_split
lds-bench $prog --target cuda-sm90a --prepare $out/down_unsplit --pipeline "$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{cluster-k=1},'))")"
cp $out/down_split/dispatches/ldsopt/module_main_dispatch_0_cuda_nvptx_fb.vmfb $out/k/down_chunks_split.vmfb
cp $out/down_unsplit/dispatches/ldsopt/module_main_dispatch_0_cuda_nvptx_fb.vmfb $out/k/down_chunks_unsplit.vmfb
rm -rf $out/down_unsplit
