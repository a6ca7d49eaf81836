"""Reads the clock64 stamps that trace.patch's multicast kernels write over their output tiles
(FFN down 512x768x3072, 64x64 tiles, f16 output) and prints, per variant, the medians over
the workgroups (cycles): the steps of the K loop, the math warps' wait for each next tile, the
producer's wait for each LDS tile's release, the release-to-landing chain of a refilled tile,
and the spans before and after the loop. Stamps (trace.patch): math thread 0, K step kt: kt
(after its release), 64 + kt (after waiting for tile kt + 1); the producer's lane, tile t:
128 + t (its LDS tile released), 192 + t (its boxes issued); 256 start, 257 maps published,
258 after the loops, 259 stored.

    python stamps.py OUTPUT.npy [...]"""

import sys

import numpy as np

M, N, BM, BN, STEPS = 512, 768, 64, 64, 48


def stamps(path: str) -> np.ndarray:
    """[workgroups, 320] u64 stamps of an f16 [M, N] output."""
    raw = np.load(path).view(np.uint8).reshape(M, N * 2)
    tiles = [raw[m:m + 20, n * 2:n * 2 + 128].reshape(-1).view(np.uint64)
             for m in range(0, M, BM) for n in range(0, N, BN)]
    return np.stack(tiles).astype(np.int64)


def summary(s: np.ndarray, stages: int) -> dict[str, float]:
    after = s[:, 64:64 + STEPS - 1]  # tile kt + 1 landed, seen at step kt
    released, issued = s[:, 128:128 + STEPS], s[:, 192:192 + STEPS]
    med = lambda x: float(np.median(x))  # noqa: E731
    refill = np.arange(stages, STEPS)  # tiles whose LDS tile was released first
    return {
        "start->maps": med(s[:, 257] - s[:, 256]),
        "maps->loop end": med(s[:, 258] - s[:, 257]),
        "loop end->stored": med(s[:, 259] - s[:, 258]),
        "step": med(np.diff(after, axis=1)),
        "math wait for next tile": med(after - s[:, 0:STEPS - 1]),
        "producer wait for a release": med(released[:, refill] - issued[:, refill - 1]),
        "issue->landed": med(after[:, refill[:-1] - 1] - issued[:, refill[:-1]]),
    }


if __name__ == "__main__":
    for path in sys.argv[1:]:
        stages = int(path.split("/")[-1].split("_")[0][1:])
        print(path, {k: round(v) for k, v in summary(stamps(path), stages).items()})
