"""The wgmma scheme's plan (planner.wgmma_plan, sm_90a): which products it takes, its tilings
and stages, and its LDS layouts, each checked against the layout that a wgmma matrix
descriptor of 128-byte swizzle describes (codegen/wgmma.py's transcription of PTX's canonical
layouts, not the maps under test)."""

import dataclasses
import math

import pytest
from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.codegen.wgmma import k_major_bytes, mn_major_bytes
from ldsopt.layout.tile_layout import Direct, LdsRows, RowChunks
from ldsopt.matmul import planner, row_stats, schemes

HOPPER = target_model.by_name("cuda-sm90a")


@pytest.fixture(autouse=True)
def context():
    with ir.Context(), ir.Location.unknown():
        yield


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
    assert all(mn_major_bytes(k, x, 64 * 128) == off for off, (k, x) in offsets.items())
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


def test_mn_major_operand_takes_whole_column_blocks(matmul_problem):
    """A 64x48 tile: B stored K x N (N-contiguous) would be 48 columns of the 64-column
    blocks the MN-major descriptor reads, so the tiling does not fit; stored N x K it does."""
    narrow = (schemes.Tiling(64, 48, 8, 3),)
    nn = matmul_problem(("m", "k"), ("k", "n"), "f16", 512, 768, 3072)
    assert planner.wgmma_plan(nn, HOPPER, HOPPER.lds_budget(1), narrow) is None
    nt = matmul_problem(("m", "k"), ("n", "k"), "f16", 512, 768, 3072)
    pl = planner.wgmma_plan(nt, HOPPER, HOPPER.lds_budget(1), narrow)
    assert (pl.tiling.bm, pl.tiling.bn, pl.scheme.fragment("B")) == (64, 48, "wgmma m64n48k16")


@pytest.mark.parametrize("m, n, bn", [(2048, 2304, 192), (512, 6144, 192), (1030, 2048, 256), (2048, 2048, 256)])
def test_128x192_only_where_it_divides_n(matmul_problem, m, n, bn):
    """M x N x 768 (B K x N): 128x192 tiles pack the waves of 2048 x 2304 and 512 x 6144, but
    a ragged N would lose the copy engine (unpriced by the cost model): there the plan keeps a
    tiling that divides N. Asked for by `tiles`, 128x192 is taken all the same."""
    p = matmul_problem(("m", "k"), ("k", "n"), "f16", m, n, 768)
    pl = planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1))
    assert (pl.tiling.bm, pl.tiling.bn) == (128, bn) and n % bn == 0
    forced = planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1), tilings=(schemes.Tiling(128, 192, 8, 12),))
    assert (forced.tiling.bm, forced.tiling.bn) == (128, 192)


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


@pytest.mark.parametrize("m, n, k, split", [(512, 768, 3072, 8), (512, 2304, 768, 3), (64, 64, 8192, 4),
                                            (4096, 4096, 4096, 2)])
def test_a_split_plan_gives_each_workgroup_its_chunk_of_k(matmul_problem, m, n, k, split):
    """`cluster-k`: the grid's x holds each N tile's `split` workgroups side by side, each with
    as many K steps; unasked, no plan splits."""
    p = matmul_problem(("m", "k"), ("k", "n"), "f16", m, n, k)
    unsplit = planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1))
    pl = planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1), split=split)
    assert unsplit.split == 1 and pl.split == split
    grid = pl.grid(p.sizes)
    assert grid[0] == -(-n // pl.tiling.bn) * split and grid[1] == -(-m // pl.tiling.bm)
    assert (k // pl.bk) % split == 0


def test_a_split_costs_its_sums(matmul_problem):
    """The cost rule adds to a split workgroup's time its cluster barriers and its share of
    the tile's partial sums (3 of 4 of its elements at 4 ways)."""
    p = matmul_problem(("m", "k"), ("k", "n"), "f16", 512, 768, 3072)
    pl = planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1), split=4)
    t = pl.tiling
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(planner, "SPLIT_SUM_COST", 0)
        mp.setattr(planner, "SPLIT_SYNC_COST", 0)
        bare = planner.plan_cost(p, pl, HOPPER)[0]
    expected = planner.SPLIT_SYNC_COST + t.bm * t.bn * planner.SPLIT_SUM_COST * 3 / 4
    assert planner.plan_cost(p, pl, HOPPER)[0] == pytest.approx(bare + expected)


@pytest.mark.parametrize("tiling, k, split, fits", [
    ((128, 256), 3072, 8, True),    # 48 K steps, 6 each; 8 warps; 128 KiB of partials in 192 KiB of tiles
    ((128, 256), 3072, 5, False),   # 48 steps do not split 5 ways
    ((64, 64), 8192, 8, False),     # 4 warps: a split of 8 would leave workgroups no warp to sum
    ((64, 64), 8192, 4, True),
    ((128, 256), 1000, 8, True),    # 16 K steps, the last one short
])
def test_split_fits(matmul_problem, tiling, k, split, fits):
    p = matmul_problem(("m", "k"), ("k", "n"), "f16", 512, 768, k)
    t = schemes.Tiling(*tiling, 8, tiling[1] // 16)
    assert planner.split_fits(p, t, 64, 4, split, 2) is fits


def test_partials_must_fit_the_operands_lds(matmul_problem):
    """128x256 split 8 ways: a workgroup sums one warp's rows (16 x 256 f32, 16 KiB) from 7
    others, 112 KiB, which 3 LDS tiles of its operands hold (3 x 48 KiB) and 2 do not."""
    p = matmul_problem(("m", "k"), ("k", "n"), "f16", 512, 768, 3072)
    t = schemes.Tiling(128, 256, 8, 16)
    assert planner.split_fits(p, t, 64, 3, 8, 2) and not planner.split_fits(p, t, 64, 2, 8, 2)


@pytest.mark.parametrize("b_dims, m, n, k, split", [
    (("k", "n"), 512, 768, 3072, 2),    # FFN down with K x N weights: 64x64 tiles, 48 K steps -> 64x128 split 2
    (("k", "n"), 512, 1024, 4096, 2),   # a wider FFN down: 64 K steps
    (("n", "k"), 512, 1024, 4096, 2),
    (("k", "n"), 512, 768, 2048, 1),    # 32 K steps: too short a loop
    (("n", "k"), 512, 768, 3072, 1),    # N x K weights take 64x48 tiles
    (("k", "n"), 512, 2304, 768, 1),    # QKV: 12 K steps
    (("k", "n"), 2048, 768, 3072, 1),   # 128x128 tiles, and split they would take more than one wave
])
def test_auto_split_takes_long_k_loops_of_64x64_tiles(matmul_problem, b_dims, m, n, k, split):
    """`cluster-k=0` (the default): planner.auto_split splits K 2 ways where the unsplit plan's
    tiles are 64x64 and its loop at least SPLIT_MIN_STEPS steps, within one wave of SMs."""
    p = matmul_problem(("m", "k"), b_dims, "f16", m, n, k)
    budget = HOPPER.lds_budget(1)
    unsplit = planner.wgmma_plan(p, HOPPER, budget)
    pl = planner.auto_split(p, HOPPER, unsplit, lambda s: planner.wgmma_plan(p, HOPPER, budget, split=s))
    assert pl.split == split
    if split > 1:
        assert (pl.tiling.bm, pl.tiling.bn) == (64, 128)
        assert math.prod(pl.grid(p.sizes)) <= HOPPER.compute_units
    else:
        assert pl is unsplit


@pytest.mark.parametrize("n, k, most, split, share", [(512, 456, 4, 1, 4),   # 8 N tiles of 64: 4 at most
                                                      (512, 456, 8, 1, 8),
                                                      (384, 456, 8, 1, 2),   # 6 tiles: 2 divide them
                                                      (512, 100, 8, 1, 2),   # 2 K steps: 2 share them
                                                      (512, 456, 8, 2, 1),   # a K split takes the cluster
                                                      (448, 456, 8, 1, 1)])  # 7 tiles
def test_row_sums_shared_by(matmul_problem, n, k, most, split, share):
    """row_stats.shared_by: the most workgroups (a power of 2, at most `most`) whose count
    divides a band's N tiles and leaves each a K step share a band's row sums; none under a
    K split or without row sums."""
    p = matmul_problem(("m", "k"), ("k", "n"), "f16", 100, n, k)
    pl = planner.wgmma_plan(p, HOPPER, HOPPER.lds_budget(1), (schemes.Tiling(64, 64, 8, 4),))
    pl = dataclasses.replace(pl, split=split)
    assert row_stats.shared_by(p, pl, most) == 1  # no row sums
    p.row_stats = row_stats.RowStats(None, [row_stats.ELEMENT])
    assert row_stats.shared_by(p, pl, most) == share
