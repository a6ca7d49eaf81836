"""Kernel time against dispatch time, on the GPU machine: for each dispatch benchmark module
given (the `.vmfb` files of folders made by `lds-bench --prepare`), the time per dispatch as
lds-bench measures it (`iree-benchmark-module --batch_size=100`, median of 5 repetitions) and
the kernel's own duration under Nsight Compute (`gpu__time_duration.sum`, median of 10
launches after 20, clocks unlocked, L2 left warm as in the batch: `--cache-control none`).
Where the dispatch time stays at the floor that a dispatch of nothing shows
(`bench/dispatch_floor.mlir`), it measures the runtime's per-dispatch cost, not the kernel.

    python3 bench/kernel_times.py 'DIR/*/*/*.vmfb' [...] [--out results.json]

Needs ncu on PATH (or /usr/local/cuda/bin) and the IREE runtime importable (PYTHONPATH).
Prints one line per module: dispatch us, kernel us, L2 bytes, grid, registers."""

from __future__ import annotations

import argparse
import csv
import glob
import io
import os
import shutil
import statistics
import subprocess

from ldsopt.cli import output_file
from ldsopt.measure.timing import run_benchmark_module
from ldsopt.run.iree_tools import tool

METRICS = ("gpu__time_duration.sum", "lts__t_bytes.sum", "launch__grid_size", "launch__registers_per_thread")
BATCH, REPETITIONS, MIN_TIME = 100, 5, "0.05s"


def ncu_binary() -> str:
    return shutil.which("ncu") or "/usr/local/cuda/bin/ncu"


def kernel_metrics(vmfb: str) -> dict[str, float]:
    """Median over 10 profiled launches of each of METRICS (one kernel a module)."""
    cmd = [ncu_binary(), "--clock-control", "none", "--cache-control", "none", "--csv", "--print-units", "base",
           "--metrics", ",".join(METRICS), "--launch-skip", "20", "--launch-count", "10",
           tool("iree-benchmark-module"), "--device=cuda", f"--module={vmfb}", "--batch_size=20",
           "--benchmark_repetitions=1", f"--benchmark_min_time={MIN_TIME}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    table = proc.stdout[proc.stdout.find('"ID"'):] if '"ID"' in proc.stdout else ""
    values: dict[str, list[float]] = {}
    for row in csv.DictReader(io.StringIO(table)):
        values.setdefault(row["Metric Name"], []).append(float(row["Metric Value"].replace(",", "")))
    if not values:
        raise RuntimeError(f"ncu gave no metrics for {vmfb} ({proc.returncode}): {proc.stderr[-1000:]}")
    return {name: statistics.median(v) for name, v in values.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("patterns", nargs="+", help="globs of dispatch benchmark modules (.vmfb)")
    ap.add_argument("--out", help="write the rows as JSON here")
    args = ap.parse_args()
    rows = []
    for vmfb in sorted(v for p in args.patterns for v in glob.glob(p)):
        (dispatch,) = (statistics.median(t) for t in run_benchmark_module(vmfb, "cuda", BATCH, REPETITIONS,
                                                                          MIN_TIME).values())
        m = kernel_metrics(vmfb)
        rows.append({"module": vmfb, "dispatch_us": dispatch, "kernel_us": m["gpu__time_duration.sum"] / 1e3, **m})
        print(f"{dispatch:7.2f} us dispatch {m['gpu__time_duration.sum'] / 1e3:7.2f} us kernel "
              f"L2 {m['lts__t_bytes.sum'] / 1e6:6.2f} MB grid {m['launch__grid_size']:5.0f} "
              f"regs {m['launch__registers_per_thread']:3.0f}  {os.path.relpath(vmfb)}", flush=True)
    if args.out:
        output_file.write_json(args.out, rows)


if __name__ == "__main__":
    main()
