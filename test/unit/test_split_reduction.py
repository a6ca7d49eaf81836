"""How ldsopt-split-reduction chooses the number of partials per output."""

import pytest

from ldsopt.reduction.plan import choose_splits


@pytest.mark.parametrize("extent,outputs,expected", [
    (1 << 26, 1, 1024),         # a full sum: target-outputs partials
    (1 << 20, 32, 32),          # 32 rows: 32 x 32 partials
    (1 << 20, 1, 256),          # chunks keep min-chunk elements
    (3 << 15, 2, 24),           # no power of two near 512: the nearest divisor
    (3 << 20, 3, 256),          # goal 342: a power of two within 2x wins over the nearer 384
    (65537, 1, None),           # prime: nothing to split by
    (8192, 1, 2),               # 2 chunks of 4096
])
def test_choose_splits(extent, outputs, expected):
    assert choose_splits(extent, outputs, target_outputs=1024, max_splits=1024, min_chunk=4096) == expected


def test_max_splits_caps():
    assert choose_splits(1 << 26, 1, target_outputs=1024, max_splits=64, min_chunk=4096) == 64
