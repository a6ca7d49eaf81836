"""Division by a static divisor for index math, with a proof of the range where it is exact.

Thread and offset indices are often divided by a tile size known at compile time
(hipBLASLt's generalized NLC=1 splits a thread id by a non-power-of-2 number of
threads along the coalesced dimension).  GPUs have no fast integer divide, so:

* ``d`` a power of two: ``q = x >> log2(d)``, ``r = x & (d - 1)``;
* otherwise: ``q = (x * magic) >> shift`` with ``magic = ceil(2^shift / d)``,
  ``r = x - q * d``.  hipBLASLt uses ``shift = 33``, ``magic = floor(2^33/d) + 1``
  (the same number unless ``d`` is a power of two).

The round-up multiply is exact only up to some dividend, so the range is *proved*,
never assumed.  The model is a 32-bit unsigned dividend and a 64-bit unsigned
product (``arith.muli`` on i64, or ``mului_extended``/``v_mul_hi_u32`` when
``shift >= 32`` and ``magic < 2^32``).

Why the bound holds: let ``e = magic * d - 2^shift``.  For ``e > 0`` the quotient
is never too small, and it is too large exactly when
``x * e >= (d - x % d) * 2^shift``; :func:`first_failure` finds the smallest such
``x`` in closed form (O(1), so any 32-bit range is proved instantly).  :func:`check_exact` is the independent, exhaustive check.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

U32_MAX = (1 << 32) - 1
U64_MAX = (1 << 64) - 1


def first_failure(d: int, magic: int, shift: int) -> float:
    """Smallest ``x >= 0`` with ``(x * magic) >> shift != x // d`` (exact integer maths).

    Returns ``math.inf`` when no dividend fails.
    """
    if d < 1 or magic < 0 or shift < 0:
        raise ValueError(f"invalid divider d={d} magic={magic} shift={shift}")
    e = magic * d - (1 << shift)
    if e == 0:
        return math.inf           # magic / 2^shift == 1 / d exactly
    if e < 0:
        return d                  # quotient too small first at x = d (x < d gives 0 == 0)
    # Failure iff x*e >= (d - r) * 2^shift with x = q*d + r.  For a given q the
    # failing remainders are r >= d*(2^shift - q*e) / (2^shift + e), a bound that
    # falls as q grows; so the first failure is in the smallest q whose bound is
    # <= d - 1, at its smallest failing r.
    p = 1 << shift
    q = max(0, -(-(p - (d - 1) * e) // (d * e)))
    r = max(0, -(-(d * (p - q * e)) // (p + e)))
    return q * d + r


def check_exact(d: int, magic: int, shift: int, max_dividend: int, chunk: int = 1 << 22) -> bool:
    """Exhaustively check ``(x * magic) >> shift == x // d`` for all ``0 <= x <= max_dividend``.

    Emulates the hardware: unsigned 64-bit product, wrapping on overflow.
    Vectorized with numpy in chunks (2^24 dividends take about 0.3 s).
    """
    if not (0 <= magic <= U64_MAX and 0 <= shift < 64 and d >= 1 and 0 <= max_dividend <= U32_MAX):
        raise ValueError(f"out of the 32/64-bit model: d={d} magic={magic} shift={shift} max={max_dividend}")
    m = np.uint64(magic)
    s = np.uint64(shift)
    dd = np.uint64(d)
    with np.errstate(over="ignore"):
        for start in range(0, max_dividend + 1, chunk):
            x = np.arange(start, min(start + chunk, max_dividend + 1), dtype=np.uint64)
            if not np.array_equal((x * m) >> s, x // dd):
                return False
    return True


@dataclass(frozen=True)
class MagicDivider:
    """``x -> (x // divisor, x % divisor)`` by shift/mask or multiply-high, exact on a proven range."""

    divisor: int
    magic: int
    shift: int

    @property
    def is_pow2(self) -> bool:
        return self.divisor & (self.divisor - 1) == 0

    @classmethod
    def for_divisor(cls, d: int, max_dividend: int = U32_MAX, min_shift: int = 0) -> "MagicDivider":
        """The divider with the smallest ``shift >= min_shift`` exact on ``[0, max_dividend]``.

        A small shift keeps ``magic`` (and the product) narrow; ``min_shift=32``
        asks for a form that ``v_mul_hi_u32`` can evaluate.  Raises ``ValueError``
        when the request is outside the 32-bit dividend model or no shift is exact
        with the product below 2^64.
        """
        if d < 1:
            raise ValueError(f"divisor must be positive, got {d}")
        if not 0 <= max_dividend <= U32_MAX:
            raise ValueError(f"max_dividend {max_dividend} is not a 32-bit unsigned value")
        if d & (d - 1) == 0:
            return cls(d, 1, d.bit_length() - 1)
        for shift in range(min_shift, 64):
            magic = -(-(1 << shift) // d)
            if max_dividend * magic > U64_MAX:
                break            # magic only grows with the shift
            if first_failure(d, magic, shift) > max_dividend:
                return cls(d, magic, shift)
        raise ValueError(f"no exact (magic, shift) for d={d} up to {max_dividend} within 64-bit products")

    def proven_range(self) -> int:
        """Largest ``N`` such that every ``0 <= x <= N`` divides exactly.

        The least of: the first failing dividend minus one (:func:`first_failure`),
        the largest dividend whose product fits 64 bits, and the 32-bit maximum.
        """
        return int(min(first_failure(self.divisor, self.magic, self.shift) - 1,
                       U64_MAX // self.magic, U32_MAX))

    def apply(self, x: int) -> tuple[int, int]:
        """``(q, r)`` as the hardware computes them (64-bit wrapping product, no range check)."""
        if not 0 <= x <= U32_MAX:
            raise ValueError(f"dividend {x} is not a 32-bit unsigned value")
        if self.is_pow2:
            return x >> self.shift, x & (self.divisor - 1)
        q = ((x * self.magic) & U64_MAX) >> self.shift
        return q, (x - q * self.divisor) & U32_MAX
