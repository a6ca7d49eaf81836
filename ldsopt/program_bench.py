"""Whole-program times: the function of folders prepared by `lds-run --prepare` (a model, or
any program), run by `iree-benchmark-module` on the folder's own inputs.

    lds-run model.onnx --target cuda --prepare DIR/ldsopt             # here: the ldsopt module
    lds-run model.onnx --target cuda --prepare DIR/iree --baseline    # IREE's default module
    python -m ldsopt.program_bench DIR/ldsopt DIR/iree [--out OUT]    # there: the times

Prints, per folder, the median time per call and which pipeline made it, then each time as a
ratio to the first folder's; writes `program_bench.json` into OUT. Like `ldsopt.replay`, it
needs only the IREE runtime and numpy, so it runs on a GPU machine without the compiler. The
per-dispatch view of the same program is `lds-bench`'s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from ldsopt.bench_replay import parse_benchmark_json
from ldsopt.replay import Tensor, tool


def benchmark(folder: str, repetitions: int = 10, min_time: str = "0.5s") -> dict:
    """The median time of one call of the folder's function, in us, with what made it."""
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    inputs = [Tensor(**t) for t in man["inputs"]]
    cmd = [tool("iree-benchmark-module"), f"--device={man['device']}", f"--module={os.path.join(folder, man['vmfb'])}",
           f"--function={man['function']}", f"--benchmark_repetitions={repetitions}",
           f"--benchmark_min_time={min_time}", "--benchmark_format=json"]
    cmd += [f"--input={t.spec}=@{os.path.join(folder, t.file)}" for t in inputs]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-benchmark-module failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    times = [t for ts in parse_benchmark_json(proc.stdout).values() for t in ts]
    lowered = sum(1 for d in man["dispatches"] if d["passes"])
    return {"folder": folder, "source": man["source"], "pipeline": man["pipeline"], "us": statistics.median(times),
            "repetitions": times, "ldsopt_dispatches": lowered, "total_dispatches": len(man["dispatches"])}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldsopt.program_bench", description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="+", help="folders prepared by lds-run --prepare")
    ap.add_argument("--out", help="write program_bench.json here")
    ap.add_argument("--repetitions", type=int, default=10)
    args = ap.parse_args(argv)
    results = []
    for folder in args.folders:
        try:
            results.append(benchmark(folder, args.repetitions))
        except (OSError, RuntimeError, KeyError, ValueError, subprocess.TimeoutExpired) as e:
            print(f"{folder}: error: {e}", file=sys.stderr)
            return 1
    first = results[0]["us"]
    for r in results:
        print(f"{r['folder']}: {r['us']:.1f} us ({first / r['us']:.2f}x the first's speed); "
              f"ldsopt lowered {r['ldsopt_dispatches']} of {r['total_dispatches']} dispatches; {r['pipeline']}")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "program_bench.json"), "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
