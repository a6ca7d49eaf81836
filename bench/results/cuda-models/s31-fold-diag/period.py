"""bench/program_timeline.py's calls of a prepared folder's function, plus the period from one
call's first kernel to the next's (the whole call, each awaited, under the profiler). From the
repository root: period.py FOLDER MODE LAYERS."""
import statistics, sys
sys.path.insert(0, "bench")
import program_timeline as pt
from ldsopt.measure import timing

folder, mode, layers = sys.argv[1], sys.argv[2], int(sys.argv[3])
ks = pt.kernels(folder, timing.RUNTIME_MODES["cuda"][mode], 40)
cs = pt.calls_of(ks, 30.0)[1:]
per = [b[0][0] - a[0][0] for a, b in zip(cs, cs[1:])]
spans = [c[-1][0] + c[-1][1] - c[0][0] for c in cs]
busy = [sum(d for _, d, _ in c) for c in cs]
print(f"{folder} {mode}: {len(cs)} calls, {statistics.median(len(c) for c in cs)} kernels a call; per layer: "
      f"period {statistics.median(per)/layers:.2f} us, span {statistics.median(spans)/layers:.2f}, "
      f"kernels {statistics.median(busy)/layers:.2f}, idle in span {(statistics.median(spans)-statistics.median(busy))/layers:.2f}, "
      f"outside span {(statistics.median(per)-statistics.median(spans))/layers:.2f}")
