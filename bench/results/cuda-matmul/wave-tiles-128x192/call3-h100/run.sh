#!/bin/bash
set -u
. bench/device_rounds.sh; device_setup >/dev/null
for r in 1 2; do
  python -m ldsopt.measure.program_bench build/c29/bt/t192 build/c29/bt/t128 --repetitions 5 --out $OUT/r$r 2>&1 | grep -v Warning | tail -6
  python -m ldsopt.measure.program_bench build/c29/bt/t128 build/c29/bt/t192 --repetitions 5 --out $OUT/s$r 2>&1 | grep -v Warning | tail -6
done
