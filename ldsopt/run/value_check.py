"""lds-run's check of an output against its reference, element by element (`compare`).

The rule (README.md states it where it describes lds-run's check):
- integers must be equal;
- a finite float element passes if |out - ref| <= atol + rtol * max(|ref|, s, atol), where s,
  the scale the element may be judged at beyond its own value, is its own:
  s = min(SENSITIVITY_MARGIN * c, R), c the element's sensitivity (`ldsopt.run.sensitivity`: how far
  its reference moves, per unit of relative move of the inputs; a sum that cancels to near 0
  keeps the scale of its terms) and R the RMS of the output's finite reference values. Other
  elements of the output never lend it their size: an output of 999 ones and one 1e6 judges the
  ones at 1 (the RMS scale it replaces judged them at 3.2e4, and passed 4.0 for 1). The margin
  covers the estimate's spread (c is measured from a few random moves); the cap R keeps the
  check at least as strict as the RMS rule everywhere. Without a sensitivity (an older folder,
  a program without float inputs) s is 0.
- +inf, -inf and NaN by class: such an output passes only where the reference, rounded to the
  output's type, is of the same class; a finite output never passes an inf or NaN reference,
  nor the reverse;
- where the program as written is given (`written`: its outputs evaluated one way or more, see
  `ldsopt.run.reference_companions`) and its class differs from the f64 reference's (an f32
  intermediate overflowed in the program's own arithmetic, not in f64, or underflowed to a
  flushed subnormal, or the reverse), the element passes if it matches the f64 reference or
  one of them, by the same rule, and is counted apart (`overflow`, of which `f64_finite` where
  the f64 reference is the finite one): the difference is the program's, not the kernel's,
  and the report says so.
An output whose every element an output of zeros would pass as well (a reference within the
tolerance of 0 everywhere) is compared, and the comparison says so (`zeros_pass`): such a check
cannot tell a right kernel from one that writes nothing, and the report warns of it.
Default tolerances per element type: TOLERANCES (the callers pick the loosest of the output's
type and the types the program computes in), and no tighter an rtol than `rounded_rtol` of each
type the program rounds computed values to: a kernel that computes such a value in another order
may land on the neighbouring value of the narrow type, and what the program computes from it in
a wider type moves by that ulp. Standard library and numpy only.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ldsopt.run.tensor_file import FLOATS, as_float64, round_to

# Default (atol, rtol) per float output element type.
TOLERANCES = {"f32": (1e-4, 1e-4), "f64": (1e-9, 1e-9), "f16": (1e-2, 1e-2), "bf16": (5e-2, 2e-2)}
# Explicit mantissa bits of the float types a program may round to.
MANTISSA_BITS = {"f16": 10, "bf16": 7, "f32": 23, "f64": 52}
# Ulps of such a type an output computed from its rounded values may move by: each value read
# may sit one ulp off, and a sum about one of them (a centred statistic) may cancel.
ROUNDED_ULPS = 4
# How many times its measured sensitivity an element's scale may be (see the module docstring).
SENSITIVITY_MARGIN = 4.0


@dataclasses.dataclass
class Comparison:
    name: str
    dtype: str      # the output's element type, whose tolerances apply
    max_abs: float  # over elements where output and reference are both finite
    max_rel: float  # |out - ref| / max(|ref|, s, atol) over the same elements
    ok: bool
    bad: int        # elements that fail
    special: int    # of them, an inf/NaN against a reference of another class (or the reverse)
    atol: float
    rtol: float
    scale: float    # R, the most any element's s may be: the RMS of the finite reference (floats)
    elements: int = 0   # elements compared
    overflow: int = 0   # elements judged against the program as written (see the module docstring)
    f64_finite: int = 0  # of them, where the f64 reference is finite and the program's arithmetic is not
    zeros_pass: bool = False  # an output of zeros would pass too: the check cannot tell it from no output


def tolerances(dtype: str, atol: float | None, rtol: float | None) -> tuple[float, float]:
    """(atol, rtol) of an output of `dtype`: the given ones, else TOLERANCES; 0 for integers."""
    if dtype not in FLOATS:
        return 0.0, 0.0
    da, dr = TOLERANCES[dtype]
    return (da if atol is None else atol, dr if rtol is None else rtol)


def rounded_rtol(dtype: str) -> float:
    """The least rtol of an output computed from values the program rounds to `dtype`."""
    return ROUNDED_ULPS * 2.0 ** -MANTISSA_BITS[dtype]


def tolerance_growth(k: int) -> float:
    """The factor on the tolerances of a float output whose reference is not promoted
    (`ldsopt.run.reference`: a sum's rounding grows like sqrt(K))."""
    return max(1.0, math.sqrt(k / 64))


def output_tolerances(dtypes: list[str], ref: dict | None, atol: float | None, rtol: float | None) -> list[dict]:
    """The tolerances of outputs of `dtypes` given the reference that ran (`ref`: its
    `reduction_length`, `computes_in` and `rounds_to`): `atol`/`rtol` where given, else the
    defaults of the loosest of the output's type and the float types the program computes in,
    grown by `tolerance_growth` where the reference is the program as written, and the rtol no
    less than `rounded_rtol` of each type the program rounds computed values to."""
    growth = tolerance_growth(ref["reduction_length"]) if ref and ref["reduction_length"] else 1.0
    computed, rounded = (ref.get("computes_in", []), ref.get("rounds_to", [])) if ref else ([], [])
    out = []
    for dtype in dtypes:
        if dtype not in FLOATS:
            a, r = tolerances(dtype, atol, rtol)
            out.append({"atol": a, "rtol": r})
            continue
        defaults = [tolerances(t, None, None) for t in [dtype, *computed]]
        least = max((rounded_rtol(t) for t in rounded), default=0.0)
        out.append({"atol": atol if atol is not None else max(x for x, _ in defaults) * growth,
                    "rtol": rtol if rtol is not None else max(max(y for _, y in defaults) * growth, least)})
    return out


def rms(values: np.ndarray) -> float:
    """The root mean square of `values` (0 if none), without overflow."""
    top = float(np.abs(values).max()) if values.size else 0.0
    return top * float(np.sqrt(np.mean((values / top) ** 2))) if top > 0 else 0.0


def classes(x: np.ndarray) -> np.ndarray:
    """Each element's class: 0 finite, 1 +inf, 2 -inf, 3 NaN."""
    return np.select([np.isnan(x), x == np.inf, x == -np.inf], [3, 1, 2], 0)


def compare(out: np.ndarray, ref: np.ndarray, dtype: str, atol: float, rtol: float, name: str,
            ref_dtype: str | None = None, sensitivity: np.ndarray | None = None,
            written: list[np.ndarray] = ()) -> Comparison:
    """Compares an output of element type `dtype` with a reference of `ref_dtype` (the same, or
    f64 from the promoted program) by the module's rule: `sensitivity` the elements' c (f64, or
    None), `written` the outputs of the program as written, in `dtype`, each way evaluated."""
    o, r = as_float64(out, dtype), as_float64(ref, ref_dtype or dtype)
    if dtype not in FLOATS:  # integers and i1
        diff = np.abs(o - r)
        bad = int((diff != 0).sum())
        worst = float(diff.max()) if diff.size else 0.0
        rel = float((diff / np.maximum(np.abs(r), 1)).max()) if diff.size else 0.0
        return Comparison(name, dtype, worst, rel, bad == 0, bad, 0, atol, rtol, 0.0, int(o.size),
                          zeros_pass=not r.any())
    r_class = round_to(r, dtype) if ref_dtype not in (None, dtype) else r
    cap = max(rms(r[np.isfinite(r)]), atol)
    own = np.zeros(r.shape) if sensitivity is None else np.where(np.isfinite(sensitivity), sensitivity, 0.0)
    s = np.minimum(SENSITIVITY_MARGIN * own, cap)
    passed, diff, size = _judge(o, r, r_class, s, atol, rtol)
    both_finite = np.isfinite(o) & np.isfinite(r)
    overflow = np.zeros(r.shape, bool)
    for way in written:
        w = as_float64(way, dtype)
        differs = classes(w) != classes(r_class)
        overflow |= differs
        passed |= differs & _judge(o, w, w, s, atol, rtol)[0]
    failed = ~passed
    special = failed & ~both_finite
    rel = diff / np.maximum(size, np.finfo(np.float64).tiny)
    return Comparison(name, dtype, float(diff.max()) if diff.size else 0.0, float(rel.max()) if rel.size else 0.0,
                      not failed.any(), int(failed.sum()), int(special.sum()), atol, rtol, cap, int(o.size),
                      int(overflow.sum()), int((overflow & np.isfinite(r_class)).sum()),
                      bool(_judge(np.zeros_like(r), r, r_class, s, atol, rtol)[0].all()))


def _judge(o: np.ndarray, r: np.ndarray, r_class: np.ndarray, s: np.ndarray, atol: float,
           rtol: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(which elements pass, |o - r| where both are finite (else 0), the size they are judged
    at): finite within atol + rtol * max(|r|, s, atol), or of `r_class`'s special class."""
    both_finite = np.isfinite(o) & np.isfinite(r)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(both_finite, np.abs(o - r), 0.0)
        size = np.maximum(np.maximum(np.abs(np.where(both_finite, r, 0.0)), s), atol)
        within = both_finite & (diff <= atol + rtol * size)
        same_class = (np.isnan(o) & np.isnan(r_class)) | (np.isinf(o) & (o == r_class))
    return within | same_class, diff, size
