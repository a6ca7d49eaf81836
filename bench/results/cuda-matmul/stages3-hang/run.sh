#!/bin/bash
# On the GPU, after prepare.sh DIR, carrying .whl and DIR: each variant's values (30 s at most:
# a hang shows as exit 124), then the f16-out cases through the output stage at 3 LDS tiles
# against 4 without it (prepare.sh says by what copies). Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
replay_values "$dir"/vals/*/
replay_rounds "$dir/time" s41 s32 s43 s34
