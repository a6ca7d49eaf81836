"""Per case, the ldsopt times of several `bench_replay` runs side by side, with IREE's default
and torch columns from the first run that timed each: the summary of a call that replays
cases under several variants, interleaved.

    python3 bench/side_by_side.py OUT run1 run2 ...    # OUT/runN/results.json each

Every case of any run has a row (in the order the runs first name them; `nan` where a run does
not have it, so variants of different cases may share a call). Runs whose results.json is
missing (a variant that failed) are left out."""

from __future__ import annotations

import json
import math
import os
import sys


def us(case: dict, variant: str) -> float:
    v = case.get(variant)
    return v.get("us", math.nan) if isinstance(v, dict) else math.nan


def main(argv: list[str]) -> None:
    out, names = argv[0], argv[1:]
    runs = {r: {c["name"]: c for c in json.load(open(os.path.join(out, r, "results.json")))["cases"]}
            for r in names if os.path.exists(os.path.join(out, r, "results.json"))}
    if not runs:
        sys.exit(f"side_by_side: none of {' '.join(names)} has a results.json under {out}")
    cases = list(dict.fromkeys(name for run in runs.values() for name in run))

    def first(name: str, variant: str) -> float:
        return next((x for run in runs.values() if not math.isnan(x := us(run.get(name, {}), variant))), math.nan)

    print(f"{'case':44s} " + " ".join(f"{r:>7s}" for r in runs) + f" {'iree':>7s} {'torch':>7s}")
    for name in cases:
        cells = [us(run.get(name, {}), "ldsopt") for run in runs.values()]
        cells += [first(name, "iree-default"), first(name, "torch")]
        print(f"{name:44s} " + " ".join(f"{x:7.2f}" for x in cells))


if __name__ == "__main__":
    main(sys.argv[1:])
