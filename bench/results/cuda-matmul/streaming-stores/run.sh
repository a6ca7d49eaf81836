#!/bin/bash
# On the GPU (one device call), after prepare.sh DIR, carrying .whl and DIR: bench_replay of the
# default and the streaming stores, alternately, two rounds. Usage: OUT=... run.sh DIR
set -u
. bench/device_rounds.sh
device_setup
replay_rounds "${1:?DIR}" base1 cs1 base2 cs2
