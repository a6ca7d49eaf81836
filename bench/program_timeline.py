"""Where a prepared program's call spends its time on the GPU: the folder's function run by
the IREE runtime in this process (its module, inputs and parameter archives, in a runtime
mode of timing.RUNTIME_MODES) under torch.profiler, whose CUPTI tracing records every kernel
the process launches, IREE's too. The kernels are cut into calls where the GPU idles longer
than `--call-gap` us; per call (the first `--skip` left out): its span from the first
kernel's start to the last one's end, the kernels' sum, the idle time between them, each
kernel's duration, and that idle time by the kernel it follows (which launch waits, and how
long); the copies and fills of a call (apart from the kernels) and the GPU's idle time from
one call's end to the next one's start (the host's work of a call that no kernel overlaps).
The GPU machine has no Nsight Systems; this is its timeline.

`--back-to-back chained|independent` traces an async stack's calls issued back to back
(ldsopt/measure/back_to_back.py) instead: no gap cuts them, so the report is the timed calls'
span (from their first kernel's start to the last one's end) a call, their kernels' sum, where
the idle time lies, and the kernels that started before another had ended: in IREE's graphs
mode a call's independent dispatches (no barrier between them) run side by side, and
dependent ones start the moment the one before ends (CUPTI's timestamps then overlap a
little), so overlaps are no race by themselves; that the calls compute what an awaited call
does is `back_to_back --against`'s check.

    python3 bench/program_timeline.py DIR/ldsopt-stack [--mode graphs] [--calls 30] [--layers 12]
    python3 bench/program_timeline.py DIR/ldsopt-async-stack --back-to-back independent --layers 12

Needs torch with CUDA and the IREE runtime importable (PYTHONPATH)."""

from __future__ import annotations

import argparse
import collections
import statistics

from ldsopt.measure import back_to_back, timing


Record = tuple[float, float, str]  # start us, duration us, name


def torch_context() -> None:
    """torch's CUDA context, made before IREE's device: CUPTI needs it before it traces, and a
    process whose IREE device came first aborted at exit (`free(): invalid pointer`)."""
    import torch

    torch.zeros(1, device="cuda")


def traced(run, api: bool) -> tuple[list[Record], list[Record]]:
    """(the GPU's kernels, copies and fills; with `api`, the CUDA driver and runtime calls of
    the process's threads, IREE's included) while `run()` runs, each sorted by start."""
    from torch.profiler import ProfilerActivity, profile

    torch_context()
    activities = [ProfilerActivity.CUDA] + ([ProfilerActivity.CPU] if api else [])
    with profile(activities=activities) as prof:
        run()
    gpu, host = [], []
    for e in prof.events():
        record = (e.time_range.start, e.time_range.elapsed_us(), e.name)
        if e.device_type.name == "CUDA":
            gpu.append(record)
        elif e.name.startswith("cu"):
            host.append(record)
    return sorted(gpu), sorted(host)


def kernels(folder: str, flags: tuple[str, ...], calls: int, api: bool = False) -> tuple[list[Record], list[Record]]:
    """traced() of `calls` calls of the folder's function, each awaited and its first result
    read back (after 3 such calls untraced)."""
    import iree.runtime as rt

    torch_context()
    device, context, function, args, _ = back_to_back.load(folder, flags)

    def call():
        results = back_to_back.invoke(context, function, args)
        back_to_back.to_host(device, results.get_as_object(0, rt.HalBufferView))

    for _ in range(3):
        call()
    return traced(lambda: [call() for _ in range(calls)], api)


def back_to_back_kernels(folder: str, flags: tuple[str, ...], calls: int, independent: bool, api: bool = False,
                         warmup: int = 3) -> tuple[float, list[Record], list[Record]]:
    """(us a call by the host's clock, then traced()) of `calls` calls of the folder's async
    function issued back to back; the module's load (its initializers' kernels) and the
    `warmup` awaited calls before them are traced too and left out."""
    seconds = []
    gpu, host = traced(lambda: seconds.append(back_to_back.calls(folder, calls, flags, warmup=warmup,
                                                                 independent=independent)[0]), api)
    # every call runs the same kernels; those that ran fewer times than there were calls ran at load
    counts = collections.Counter(r[2] for r in gpu)
    ks = [r for r in gpu if not is_copy(r[2]) and counts[r[2]] >= warmup + calls]
    first = ks[warmup * (len(ks) // (warmup + calls))][0]
    return seconds[0] * 1e6, [r for r in gpu if r[0] >= first], [r for r in host if r[0] >= first]


def api_lines(host: list[Record], calls: int) -> list[str]:
    """The CUDA API calls traced, by name: how many a call, their time a call (us)."""
    by = collections.defaultdict(list)
    for _, d, name in host:
        by[name].append(d)
    lines = ["CUDA API calls (a call: how many, their us):"]
    return lines + [f"  {len(ds) / calls:7.1f} {sum(ds) / calls:9.1f}  {name}"
                    for name, ds in sorted(by.items(), key=lambda kv: -sum(kv[1]))]


def idle_after_lines(calls: list[list[Record]]) -> list[str]:
    """The GPU's idle time after each kernel until the next one of its call starts, by kernel."""
    after = collections.defaultdict(list)
    for c in calls:
        for a, b in zip(c, c[1:]):
            after[a[2]].append(b[0] - (a[0] + a[1]))
    lines = ["idle after each kernel (us: median, mean, launches traced):"]
    return lines + [f"  {statistics.median(gs):6.2f} {statistics.mean(gs):6.2f} {len(gs):6d}  {name[:110]}"
                    for name, gs in sorted(after.items(), key=lambda kv: -sum(kv[1]))]


def overlaps(records: list[Record]) -> tuple[int, float]:
    """(kernels that start before an earlier-started kernel ended, the longest such overlap in us)."""
    count, longest, end = 0, 0.0, float("-inf")
    for start, duration, name in sorted(r for r in records if not is_copy(r[2])):
        if start < end:
            count += 1
            longest = max(longest, end - start)
        end = max(end, start + duration)
    return count, longest


def back_to_back_summary(us: float, records: list[Record], calls: int, layers: int, long_gap: float = 5.0) -> list[str]:
    """The report's lines for the traced `records` of `calls` calls issued back to back; the
    GPU's idle time without a kernel is split at `long_gap` us (the kernels' launches, and the
    waits that end a call or a command buffer)."""
    ks = [r for r in records if not is_copy(r[2])]
    if not ks:
        raise SystemExit("error: no kernels traced")
    span = max(s + d for s, d, _ in ks) - ks[0][0]
    busy = sum(d for _, d, _ in ks)
    count, longest = overlaps(ks)
    gaps = [b[0] - (a[0] + a[1]) for a, b in zip(ks, ks[1:])]
    long = [g for g in gaps if g > long_gap]
    n = calls * layers
    return [f"{calls} calls of {len(ks) / calls:g} kernels issued back to back; a call / {layers}: host clock "
            f"{us / layers:.2f} us, GPU span {span / n:.2f} us, kernels {busy / n:.2f} us, "
            f"idle {(span - busy) / n:.2f} us",
            f"kernels that start before another ended: {count} of {len(ks)} (longest overlap {longest:.2f} us)",
            f"idle between kernels: median {statistics.median(gaps) if gaps else 0:.2f} us; {len(long) / calls:g} a call "
            f"longer than {long_gap:g} us, {sum(long) / calls:.1f} us a call"] + idle_after_lines([ks])


def is_copy(name: str) -> bool:
    """A copy or fill the runtime issues (CUPTI's Memcpy/Memset records), not a kernel."""
    return name.startswith(("Memcpy", "Memset"))


def calls_of(ks: list[Record], call_gap: float) -> list[list[Record]]:
    calls, cur = [], []
    for k in ks:
        if cur and k[0] - (cur[-1][0] + cur[-1][1]) > call_gap:
            calls.append(cur)
            cur = []
        cur.append(k)
    return calls + ([cur] if cur else [])


def summary(records: list[Record], call_gap: float, skip: int, layers: int) -> list[str]:
    """The report's lines for the traced `records` (start us, duration us, name; kernels, copies
    and fills): calls are cut where no kernel runs for longer than `call_gap` us, the first
    `skip` left out; figures a call are divided by `layers`."""
    ks = [r for r in records if not is_copy(r[2])]
    cs = calls_of(ks, call_gap)[skip:]
    if not cs:
        raise SystemExit("error: no calls traced")
    # from one call's last kernel to the next one's first: the host's work of a call, its copies
    between = [b[0][0] - (a[-1][0] + a[-1][1]) for a, b in zip(cs, cs[1:])]
    starts = [c[0][0] for c in cs] + [float("inf")]
    copies = [[r for r in records if is_copy(r[2]) and lo <= r[0] < hi] for lo, hi in zip(starts, starts[1:])]
    spans, busy, idle = [], [], []
    durations = collections.defaultdict(list)
    for c in cs:
        spans.append(c[-1][0] + c[-1][1] - c[0][0])
        busy.append(sum(d for _, d, _ in c))
        for _, d, name in c:
            durations[name].append(d)
        idle.append(spans[-1] - busy[-1])
    n = layers
    lines = [f"{len(cs)} calls of {statistics.median(len(c) for c in cs)} kernels; per call / {n}: span "
             f"{statistics.median(spans) / n:.2f} us, kernels {statistics.median(busy) / n:.2f} us, idle between "
             f"kernels {statistics.median(idle) / n:.2f} us"]
    if between:
        lines.append(f"GPU without a kernel between calls: {statistics.median(between):.1f} us a call (median), "
                     f"{statistics.median(between) / n:.2f} us / {n}")
    lines.append(f"copies and fills a call (Memcpy/Memset, from its first kernel to the next call's): "
                 f"{statistics.median(len(c) for c in copies):g}, "
                 f"{statistics.median(sum(d for _, d, _ in c) for c in copies):.2f} us")
    lines += [f"  {count / len(copies):6.1f} a call  {name[:110]}"
              for name, count in sorted(collections.Counter(r[2] for c in copies for r in c).items())]
    lines.append("each kernel's duration (us: median, launches a call, their sum a call / layers):")
    lines += [f"  {statistics.median(ds):6.2f} {len(ds) / len(cs):6.1f} {sum(ds) / len(cs) / n:6.2f}  {name[:110]}"
              for name, ds in sorted(durations.items(), key=lambda kv: -sum(kv[1]))]
    return lines + idle_after_lines(cs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--mode", default="default", help="a runtime mode of timing.RUNTIME_MODES['cuda']")
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--skip", type=int, default=1, help="first calls traced left out")
    ap.add_argument("--call-gap", type=float, default=30.0, help="us without a kernel that ends a call")
    ap.add_argument("--layers", type=int, default=1, help="divide the per-call figures by this")
    ap.add_argument("--back-to-back", choices=("chained", "independent"),
                    help="trace an async stack's calls issued back to back (each waiting for the one before, or not)")
    ap.add_argument("--api", action="store_true", help="also the CUDA driver and runtime calls a call makes")
    args = ap.parse_args()
    flags = timing.RUNTIME_MODES["cuda"][args.mode]
    if args.back_to_back:
        us, records, host = back_to_back_kernels(args.folder, flags, args.calls, args.back_to_back == "independent",
                                                 args.api)
        lines = back_to_back_summary(us, records, args.calls, args.layers)
        title = f"{args.folder} ({args.mode}, back to back, {args.back_to_back})"
    else:
        records, host = kernels(args.folder, flags, args.calls, args.api)
        lines = summary(records, args.call_gap, args.skip, args.layers)
        title = f"{args.folder} ({args.mode})"
    print(f"{title}: {lines[0]}")
    print("\n".join(lines[1:] + (api_lines(host, args.calls) if args.api else [])))


if __name__ == "__main__":
    main()
