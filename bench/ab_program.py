"""An A/B of two prepared programs (`lds-run --prepare` folders) in one call: each timed in every
CUDA runtime mode of `ldsopt.measure.timing`, in the orders A B, B A, A B (so that a drift of
the machine shows), the median of 10 repetitions each.

    python bench/ab_program.py A_DIR B_DIR OUT.json       # on the GPU machine
"""

import json
import sys

from ldsopt.measure import program_bench, timing


def main(a: str, b: str, out: str) -> int:
    rows = []
    for order in ((a, b), (b, a), (a, b)):
        for folder in order:
            for mode, flags in timing.RUNTIME_MODES["cuda"].items():
                r = program_bench.benchmark(folder, 10, flags=flags)
                rows.append({"folder": folder, "mode": mode, "us": r["us"]})
                print(f"{folder:24s} {mode:20s} {r['us']:8.1f} us", flush=True)
    with open(out, "w") as f:
        json.dump(rows, f, indent=1)
    for folder in (a, b):
        best = {m: min(r["us"] for r in rows if r["folder"] == folder and r["mode"] == m) for m in timing.RUNTIME_MODES["cuda"]}
        print(folder, "fastest of each mode:", {m: round(v, 1) for m, v in best.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
