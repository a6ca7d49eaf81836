"""Reads the clock64 stamps that trace.patch's kernels write over their output tiles (FFN down
512x768x3072, f16 output; `trace.sh`'s variants, named KIND-BMxBN-sS) and prints, per variant,
the medians over the workgroups (cycles of the SM's clock): the whole workgroup, its parts, a
K step, the math warps' wait for each next tile, and under a multicast the producer's wait for
each LDS tile's release and the release-to-landing chain of a refilled tile. Stamps
(trace.patch), by math thread 0 unless said: K step kt: kt (its predecessor's wgmmas done),
64 + kt (tile kt + 1 landed and published); the producer's lane (multicast), tile t: 128 + t
(its LDS tile released), 192 + t (its boxes issued); 256 start of the pipeline, 257 its first
tiles issued (multicast: the maps published), 258 after the loop, 259 stored.

    python stamps.py OUT/NAME_RUN.npy [...]"""

import re
import sys

import numpy as np

M, N, K, BK = 512, 768, 3072, 64
STEPS = K // BK


def stamps(path: str, bm: int, bn: int) -> np.ndarray:
    """[workgroups, 320] stamps of an f16 [M, N] output whose tiles are bm x bn."""
    raw = np.load(path).view(np.uint8).reshape(M, N * 2)
    tiles = [raw[m:m + 20, n * 2:n * 2 + 128].reshape(-1).view(np.uint64)
             for m in range(0, M, bm) for n in range(0, N, bn)]
    return np.stack(tiles).astype(np.int64)


def summary(s: np.ndarray, stages: int) -> dict[str, float]:
    med = lambda x: float(np.median(x))  # noqa: E731
    done, after = s[:, 0:STEPS - 1], s[:, 64:64 + STEPS - 1]  # at step kt: tile kt + 1 landed
    out = {
        "workgroup": med(s[:, 259] - s[:, 256]),
        "start->issued": med(s[:, 257] - s[:, 256]),
        "issued->loop end": med(s[:, 258] - s[:, 257]),
        "loop end->stored": med(s[:, 259] - s[:, 258]),
        "step": med(np.diff(after, axis=1)),
        "step, slowest decile": float(np.percentile(np.diff(after, axis=1), 90)),
        "math wait for next tile": med(after - done),
    }
    if s[:, 128:128 + STEPS].any():  # a producer warp's stamps (multicast)
        released, issued = s[:, 128:128 + STEPS], s[:, 192:192 + STEPS]
        refill = np.arange(stages, STEPS)  # tiles whose LDS tile was released first
        out["producer wait for a release"] = med(released[:, refill] - issued[:, refill - 1])
        out["issue->landed"] = med(after[:, refill[:-1] - 1] - issued[:, refill[:-1]])
    return out


if __name__ == "__main__":
    for path in sys.argv[1:]:
        bm, bn, stages = map(int, re.search(r"-(\d+)x(\d+)-s(\d+)_", path).groups())
        print(path.split("/")[-1], {k: round(v) for k, v in summary(stamps(path, bm, bn), stages).items()})
