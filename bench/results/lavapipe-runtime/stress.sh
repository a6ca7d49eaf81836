#!/bin/bash
# stress.sh FOLDER N [FLAGS...]: runs the last `iree-run-module on vulkan` command of an
# `lds-run --emit-dir FOLDER` N times in each of 3 parallel loops (the load of a CI run with
# pytest -n 2), 60 s each at most, and counts the failures by their first line.
folder=$1; n=$2; shift 2
cmd=$(grep -A1 "^# iree-run-module on vulkan" "$folder/commands.sh" | tail -1)
for j in 1 2 3; do
  ( for i in $(seq 1 "$n"); do
      out=$(timeout 60 $cmd "$@" 2>&1 >/dev/null); rc=$?
      [ $rc != 0 ] && echo "rc=$rc $(echo "$out" | head -1 | cut -c1-120)"
    done ) &
done
wait
