#!/bin/bash
# every matmul e2e program family but the large ones, for cuda-sm90a, at HEAD
export PATH=$PWD/.venv/bin:$PATH
D=build/c29/mv; rm -rf $D
for dir in matmul matmul_epilogue matmul_f16_out matmul_named matmul_prologue matmul_skinny split_matmul matmul_persistent matmul_cluster; do
  for f in test/e2e/programs/$dir/*.mlir; do
    n=$(basename $f .mlir)
    lds-run $f --target cuda-sm90a --prepare $D/${dir}__$n > /dev/null 2>$D.err.$n || echo "PREPFAIL $dir/$n"
  done
done
du -sh $D; ls $D | wc -l
