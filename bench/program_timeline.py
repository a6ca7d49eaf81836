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

    python3 bench/program_timeline.py DIR/ldsopt-stack [--mode graphs] [--calls 30] [--layers 12]

Needs torch with CUDA and the IREE runtime importable (PYTHONPATH)."""

from __future__ import annotations

import argparse
import collections
import statistics

from ldsopt.measure import back_to_back, timing


def kernels(folder: str, flags: tuple[str, ...], calls: int) -> list[tuple[float, float, str]]:
    """(start us, duration us, name) of every kernel, copy and fill the folder's function ran in
    `calls` calls, each awaited and its first result read back."""
    import iree.runtime as rt
    import torch
    from torch.profiler import ProfilerActivity, profile

    device, context, function, args, _ = back_to_back.load(folder, flags)

    def call():
        results = back_to_back.invoke(context, function, args)
        back_to_back.to_host(device, results.get_as_object(0, rt.HalBufferView))

    torch.zeros(1, device="cuda")  # CUPTI needs a CUDA context of torch's before it traces
    for _ in range(3):
        call()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            call()
    out = [(e.time_range.start, e.time_range.elapsed_us(), e.name) for e in prof.events()
           if e.device_type.name == "CUDA"]
    return sorted(out)


def is_copy(name: str) -> bool:
    """A copy or fill the runtime issues (CUPTI's Memcpy/Memset records), not a kernel."""
    return name.startswith(("Memcpy", "Memset"))


def calls_of(ks: list[tuple[float, float, str]], call_gap: float) -> list[list[tuple[float, float, str]]]:
    calls, cur = [], []
    for k in ks:
        if cur and k[0] - (cur[-1][0] + cur[-1][1]) > call_gap:
            calls.append(cur)
            cur = []
        cur.append(k)
    return calls + ([cur] if cur else [])


def summary(records: list[tuple[float, float, str]], call_gap: float, skip: int, layers: int) -> list[str]:
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
    after, durations = collections.defaultdict(list), collections.defaultdict(list)
    for c in cs:
        spans.append(c[-1][0] + c[-1][1] - c[0][0])
        busy.append(sum(d for _, d, _ in c))
        for _, d, name in c:
            durations[name].append(d)
        gaps = [(b[0] - (a[0] + a[1]), a[2]) for a, b in zip(c, c[1:])]
        idle.append(sum(g for g, _ in gaps))
        for g, name in gaps:
            after[name].append(g)
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
    lines.append("idle after each kernel (us: median, mean, launches traced):")
    lines += [f"  {statistics.median(gs):6.2f} {statistics.mean(gs):6.2f} {len(gs):6d}  {name[:110]}"
              for name, gs in sorted(after.items(), key=lambda kv: -sum(kv[1]))]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--mode", default="default", help="a runtime mode of timing.RUNTIME_MODES['cuda']")
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--skip", type=int, default=1, help="first calls traced left out")
    ap.add_argument("--call-gap", type=float, default=30.0, help="us without a kernel that ends a call")
    ap.add_argument("--layers", type=int, default=1, help="divide the per-call figures by this")
    args = ap.parse_args()
    lines = summary(kernels(args.folder, timing.RUNTIME_MODES["cuda"][args.mode], args.calls), args.call_gap,
                    args.skip, args.layers)
    print(f"{args.folder} ({args.mode}): {lines[0]}")
    print("\n".join(lines[1:]))


if __name__ == "__main__":
    main()
