"""Unit tests of ldsopt.magic_div: exhaustive exactness, the proven range is the real limit."""
import math
import random

import numpy as np
import pytest

from ldsopt.layout.magic_div import U32_MAX, MagicDivider, check_exact, first_failure

DIVISORS = [3, 5, 6, 7, 12, 24, 48, 96, 160, 192, 320, 1000, 1009]
RANGE = (1 << 20) - 1


def _brute_first_failure(d, magic, shift, limit):
    x = np.arange(limit, dtype=np.uint64)
    bad = np.nonzero((x * np.uint64(magic)) >> np.uint64(shift) != x // np.uint64(d))[0]
    return int(bad[0]) if bad.size else math.inf


@pytest.mark.parametrize("d", DIVISORS + [1 << k for k in range(0, 12)])
def test_exhaustive_over_range(d):
    md = MagicDivider.for_divisor(d, RANGE)
    assert md.is_pow2 == (d & (d - 1) == 0)
    assert check_exact(d, md.magic, md.shift, RANGE)
    assert md.proven_range() >= RANGE
    x = np.arange(RANGE + 1, dtype=np.uint64)
    q = (x * np.uint64(md.magic)) >> np.uint64(md.shift)
    assert np.array_equal(q, x // np.uint64(d))
    assert np.array_equal(x - q * np.uint64(d), x % np.uint64(d))
    for v in [0, 1, d - 1, d, d + 1, RANGE // 2, RANGE]:
        assert md.apply(v) == divmod(v, d)


@pytest.mark.parametrize("d", DIVISORS)
def test_shift_is_minimal(d):
    md = MagicDivider.for_divisor(d, RANGE)
    s = md.shift - 1
    assert not check_exact(d, -(-(1 << s) // d), s, RANGE)


def test_power_of_two_uses_shift_and_mask():
    md = MagicDivider.for_divisor(64, 1000)
    assert (md.is_pow2, md.magic, md.shift) == (True, 1, 6)
    assert md.apply(1000) == (15, 40)
    assert md.proven_range() == U32_MAX
    assert MagicDivider.for_divisor(1).apply(12345) == (12345, 0)


@pytest.mark.parametrize("d", [1009, 1000, 641, 96, 7])
def test_hipblaslt_constant_range_is_the_real_limit(d):
    """hipBLASLt: magic = floor(2^33 / d) + 1, shift 33.  The computed range is tight."""
    md = MagicDivider(d, (1 << 33) // d + 1, 33)
    n = md.proven_range()
    if n < (1 << 25):                      # small enough to prove both sides exhaustively
        assert check_exact(d, md.magic, md.shift, n)
        assert not check_exact(d, md.magic, md.shift, n + 1)
    if n < U32_MAX:                        # finite: the next dividend really divides wrongly
        assert md.apply(n + 1) != divmod(n + 1, d)
        assert md.apply(n) == divmod(n, d)
    else:                                  # 641 divides 2^32 + 1: first failure just past u32
        assert first_failure(d, md.magic, md.shift) > U32_MAX
        assert md.apply(U32_MAX) == divmod(U32_MAX, d)


def test_range_limit_for_a_chosen_divider():
    md = MagicDivider.for_divisor(1000, 4096)
    n = md.proven_range()
    assert 4096 <= n < U32_MAX
    assert check_exact(1000, md.magic, md.shift, n) and not check_exact(1000, md.magic, md.shift, n + 1)
    assert md.apply(n + 1) != divmod(n + 1, 1000)


def test_first_failure_matches_brute_force():
    rng = random.Random(0)
    for _ in range(400):
        d = rng.randint(1, 400)
        s = rng.randint(0, 14)
        magic = max(0, -(-(1 << s) // d) + rng.randint(-2, 3))    # also magics that are too small/large
        got = first_failure(d, magic, s)
        want = _brute_first_failure(d, magic, s, 1 << 17)
        assert got == want or (want == math.inf and got >= 1 << 17), (d, magic, s, got, want)


def test_full_32bit_range():
    md = MagicDivider.for_divisor(3)           # d = 3 is exact for every u32 dividend
    assert md.proven_range() == U32_MAX
    for v in [U32_MAX, U32_MAX - 1, 3 * 1431655765, 2 ** 31]:
        assert md.apply(v) == divmod(v, 3)


def test_impossible_requests_raise():
    with pytest.raises(ValueError):
        MagicDivider.for_divisor(7, U32_MAX)       # needs a 33-bit magic: product exceeds 64 bits
    with pytest.raises(ValueError):
        MagicDivider.for_divisor(1009, U32_MAX)
    with pytest.raises(ValueError):
        MagicDivider.for_divisor(5, 1 << 32)       # not a 32-bit dividend
    with pytest.raises(ValueError):
        MagicDivider.for_divisor(0, 10)
    with pytest.raises(ValueError):
        MagicDivider.for_divisor(3, 10).apply(-1)


def test_min_shift_gives_mul_hi_form():
    md = MagicDivider.for_divisor(96, 1 << 24, min_shift=32)
    assert md.shift >= 32 and md.magic < 1 << 32
    assert check_exact(96, md.magic, md.shift, 1 << 24)
