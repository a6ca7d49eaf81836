#!/bin/bash
# On the GPU (one call), after prepare.sh DIR, carrying .whl and DIR: each program replayed
# against its reference (--require-ldsopt: every dispatch ldsopt's), 8 at a time, 30 s at most
# each, into OUT/values.txt. Usage: OUT=... run.sh DIR
set -u
dir=${1:?DIR}
. bench/device_rounds.sh
device_setup
cp "$dir/commit.txt" "$OUT/"
one() {
  local r rc
  r=$(timeout 30 python -m ldsopt.run.replay "$1" --require-ldsopt 2>&1); rc=$?
  echo "$(basename "$(dirname "$1")")/$(basename "$1"): exit $rc $(grep -E '^PASS|^FAIL|rror' <<< "$r" | tail -1)"
}
export -f one
# every prepared program (a group of one program is prepared in the group's folder itself)
folders=$(find "$dir" -name manifest.json -printf '%h\n' | sort)
timeout 300 xargs -P 8 -I{} bash -c 'one {}' <<< "$folders" | sort > "$OUT/values.txt"
echo "$(grep -c ': exit 0 PASS' "$OUT/values.txt") PASS of $(wc -l <<< "$folders")"
grep -v ": exit 0 PASS" "$OUT/values.txt" | head -20
