#!/bin/bash
# Call 4, lean (the session's last device seconds; carrying what run3.sh carries): the QKV
# consumers' kernels once (qkv_rows_chunks rebuilt with its chunk loop unrolled), then GPT-2's
# block both ways, program_bench once each.
set -u
source bench/device_rounds.sh; device_setup
timeout 60 python3 bench/kernel_times.py "build/ri/out/qkv_*.vmfb" 2>&1 | tee -a $OUT/kernels.txt
while read -r name first; do
  [[ $name == "$first" ]] && continue
  for f in $(cat bench/results/cuda-models/fence-d844df1/shared-files.txt); do
    [ -e build/s32b/$first/$f ] && cp -r build/s32b/$first/$f build/s32b/$name/$f
  done
done < build/s32b/variants.txt
for b in gpt2_block gpt2_block_prod; do
  timeout 100 python -m ldsopt.measure.program_bench build/s32b/$b --repetitions 1 --out $OUT/$b 2>&1 | grep -v Warning > $OUT/$b.log
  rm -f $OUT/$b/program_results.png
  grep -E "^- (ldsopt|PyTorch)" $OUT/$b/program_results.md
done
