#!/bin/bash
# Call 2, lean (the session's last device seconds; carrying what run2.sh carries): GPT-2's
# block by the default pipeline and folded at ff74a4c (gpt2_block_prod2), program_bench once
# each (values, 12 layers a call against the twin), then the folded block's kernels (ncu).
set -u
source bench/device_rounds.sh; device_setup
while read -r name first; do
  [[ $name == "$first" ]] && continue
  for f in $(cat bench/results/cuda-models/fence-d844df1/shared-files.txt); do
    [ -e build/s33b/$first/$f ] && cp -r build/s33b/$first/$f build/s33b/$name/$f
  done
done < build/s33b/variants.txt
for b in gpt2_block gpt2_block_prod2; do
  timeout 80 python -m ldsopt.measure.program_bench build/s33b/$b --repetitions 1 --out $OUT/$b 2>&1 | grep -v Warning > $OUT/$b.log
  rm -f $OUT/$b/program_results.png
  grep -E "^- (ldsopt|PyTorch)|^Values" $OUT/$b/program_results.md
done
timeout 40 python3 bench/kernel_times.py "build/s33b/gpt2_block_prod2/dispatches/ldsopt/*block*.vmfb" 2>&1 | tee $OUT/kernels.txt
