#!/bin/bash
# On the GPU machine, from the repository's root, build/s34k carried (prepare_kernels.sh): the
# kernels' own durations (ncu, bench/kernel_times.py) of GPT-2's FFN up folded from the O
# projection's chunk statistics at four commits, the plain FFN up and FFN down, and FFN down with
# its chunk statistics split over a cluster (their registers) and unsplit (the stage); then the
# split program's values.
set -u
source bench/device_rounds.sh; device_setup
timeout 200 python3 bench/kernel_times.py "build/s34k/k/*.vmfb" 2>&1 | sed 's/ *build\/s34k\/k\// /' | tee $OUT/kernels.txt
timeout 60 python -m ldsopt.run.replay build/s34k/down_split/ldsopt --require-ldsopt 2>&1 | tail -5 | tee $OUT/values.txt
