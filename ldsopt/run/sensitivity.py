"""Each output element's own scale for lds-run's check: how far its reference value moves when
the inputs move by a rounding's worth, measured on the reference.

Why: a kernel's rounding errors are small relative changes of the values it computes with (each
product, each partial sum, each exp). A sum that cancels to near 0 carries the rounding of its
terms, not of its value, so it must be judged at the size of its terms; but only of *its own*
terms: judging it at the size of the output's other elements (their RMS, as the check did) let
an output of 999 ones and one 1e6 pass ones computed as 4.0. The reference measures each
element's own scale by moving the inputs:

    c_i = sqrt(mean over DRAWS draws d of ((f(x * (1 + delta * s_d)) - f(x)) / delta)_i ** 2)

f the reference program, x its float inputs, s_d a seeded vector of random signs, one per input
element. c_i estimates the 2-norm of (x_k * df_i/dx_k) over the inputs k: for a sum of K terms,
the RMS of its terms times sqrt(K), whatever its value; for a product or an exp, its value times
the relative size of what feeds it; for an element no input reaches (a constant), 0. `delta` is
small against the reference's own precision where it computes in f64 (the program promoted)
and rounds nowhere, larger where it rounds to a narrower type (its own types, or an f16 truncf
the promoted program keeps), so that the move is not lost in that rounding (`DELTA` of the
coarsest such type, `delta`). A draw that makes an element inf or NaN where it was finite (or the
reverse) says nothing about its scale: that draw's change counts as 0.

Contract: `perturbed(arrays, dtypes, seed, draw)` gives a draw's inputs (float inputs moved,
others as they are); `estimate(base, moved, delta)` gives c from the reference outputs `base`
and those of each draw, `moved` (float64 arrays of one output). numpy only, no compiler.
"""

from __future__ import annotations

import numpy as np

from ldsopt.run.tensor_file import bf16_bits

DRAWS = 3
# The relative move of a float input, by the coarsest type the reference reads or rounds values
# in: 2^-20 in f64 (a promoted reference), else about 2^11 ulps of that type (bf16: 2^4).
DELTA = {"f64": 2.0**-20, "f32": 2.0**-12, "f16": 2.0**-6, "bf16": 2.0**-4}


def delta(dtypes: list[str]) -> float:
    """The move of a reference whose float inputs and rounded values are of `dtypes` (the
    coarsest one's)."""
    return max((DELTA[t] for t in dtypes if t in DELTA), default=DELTA["f64"])


def perturbed(arrays: list[np.ndarray], dtypes: list[str], seed: int, draw: int, step: float) -> list[np.ndarray]:
    """`arrays` (as stored: bf16 as uint16) with each float element x made x * (1 + step * s),
    s = +1 or -1 drawn from (seed, draw); other arrays unchanged."""
    rng = np.random.default_rng([seed, 2, draw])
    out = []
    for a, dtype in zip(arrays, dtypes):
        if dtype not in DELTA:
            out.append(a)
            continue
        signs = rng.integers(0, 2, a.shape) * 2.0 - 1.0
        if dtype == "bf16":
            values = (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
            out.append(bf16_bits(values * (1 + step * signs)))
        else:
            out.append((a.astype(np.float64) * (1 + step * signs)).astype(a.dtype))
    return out


def estimate(base: np.ndarray, moved: list[np.ndarray], step: float) -> np.ndarray:
    """c (float64, `base`'s shape) from the reference output `base` and its values under each
    draw, `moved`: the RMS over the draws of their change divided by `step` (scaled, so that
    values near f64's range do not overflow), a change that is not finite counted as 0."""
    base = np.asarray(base, np.float64)
    if not moved:
        return np.zeros(base.shape)
    with np.errstate(invalid="ignore", over="ignore"):
        changes = np.stack([(np.asarray(m, np.float64) - base) / step for m in moved])
        changes = np.where(np.isfinite(changes), np.abs(changes), 0.0)
        top = changes.max(axis=0)
        ratio = changes / np.where(top > 0, top, 1.0)
        return top * np.sqrt(np.mean(ratio**2, axis=0))
