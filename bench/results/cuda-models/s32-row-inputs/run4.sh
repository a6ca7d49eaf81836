#!/bin/bash
# Call 4, lean (the session's last device seconds; carrying what run3.sh carries): the QKV
# consumers' kernels once (qkv_rows_chunks rebuilt with its chunk loop unrolled), then GPT-2's
# block both ways, program_bench once each.
set -u
source bench/device_rounds.sh; device_setup
timeout 60 python3 bench/kernel_times.py "build/ri/out/qkv_*.vmfb" 2>&1 | tee -a $OUT/kernels.txt
blocks_once build/s32b gpt2_block gpt2_block_prod
