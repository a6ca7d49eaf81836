#!/bin/bash
# From the repository root: build/ri/out/NAME-*.vmfb, the dispatch benchmark module of the QKV
# product plain (../s31-fold-diag/qkv_plain.mlir), folded with its row sums in the K loop
# (../s31-fold-diag/qkv_fold.mlir), with its row values loaded (qkv_rows_loaded.mlir here) and
# with its rows' sums combined from loaded statistics per chunk (qkv_rows_chunks.mlir here: its
# second dispatch); GPT-2's O projection and FFN down with their residual epilogues, plain
# (o_plain, down_plain; down_plain_k1 unsplit) and with statistics per chunk of their result
# (o_chunks: the e2e program residual_chunks_f16_512x768x768, down_chunks); each as lds-bench
# plans it for cuda-sm90a. Then build/rv32, build/cs32 (cuda-sm90a) and build/rv32c, build/cs32c
# (cuda: sm_89 PTX), the row-value and chunk-statistics programs prepared for their values.
set -eu
export PATH=$PWD/.venv/bin:$PATH
here=$(dirname "$0"); rm -rf build/ri; mkdir -p build/ri/out
bench() {  # NAME SOURCE [PIPELINE]
  local n=$1 src=$2
  lds-bench $src.mlir --target cuda-sm90a --no-torch ${3:+--pipeline "$3"} --prepare build/ri/$n > build/ri/$n.log 2>&1
  for f in build/ri/$n/dispatches/ldsopt/*.vmfb; do cp $f build/ri/out/$n-$(basename $f); done
}
for n in qkv_rows_loaded qkv_rows_chunks o_plain down_plain down_chunks; do bench $n $here/$n; done
for n in qkv_plain qkv_fold; do bench $n $here/../s31-fold-diag/$n; done
bench o_chunks test/e2e/programs/matmul_chunk_stats/residual_chunks_f16_512x768x768
bench down_plain_k1 $here/down_plain "$(python -c "from ldsopt.run import pipelines
print(pipelines.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{cluster-k=1},'))")"
rm -f build/ri/out/qkv_rows_chunks-*dispatch_0*  # the statistics' own dispatch (IREE's)
p=test/e2e/programs
rm -rf build/rv32 build/rv32c build/cs32 build/cs32c
lds-run $p/matmul_row_values/*.mlir --target cuda-sm90a --prepare build/rv32
lds-run $p/matmul_row_values/*.mlir --target cuda --prepare build/rv32c
lds-run $p/matmul_chunk_stats/*.mlir --target cuda-sm90a --prepare build/cs32
lds-run $p/matmul_chunk_stats/*.mlir --target cuda --prepare build/cs32c
