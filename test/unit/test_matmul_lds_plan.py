"""Planning of ldsopt-matmul-lds without IR: staging layouts, tilings per target, bank-model
padding, and the matrix-core lane layouts (each must cover its tile exactly once)."""

import pytest
from iree.compiler import ir

from ldsopt import isa, mma
from ldsopt import target as target_model
from ldsopt.passes import matmul_lds
from ldsopt.staging import StagingLayout


@pytest.fixture(autouse=True)
def context():
    with ir.Context(), ir.Location.unknown():
        yield


def test_staging_thread_map_covers_the_tile_once():
    s = StagingLayout("A", ("m", "k"), (64, 16), 4, 256, 4, "fma 4x4", 4)
    starts = {s.chunk_coords(c) for c in range(s.threads * s.chunks_per_thread)}
    assert starts == {(r, c) for r in range(64) for c in range(0, 16, 4)}
    assert s.lds_shape == (2, 64, 20) and s.lds_order == (1, 0) and str(s.thread_map) == "(4,64):(4,16)"
    assert s.address_map(16) == 20  # row 1 starts after one padded row


def test_staging_attr_states_the_layout():
    s = StagingLayout("B", ("n", "k"), (64, 16), 4, 256, 4, "fma 4x4", 4)
    text = str(s.attr())
    for part in ('operand = "B"', "lds_order = [0, 1]", "lds_shape = [2, 64, 20]", "pad = 4", 'swizzle = "none"',
                 'thread_map = "(4,64):(4,16)"', 'fragment = "fma 4x4"'):
        assert part in text, text


def test_lavapipe_takes_64x64_fma_within_4_wide_vectors(matmul_problem):
    pl = matmul_lds.plan(matmul_problem(("m", "k"), ("k", "n"), "f32", 256, 256, 64), target_model.by_name("lavapipe"),
                         32768, use_mma=True)
    assert isinstance(pl.scheme, matmul_lds.FmaScheme)
    assert (pl.tiling.bm, pl.tiling.bn, pl.bk) == (64, 64, 16)


def test_gfx942_takes_128x128_mfma_for_large_f16(matmul_problem):
    pl = matmul_lds.plan(matmul_problem(("m", "k"), ("k", "n"), "f16", 256, 256, 64), target_model.by_name("gfx942"),
                         65536, use_mma=True)
    assert pl.scheme.intrinsic.name == "MFMA_F32_16x16x16_F16"
    assert (pl.tiling.bm, pl.tiling.bn, pl.bk) == (128, 128, 32)
    assert pl.scheme.waves == (2, 2) and pl.scheme.reps == (4, 4)


def test_cuda_f32_has_no_mma(matmul_problem):
    pl = matmul_lds.plan(matmul_problem(("m", "k"), ("k", "n"), "f32", 64, 64, 64), target_model.by_name("cuda"),
                         101376, use_mma=True)
    assert isinstance(pl.scheme, matmul_lds.FmaScheme)


def test_tiles_option_parses_and_rejects():
    assert matmul_lds.parse_tilings("") == matmul_lds.TILINGS
    assert matmul_lds.parse_tilings("160x64x5x4, 96x96x3x4") == (matmul_lds.Tiling(160, 64, 5, 4),
                                                                 matmul_lds.Tiling(96, 96, 3, 4))
    for bad, why in (("96x96x3", "not BMxBNxTMxTN"), ("96x96x5x4", "TM must divide BM"), ("0x64x1x1", "TM must")):
        with pytest.raises(ValueError, match=why):
            matmul_lds.parse_tilings(bad)


def test_non_power_of_2_tiles_plan_on_lavapipe(matmul_problem):
    """A given 160x64 tiling (512 threads): TM = 5 is no vector for a K-contiguous A, so lavapipe
    takes it for NT but not for TN (A's fragment reads would be 5-wide vectors); a tiling whose
    threads cannot split a tile evenly is skipped, not planned."""
    lavapipe = target_model.by_name("lavapipe")
    tiles = matmul_lds.parse_tilings("160x64x5x4")
    pl = matmul_lds.plan(matmul_problem(("m", "k"), ("n", "k"), "f32", 200, 130, 64), lavapipe, 32768, True, tiles)
    assert (pl.tiling.bm, pl.tiling.bn, pl.tiling.threads) == (160, 64, 512)
    assert pl.staging["A"].tile == (160, 16) and pl.staging["A"].chunks_per_thread == 5
    assert matmul_lds.plan(matmul_problem(("k", "m"), ("k", "n"), "f32", 200, 130, 64), lavapipe, 32768, True,
                           tiles) is None
    uneven = matmul_lds.parse_tilings("96x96x4x4")  # 576 threads; a 96x16 tile has 1536 elements
    assert matmul_lds.plan(matmul_problem(("m", "k"), ("n", "k"), "f32", 96, 96, 64), lavapipe, 32768, True,
                           uneven) is None


def test_bank_model_pads_k_contiguous_b_read_by_rows(matmul_problem):
    """NT on lavapipe: 8 lanes read B rows 4 apart, 16 floats long: a pad of 4 spreads them."""
    pl = matmul_lds.plan(matmul_problem(("m", "k"), ("n", "k"), "f32", 64, 64, 64), target_model.by_name("lavapipe"),
                         32768, use_mma=True)
    assert pl.staging["B"].pad == 4
    assert pl.staging["A"].pad == 0  # A rows are read by all 8 lanes alike: broadcasts


@pytest.mark.parametrize("name", sorted(mma.INTRINSICS[key].name for key in mma.INTRINSICS))
def test_intrinsic_layouts_cover_their_tiles_once(name):
    intr = next(i for i in mma.INTRINSICS.values() if i.name == name)
    for lay, shape in ((intr.a, (intr.m, intr.k)), (intr.b, (intr.n, intr.k)), (intr.c, (intr.m, intr.n))):
        held = [xy for lane in range(intr.subgroup) for xy in lay.coords(lane)]
        assert sorted(held) == [(x, y) for x in range(shape[0]) for y in range(shape[1])], (name, lay)


def test_runs_group_consecutive_elements_along_the_row():
    assert mma.runs([(0, 0), (0, 1), (8, 0), (8, 1)]) == [(0, 2), (2, 2)]
    assert mma.runs([(0, 0), (1, 0), (2, 0)]) == [(0, 1), (1, 1), (2, 1)]


def test_isa_counts_mfma():
    asm = """\t.type\tk,@function
k:
\tv_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]
\tv_mfma_f32_16x16x4_f32 a[0:3], v0, v1, a[0:3]
\ts_endpgm
"""
    (kernel,) = isa.parse_rocmasm(asm)
    assert kernel.mfma == 2
