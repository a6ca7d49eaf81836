#!/bin/bash
# Call 2, lean (the session's last device seconds; carrying what run2.sh carries): GPT-2's
# block by the default pipeline and folded at ff74a4c (gpt2_block_prod2), program_bench once
# each (values, 12 layers a call against the twin), then the folded block's kernels (ncu).
set -u
source bench/device_rounds.sh; device_setup
blocks_once build/s33b gpt2_block gpt2_block_prod2
timeout 40 python3 bench/kernel_times.py "build/s33b/gpt2_block_prod2/dispatches/ldsopt/*block*.vmfb" 2>&1 | tee $OUT/kernels.txt
