"""The wgmma scheme's plan (planner.wgmma_plan, sm_90a): which products it takes, its tilings
and stages, and its LDS layouts, each checked against the layout that a wgmma matrix
descriptor of 128-byte swizzle describes (written here from PTX's canonical layouts, not from
the maps under test)."""

import pytest
from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.layout.tile_layout import Direct, LdsRows, RowChunks
from ldsopt.matmul import planner, schemes

HOPPER = target_model.by_name("cuda-sm90a")


@pytest.fixture(autouse=True)
def context():
    with ir.Context(), ir.Location.unknown():
        yield


def k_major_bytes(row: int, k: int) -> int:
    """Byte offset of element (row, k) of a K-major 16-bit operand in the 128-byte swizzle:
    8-row groups 1024 bytes apart (the descriptor's stride offset), 128-byte rows, 16-byte unit
    k / 8 at unit k / 8 ^ row % 8."""
    return row // 8 * 1024 + row % 8 * 128 + ((k // 8) ^ (row % 8)) * 16 + k % 8 * 2


def mn_major_bytes(k: int, x: int, k_rows: int) -> int:
    """Byte offset of element (k, x) of an MN-major 16-bit operand (x along M or N) of `k_rows`
    K rows: blocks of 64 x a leading offset of k_rows * 128 bytes apart, in each 8-K-row groups
    1024 bytes apart (the stride offset), 128-byte rows of 64 x swizzled as above."""
    return x // 64 * k_rows * 128 + k // 8 * 1024 + k % 8 * 128 + ((x % 64 // 8) ^ (k % 8)) * 16 + x % 8 * 2


def test_k_major_rows_are_the_descriptors_layout():
    lds = LdsRows.swizzled(64, 8, 1, 8)
    offsets = {lds.address_map(r * 64 + k) * 2: (r, k) for r in range(128) for k in range(64)}
    assert all(k_major_bytes(r, k) == off for off, (r, k) in offsets.items())
    assert sorted(offsets) == list(range(0, 128 * 64 * 2, 2))  # each element once


@pytest.mark.parametrize("cols", [64, 128, 256])
def test_mn_major_blocks_are_the_descriptors_layout(cols):
    lds = LdsRows.swizzled(cols, 8, 1, 8, column_block=64, rows=64)
    amap = lds.address_map
    offsets = {amap(k * cols + x) * 2: (k, x) for k in range(64) for x in range(cols)}
    assert all(mn_major_bytes(k, x, 64) == off for off, (k, x) in offsets.items())
    assert sorted(offsets) == list(range(0, 64 * cols * 2, 2))
    assert all(amap.inverse(amap(i)) == i for i in range(64 * cols))


@pytest.mark.parametrize("dims_a, dims_b", [(("m", "k"), ("n", "k")), (("m", "k"), ("k", "n")),
                                            (("k", "m"), ("k", "n")), (("k", "m"), ("n", "k"))])
def test_sm90a_plans_wgmma_for_every_storage_order(matmul_problem, dims_a, dims_b):
    """4096^3 f16 on the H200's 132 SMs: 128x256 tiles (two warpgroups, m64n256k16) of 64-element
    K steps, 4 LDS tiles of 48 KiB, each operand copied by cp.async in its own memory order
    into the layout its descriptor reads (K-major or MN-major)."""
    p = matmul_problem(dims_a, dims_b, "f16", 4096, 4096, 4096)
    assert planner.wgmma_refusal(p, HOPPER) is None
    pl = planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1))
    assert isinstance(pl.scheme, schemes.WgmmaScheme) and pl.scheme.fragment("A") == "wgmma m64n256k16"
    assert (pl.tiling.bm, pl.tiling.bn, pl.tiling.threads, pl.bk, pl.stages) == (128, 256, 256, 64, 4)
    assert pl.lds_bytes(2) == 4 * (128 + 256) * 64 * 2 <= HOPPER.lds_bytes
    for role, s in pl.staging.items():
        assert isinstance(s.copy, Direct) and isinstance(s.thread_map, RowChunks) and s.dims == p.dims[role]
        assert s.lds.column_block == (0 if s.k_contiguous else 64)


def test_small_lds_takes_fewer_stages(matmul_problem):
    p = matmul_problem(("m", "k"), ("n", "k"), "bf16", 4096, 4096, 4096)
    assert planner.wgmma_plan(p, HOPPER, 3 * (128 + 256) * 128).stages == 3
    pl = planner.wgmma_plan(p, HOPPER, 2 * (128 + 256) * 128)  # the 128x256 tile fits 2 stages only
    assert pl.stages >= planner.WGMMA_MIN_STAGES and (pl.tiling.bm, pl.tiling.bn) != (128, 256)


@pytest.mark.parametrize("dtype, dims_b, sizes, reason", [
    ("f32", ("n", "k"), (256, 256, 256), "f16 and bf16 into f32"),
    ("f16", ("n", "k"), (256, 256, 70), "a multiple of 8"),
    ("bf16", ("k", "n"), (256, 100, 64), "a multiple of 8"),
])
def test_wgmma_refusals(matmul_problem, dtype, dims_b, sizes, reason):
    p = matmul_problem(("m", "k"), dims_b, dtype, *sizes)
    assert reason in planner.wgmma_refusal(p, HOPPER)


def test_sm89_has_no_wgmma(matmul_problem):
    p = matmul_problem(("m", "k"), ("n", "k"), "f16", 4096, 4096, 4096)
    assert "sm_90a" in planner.wgmma_refusal(p, target_model.by_name("cuda"))


def test_most_stages_caps_the_pipeline(matmul_problem):
    """`stages` given to ldsopt-matmul-lds caps the wgmma tiles in flight; the LDS caps them too."""
    p = matmul_problem(("m", "k"), ("k", "n"), "f16", 4096, 4096, 4096)
    tilings = (schemes.Tiling(128, 128, 8, 8),)
    assert planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1), tilings, most_stages=6).stages == 6
    assert planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1), tilings, most_stages=9).stages == 7  # 7 x 32 KiB
