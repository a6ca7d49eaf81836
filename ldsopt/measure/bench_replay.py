"""The run half of lds-bench: time prepared dispatch benchmark modules, PyTorch and a copy.

Runs on the lent GPU machine, which has the IREE runtime wheel but no compiler (compiled
here, run there), so this module imports only the standard library, plus
torch and matplotlib when they import. A folder made by `lds-bench --prepare` holds
`manifest.json`, `cases.py` and per case and variant the `.vmfb` of each dispatch
benchmark module IREE dumped. Those modules need no inputs: each exports one function per
dispatch that runs it `--batch_size` times back to back in one command buffer.

What is measured, all in one run:
- each dispatch: `iree-benchmark-module --batch_size=N --benchmark_repetitions=R`; its
  `real_time` is already per dispatch (the tool counts N iterations per batch), and the
  case's time is the sum over its dispatches of each one's median;
- the same computation in PyTorch eager and a device-to-device copy (`clone` of 1 GiB),
  timed the same way: N calls back to back between two CUDA events, median of R;
- each time as a fraction of that copy's bandwidth (bytes read + written over time).

    python -m ldsopt.measure.bench_replay DIR [--out OUT]      (or lds-bench --replay DIR)

writes OUT/results.json, results.md and results.png, and prints progress as it goes.
"""

from __future__ import annotations

import datetime
import json
import os
import statistics
import subprocess
import sys
import types

from ldsopt.measure import program_bench
from ldsopt.measure.timing import (COPY_BYTES, VARIANTS, TorchTimer, batch_size, gpu_name, load_script,
                                   run_benchmark_module, save_figure, say, write_report)




def load_cases(path: str) -> types.ModuleType:
    """A cases.py by path: bench/ is a folder of the repository, not a package, and a
    prepared folder carries its own copy (the cases that were compiled)."""
    return load_script(path, "ldsopt_bench_cases")


def replay(folder: str, out: str | None = None, *, batch: int | None = None, repetitions: int = 5,
           min_time: str | None = None, use_torch: bool = True, variants: tuple[str, ...] = VARIANTS) -> dict:
    """Times every case of a prepared folder; writes results.{json,md,png} into `out`.
    `variants` leaves the others out (a sweep of ldsopt pipelines need not re-time IREE's
    default, the same modules in every folder): their cells read "-"."""
    out = out or folder
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    device = man["device"]
    min_time = min_time or ("0.05s" if man["target"] == "lavapipe" else "0.2s")
    cases = {c.name: c for c in load_cases(os.path.join(folder, "cases.py")).CASES}
    timer = None
    if use_torch and device in ("cuda", "hip"):  # ROCm builds of torch answer to torch.cuda too
        try:
            timer = TorchTimer(repetitions)
        except (ImportError, RuntimeError, AssertionError) as e:
            say(f"torch column skipped: {e}")
    stamp = {"commit": man["commit"], "target": man["target"], "gpu": gpu_name(timer, device),
             "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    copy_bw = timer.copy_bandwidth() if timer else None
    if copy_bw:
        say(f"copy bandwidth: {copy_bw / 1e12:.3f} TB/s (clone of {COPY_BYTES >> 20} MiB, read + written)")
    results = []
    for entry in man["cases"]:
        n = batch or batch_size(entry["bytes"], man["target"], entry.get("flops", 0))
        res = {"name": entry["name"], "what": entry["what"], "bytes": entry["bytes"],
               "flops": entry.get("flops", 0), "batch_size": n, **stamp}
        for variant in variants:
            res[variant] = _time_variant(folder, entry["variants"][variant], device, n, repetitions, min_time)
            v = res[variant]
            say(f"{entry['name']:<32} {variant:<13} " + (f"{v['us']:10.2f} us" if "us" in v else "error: " + v["error"]))
        if timer:
            try:
                res["torch"] = {"us": timer.case_us(cases[entry["name"]], n)}
            except Exception as e:  # noqa: BLE001 - a failing twin must not lose the IREE numbers
                res["torch"] = {"error": f"{type(e).__name__}: {e}"}
            t = res["torch"]
            say(f"{entry['name']:<32} {'torch':<13} " + (f"{t['us']:10.2f} us" if "us" in t else "error: " + t["error"]))
        results.append(res)
    report = {**stamp, "device": device, "pipeline": man["pipeline"], "dirty": man.get("dirty", False),
              "copy_bandwidth": copy_bw, "repetitions": repetitions, "min_time": min_time, "cases": results}
    write_results(report, out)
    return report


def _time_variant(folder: str, variant: dict, device: str, batch: int, repetitions: int, min_time: str) -> dict:
    counts = {k: variant[k] for k in ("ldsopt_dispatches", "total_dispatches")}
    # It did not compile, whole or a dispatch of it (IREE's own pipeline, on what it cannot lower).
    failed = [variant] if "error" in variant else [d for d in variant.get("dispatches", []) if "error" in d]
    if failed:
        return {"error": failed[0]["error"], **counts}
    dispatches = []
    try:
        for module in variant["modules"]:
            times = run_benchmark_module(os.path.join(folder, module), device, batch, repetitions, min_time)
            dispatches += [{"function": fn, "us": statistics.median(t), "repetitions": t} for fn, t in times.items()]
    except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
        return {"error": f"{type(e).__name__}: {e}", **counts}
    return {"us": sum(d["us"] for d in dispatches), "dispatches": dispatches, **counts}


def _cell(result: dict | None, nbytes: int, copy_bw: float | None, flops: int = 0) -> str:
    """Time in us with the rate that bounds the case: TFLOP/s for compute-bound cases
    (matmuls), else the fraction of the copy bandwidth."""
    if not result:
        return "-"
    if "us" not in result:
        return "error"
    if flops:
        return f"{result['us']:.1f} ({flops / (result['us'] * 1e-6) / 1e12:.0f} TFLOP/s)"
    if not copy_bw:
        return f"{result['us']:.1f}"
    pct = 100 * nbytes / (result["us"] * 1e-6) / copy_bw
    return f"{result['us']:.1f} ({pct:.0f}%)" if pct >= 10 else f"{result['us']:.1f} ({pct:.2g}%)"


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.1f} KB"


def markdown(report: dict) -> str:
    """The results table: times in us, each with its % of the copy bandwidth."""
    bw = report["copy_bandwidth"]
    lines = [f"# lds-bench on {report['gpu']} ({report['target']})", "",
             f"commit {report['commit']}{' (working tree had changes)' if report['dirty'] else ''}, "
             f"{report['date']}; ldsopt pipeline `{report['pipeline']}`.",
             "Per-dispatch times from IREE's dispatch benchmark modules, median of "
             f"{report['repetitions']} repetitions, summed over the case's dispatches; "
             + (f"(%) = fraction of the device-to-device copy bandwidth measured in this run, {bw / 1e12:.2f} TB/s."
                if bw else "no copy bandwidth measured (no torch), so no fractions."),
             "", "| case | bytes | ldsopt us | IREE default us | torch us | ldsopt/IREE | ldsopt dispatches |",
             "|---|---|---|---|---|---|---|"]
    for c in report["cases"]:
        ours, iree = c.get("ldsopt", {}), c.get("iree-default", {})
        ratio = f"{ours['us'] / iree['us']:.2f}" if "us" in ours and "us" in iree else "-"
        taken = f"{ours['ldsopt_dispatches']}/{ours['total_dispatches']}" if ours else "-"
        f = c.get("flops", 0)
        lines.append(f"| {c['name']} | {_size(c['bytes'])} | {_cell(ours, c['bytes'], bw, f)} | "
                     f"{_cell(iree, c['bytes'], bw, f)} | {_cell(c.get('torch'), c['bytes'], bw, f)} | {ratio} | {taken} |")
    lines += ["", "ldsopt dispatches: how many of the case's dispatches an ldsopt pass lowered; "
              "0 means both variants are IREE's default code. Matmul cells give TFLOP/s (2*M*N*K over the time); "
              "their torch column is cuBLAS through torch.matmul."]
    return "\n".join(lines) + "\n"


def plot(report: dict, path: str) -> bool:
    """A results.png: each variant (and torch) of one run that some case has (no torch bar or
    legend entry from a run without torch)."""
    return plot_series([(v, report, v) for v in (*VARIANTS, "torch") if any(v in c for c in report["cases"])],
                       f"lds-bench, {report['gpu']}, commit {report['commit'][:10]}", path)


def compare(runs: list[tuple[str, dict]], path: str, names: list[str] | None = None) -> bool:
    """One chart of several runs' ldsopt variants (e.g. folders prepared with other pipelines,
    replayed in one device call), with IREE's default and torch from the first run that has them;
    only the cases in `names` if given."""
    if names:
        runs = [(label, {**rep, "cases": [c for c in rep["cases"] if c["name"] in names]}) for label, rep in runs]
    series = [(label, rep, "ldsopt") for label, rep in runs]
    for variant in ("iree-default", "torch"):
        rep = next((r for _, r in runs if any(variant in c for c in r["cases"])), None)
        if rep is not None:
            series.append((variant, rep, variant))
    first = runs[0][1]
    commits = sorted({rep["commit"][:10] for _, rep in runs})
    return plot_series(series, f"lds-bench, {first['gpu']}, commit {', '.join(commits)}", path)


def _rate(case: dict, result: dict | None, copy_bw: float | None) -> float:
    """TFLOP/s of a matmul, else the fraction of the copy bandwidth (GB/s without one)."""
    if not result or "us" not in result:
        return 0.0
    if case.get("flops"):
        return case["flops"] / (result["us"] * 1e-6) / 1e12
    rate = case["bytes"] / (result["us"] * 1e-6)
    return rate / copy_bw if copy_bw else rate / 1e9


def plot_series(series: list[tuple[str, dict, str]], title: str, path: str) -> bool:
    """Grouped bars, a group per case and a bar per (label, report, variant): memory-bound cases
    as a fraction of the copy bandwidth measured with them (the first report's that has one;
    GB/s without), matmuls in TFLOP/s in a second panel. False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    copy_bw = next((rep["copy_bandwidth"] for _, rep, _ in series if rep.get("copy_bandwidth")), None)
    names: list[str] = []
    for _, rep, _ in series:
        names += [c["name"] for c in rep["cases"] if c["name"] not in names]
    cases = {c["name"]: c for _, rep, _ in reversed(series) for c in rep["cases"]}
    panels = [(flops, [n for n in names if bool(cases[n].get("flops")) == flops]) for flops in (False, True)]
    panels = [(flops, ns) for flops, ns in panels if ns]
    fig, axes = plt.subplots(1, len(panels), squeeze=False, figsize=(
        max(8, sum(0.25 * len(series) * len(ns) + 1 for _, ns in panels)), 5),
        gridspec_kw={"width_ratios": [len(ns) for _, ns in panels]})
    width = 0.8 / len(series)
    for ax, (flops, ns) in zip(axes[0], panels):
        for i, (label, rep, variant) in enumerate(series):
            own = {c["name"]: c for c in rep["cases"]}
            vals = [_rate(own[n], own[n].get(variant), copy_bw) if n in own else 0.0 for n in ns]
            ax.bar([x + (i - (len(series) - 1) / 2) * width for x in range(len(ns))], vals, width, label=label)
        if copy_bw and not flops:
            ax.axhline(1.0, color="k", lw=0.8, ls="--")
        ax.set_xticks(range(len(ns)), ns, rotation=60, ha="right", fontsize=8)
        ax.set_ylabel("TFLOP/s" if flops else "fraction of copy bandwidth" if copy_bw else "GB/s")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save_figure(fig, path)
    return True


def write_results(report: dict, out: str) -> None:
    write_report(report, out, "results", markdown, plot)


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m ldsopt.measure.bench_replay", description="time a folder made by lds-bench --prepare")
    ap.add_argument("folder", nargs="?", help="a folder made by lds-bench --prepare")
    ap.add_argument("--out", help="where results.{json,md,png} go (default: the folder)")
    ap.add_argument("--batch-size", type=int, help="dispatches per batch (default: from each case's bytes)")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-time", help="google-benchmark min time per repetition, e.g. 0.2s")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help=f"comma-separated variants to time (default: {','.join(VARIANTS)})")
    ap.add_argument("--compare", nargs="+", metavar="LABEL=RESULTS_JSON",
                    help="instead of timing: plot the ldsopt variants of several results.json into --plot")
    ap.add_argument("--plot", help="the PNG that --compare writes")
    ap.add_argument("--cases", help="with --compare: comma-separated case names to plot (default: all)")
    args = ap.parse_args(argv)
    if args.compare:
        if not args.plot or any("=" not in a for a in args.compare):
            ap.error("--compare takes LABEL=RESULTS_JSON arguments and needs --plot PNG")
        runs = []
        for arg in args.compare:
            label, path = arg.split("=", 1)
            with open(path) as f:
                runs.append((label, json.load(f)))
        if not compare(runs, args.plot, args.cases.split(",") if args.cases else None):
            print("error: --compare needs matplotlib", file=sys.stderr)
            return 1
        return 0
    if not args.folder:
        ap.error("a prepared folder, or --compare")
    if program_bench.is_program_folder(args.folder):  # lds-bench PROGRAM's folder
        return program_bench.main([args.folder, "--repetitions", str(args.repetitions)]
                                  + [a for k, v in (("--out", args.out), ("--batch-size", args.batch_size),
                                                    ("--min-time", args.min_time)) if v for a in (k, str(v))]
                                  + (["--no-torch"] if args.no_torch else []))
    variants = tuple(args.variants.split(","))
    if unknown := set(variants) - set(VARIANTS):
        ap.error(f"unknown variant(s) {', '.join(sorted(unknown))}; known: {', '.join(VARIANTS)}")
    try:
        report = replay(args.folder, args.out, batch=args.batch_size, repetitions=args.repetitions,
                        min_time=args.min_time, use_torch=not args.no_torch, variants=variants)
    except (OSError, ValueError, KeyError) as e:  # not a folder lds-bench --prepare made
        print(f"{args.folder}: error: {e}", file=sys.stderr)
        return 1
    print(markdown(report), flush=True)
    failed = [c["name"] for c in report["cases"] if any("us" not in c[v] for v in variants)]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
