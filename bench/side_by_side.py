"""Per case, the ldsopt times of several `bench_replay` runs side by side (with the first run's
IREE default and torch columns where it has them): the summary of a call that replays the same
cases under several variants, interleaved.

    python3 bench/side_by_side.py OUT run1 run2 ...    # OUT/runN/results.json each

Runs whose results.json is missing (a variant that failed) are left out."""

from __future__ import annotations

import json
import math
import os
import sys


def main(argv: list[str]) -> None:
    out, names = argv[0], argv[1:]
    runs = {r: {c["name"]: c for c in json.load(open(os.path.join(out, r, "results.json")))["cases"]}
            for r in names if os.path.exists(os.path.join(out, r, "results.json"))}
    first = runs[names[0]]

    def us(c: dict, variant: str) -> float:
        v = c.get(variant)
        return v.get("us", math.nan) if isinstance(v, dict) else math.nan

    print(f"{'case':44s} " + " ".join(f"{r:>7s}" for r in runs) + f" {'iree':>7s} {'torch':>7s}")
    for name, c in first.items():
        cells = [us(runs[r].get(name, {}), "ldsopt") for r in runs] + [us(c, "iree-default"), us(c, "torch")]
        print(f"{name:44s} " + " ".join(f"{x:7.2f}" for x in cells))


if __name__ == "__main__":
    main(sys.argv[1:])
