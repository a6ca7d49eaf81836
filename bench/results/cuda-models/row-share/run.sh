#!/bin/bash
# On the H200 (or H100), from the repository's root, .whl and build/share carried: each folder
# prepare.sh made (its shared files copied back from its block's first folder); then, into
# $OUT/NAME, program_bench of each NAME (values, the per-dispatch table, 12 layers a call in
# every runtime mode against IREE's default and the PyTorch twin eager and in one CUDA graph)
# and the kernels' own durations (ncu). Usage: run.sh NAME...
set -u
shared=$(dirname "$0")/../fence-d844df1/shared-files.txt
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
while read -r name first; do
  [[ $name == "$first" || ! -d build/share/$name ]] && continue
  for f in $(cat "$shared"); do cp -r build/share/$first/$f build/share/$name/$f; done
done < build/share/variants.txt
for b in "$@"; do
  timeout 200 python -m ldsopt.measure.program_bench build/share/$b --repetitions 2 --out $OUT/$b 2>&1 | grep -v Warning > $OUT/$b.log
  rm -f $OUT/$b/program_results.png
  grep -E "^- (ldsopt|IREE|PyTorch)" $OUT/$b/program_results.md
  timeout 60 python3 bench/kernel_times.py "build/share/$b/dispatches/ldsopt/*.vmfb" > $OUT/$b/kernel_times.txt 2>&1
done
# One archive of the folders: a call returns at most 8 files.
(cd $OUT && tar czf folders.tgz */ && rm -rf */)
