"""ldsopt-inthread-transpose's staging rewrite without IR: the thread rake, the transposed LDS
writes, the address map the bank model picks, each guard; and the staging attribute round trip."""

import dataclasses
import math

import pytest
from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.layout.banks import BankModel
from ldsopt.matmul import planner, schemes
from ldsopt.matmul.recorded import with_recorded
from ldsopt.passes import inthread_transpose
from ldsopt.layout.tile_layout import Direct, Lanes, LdsRows, Registers, RowChunks, TileLayout


_THREAD_MAP = ("vector", "rake", "lanes", "lane_rows")
_LDS_MAP = ("pad", "swizzle", "row_xor")


def part(s: TileLayout, key: str):
    """The layout's part `key` by the name its attribute prints (lanes as printed)."""
    value = getattr(s.thread_map if key in _THREAD_MAP else s.lds if key in _LDS_MAP else s, key)
    return value.value if isinstance(value, Lanes) else value


def with_parts(s: TileLayout, **parts) -> TileLayout:
    """`s` with the thread map's and the LDS map's parts of `parts` replaced."""
    tm = {k: Lanes(v) if k == "lanes" else v for k, v in parts.items() if k in _THREAD_MAP}
    lds = {k: v for k, v in parts.items() if k in _LDS_MAP}
    return dataclasses.replace(s, thread_map=dataclasses.replace(s.thread_map, **tm),
                               lds=dataclasses.replace(s.lds, **lds))


@pytest.fixture(autouse=True)
def context():
    with ir.Context(), ir.Location.unknown():
        yield


# 128x128 on the matrix-core targets, 64x64 on lavapipe (its vectors take 4 elements).
TILES = {"gfx942": schemes.parse_tilings("128x128x8x8"), "cuda": schemes.parse_tilings("128x128x8x8"),
         "lavapipe": schemes.parse_tilings("64x64x4x4")}


@pytest.fixture
def restaged(matmul_problem):
    """`restaged(target, dims_a, dims_b, dtype, m, n, k, force=False, tiles="")`: the plan and
    {operand: (planned staging, rewritten staging or None)}, as the pass computes them, in the
    tiling the case is about (`tiles`, else the target's in `TILES`), not the one the plan's
    cost rule would choose."""

    def run(target, dims_a, dims_b, dtype, m, n, k, force=False, tiles=""):
        tgt = target_model.by_name(target)
        pl = planner.plan(matmul_problem(dims_a, dims_b, dtype, m, n, k), tgt, tgt.lds_bytes, use_mma=True,
                          tilings=schemes.parse_tilings(tiles) if tiles else TILES[target])
        new = inthread_transpose.InthreadTranspose(force=force).restaged(pl, tgt, 32 if dtype == "f32" else 16)
        return pl, {r: (s, new[r]) for r, s in pl.staging.items()}

    return run


def test_gfx942_nn_f16_b_is_raked_transposed_and_swizzled(restaged):
    """Triton's B 32x128 case: sizePerThread [4, 8] there; here 4 K rows of 4 along N, since each
    element has one thread (Triton replicates threads instead)."""
    pl, out = restaged("gfx942", ("m", "k"), ("k", "n"), "f16", 256, 256, 256)
    planned, b = out["B"]
    a = out["A"][1]  # K-contiguous already: not transposed, restaged for the reads of two K steps
    assert not a.thread_map.transposed and (a.k_pack, a.read_vector) == (2, 8) and pl.staging["A"].k_pack == 0
    # K in fragment order over 2 MFMA K steps: 8-element (ds_read_b128) fragment reads.
    assert [part(b, k) for k in ("rake", "vector", "read_vector", "pad", "swizzle", "k_pack")] == [4, 4, 8, 0, (8, 2, 4), 2]
    assert b.thread_map.transposed and b.k_contiguous and b.lds_order == (0, 1) and b.lds_shape == (2, 128, 32)
    # Consecutive threads take 2 row chunks (K 0-3, 4-7) of one N column group, then the next.
    assert part(b, "lane_rows") == 2 and str(b.thread_map.layout) == "(2,32,4):(512,4,1024)" and b.chunks_per_thread == 1
    # K slot j of a read group of 2 steps is fed K index k_order(j): lane quad q's 4 slots of
    # each step are the 8 consecutive K 8q .. 8q+7.
    assert str(b.k_order) == "(4,4,2):(1,8,4)"
    model = BankModel.gfx942()
    assert planner.bank_conflicts(b, pl.scheme, 2, model) < \
        planner.bank_conflicts(with_parts(b, swizzle=()), pl.scheme, 2, model)
    assert b.lds_shape[1] * b.lds_shape[2] <= planned.lds_shape[1] * planned.lds_shape[2]


def test_cuda_16_bit_operands_are_left_to_ldmatrix(restaged):
    """On CUDA ldmatrix.trans reads NN's K-strided B 16 bytes a lane, as wide as the transposed
    staging would: the pass leaves it (measured faster, bench/results/cuda-bert/ldmatrix/);
    gfx942 has no such load and i8 no matrix load: both are restaged."""
    assert restaged("cuda", ("m", "k"), ("k", "n"), "f16", 4096, 4096, 4096)[1]["B"][1] is None
    assert restaged("gfx942", ("m", "k"), ("k", "n"), "f16", 4096, 4096, 4096)[1]["B"][1] is not None
    assert restaged("cuda", ("m", "k"), ("k", "n"), "i8", 1024, 1024, 1024)[1]["B"][1] is not None


def test_cuda_nn_f16_b_packs_k_for_16_byte_reads(restaged):
    """Forced (by default ldmatrix reads this B, above).
    H200 at cf64297: threads along N with the rotating swizzle <4,1,8> alone, whose 4 b64
    writes per lane cost 8 extra cycles per warp (ncu counted the pass doubling store conflicts,
    8.6 M -> 17.3 M on 4096^3); costed on writes and reads together the pick added the row XOR.
    With the K slots of two mma K steps in k_order each lane reads 8 consecutive K (16 bytes,
    for four 4-byte reads) and the swizzle unit is 8 elements: when the 16 lanes of a b64 write
    phase all write the same K block (rows 4 apart), they reach only one 8-byte half of each
    16-byte unit, 8 extra cycles at best. Consecutive threads taking 2 K blocks of one N group
    (lane_rows 2) fill both halves: no conflicts, and each global read instruction is still
    two whole 128-byte lines. In the natural order (k-pack=0) ldmatrix reads the fragments,
    8 consecutive K a lane as well: the same swizzle, free of conflicts. Threads down K are never picked: their global reads are not coalesced (H200: TN
    1120.9 us against 784.0 us with threads along N)."""
    pl, out = restaged("cuda", ("m", "k"), ("k", "n"), "f16", 4096, 4096, 4096, force=True)
    planned, b = out["B"]
    model = BankModel.nvidia()
    assert [part(b, k) for k in ("lanes", "rake", "vector", "pad", "swizzle", "row_xor", "k_pack", "read_vector")] == \
        ["cols", 4, 4, 0, (8, 2, 4), 4, 2, 8]
    assert part(b, "lane_rows") == 2 and planner.lds_conflicts(b, pl.scheme, 2, model) == (0, 0)
    assert planner.lds_conflicts(with_parts(b, lane_rows=1), pl.scheme, 2, model) == (8, 0)
    unpacked = inthread_transpose.transposed(planned, pl.scheme, 16, model,
                                             inthread_transpose.InthreadTranspose(force=True))  # as planned: k_pack 0
    assert [part(unpacked, k) for k in ("k_pack", "swizzle", "row_xor")] == [0, (8, 2, 4), 4]
    assert planner.lds_conflicts(unpacked, pl.scheme, 2, model) == (0, 0)
    # The K-contiguous A, restaged for the same reads: unpadded 64-byte rows take its 16-byte
    # writes and reads (two rows per phase of 8 lanes) without conflicts; as planned, for 4-byte
    # reads of one step in the natural order, it had a pad of 8 (4 extra cycles on the writes).
    planned_a, a = out["A"]
    assert [part(a, k) for k in ("vector", "k_pack", "read_vector", "pad", "swizzle")] == [8, 2, 8, 0, ()]
    assert planner.lds_conflicts(a, pl.scheme, 2, model) == (0, 0)
    assert (planned_a.k_pack, planned_a.lds.pad) == (0, 8) and planner.lds_conflicts(planned_a, pl.scheme, 2, model) == (4, 0)


def test_gfx942_row_xor_removes_the_write_conflicts(restaged):
    """gfx942 (wave64, b64 writes in 4 phases of 16 lanes), K in the natural order (ds_read_b64
    reads): the swizzle alone leaves 16 extra cycles on the writes, the row XOR under it none;
    the padded layouts keep read conflicts. Packed over 2 K steps (16-byte reads, the default)
    threads along N alone leave 16 extra cycles on the writes; 2 K blocks a thread pair none."""
    pl, out = restaged("gfx942", ("m", "k"), ("k", "n"), "f16", 256, 256, 256)
    b = inthread_transpose.transposed(out["B"][0], pl.scheme, 16, BankModel.gfx942())  # as planned: k_pack 0
    model = BankModel.gfx942()
    assert planner.lds_conflicts(out["B"][1], pl.scheme, 2, model) == (0, 0) and part(out["B"][1], "lane_rows") == 2
    assert planner.lds_conflicts(with_parts(out["B"][1], lane_rows=1), pl.scheme, 2, model) == (16, 0)
    assert [part(b, k) for k in ("lanes", "row_xor", "swizzle")] == ["cols", 4, (4, 1, 8)]
    assert planner.lds_conflicts(b, pl.scheme, 2, model) == (0, 0)
    assert planner.lds_conflicts(with_parts(b, row_xor=0), pl.scheme, 2, model) == (16, 0)
    assert planner.lds_conflicts(with_parts(b, row_xor=0, swizzle=()), pl.scheme, 2, model) == (240, 28)


@pytest.mark.parametrize("options, expect", [
    (dict(lanes="cols"), dict(lanes="cols", row_xor=4, swizzle=(8, 2, 4), lane_rows=2)),
    (dict(lane_rows=1), dict(lanes="cols", row_xor=4, swizzle=(8, 2, 4), lane_rows=1)),
    (dict(lanes="cols", row_xor=0, swizzle=(8, 1, 4)), dict(lanes="cols", row_xor=0, swizzle=(8, 1, 4))),
    (dict(pad=16, row_xor=0), dict(pad=16, swizzle=(), row_xor=0)),
    (dict(rake_bits=128), dict(rake=8, vector=2, row_xor=2, swizzle=(), lane_rows=4)),
])
def test_options_force_the_layout(options, expect, restaged):
    pl, out = restaged("cuda", ("k", "m"), ("k", "n"), "f16", 4096, 4096, 4096, force=True)
    planned = dataclasses.replace(out["A"][0], k_pack=2)  # the reads the pass picks for this kernel
    a = inthread_transpose.transposed(planned, pl.scheme, 16, BankModel.nvidia(),
                                      opts=inthread_transpose.InthreadTranspose(force=True, **options))
    assert {key: part(a, key) for key in expect} == expect


def test_no_candidate_with_the_forced_options(restaged):
    pl, out = restaged("cuda", ("k", "m"), ("k", "n"), "f16", 4096, 4096, 4096)
    with pytest.raises(ValueError, match="no staging of operand A"):
        inthread_transpose.transposed(out["A"][0], pl.scheme, 16, BankModel.nvidia(),
                                      opts=inthread_transpose.InthreadTranspose(pad=3))


def test_transposed_writes_cover_the_lds_tile_once(restaged):
    _, out = restaged("gfx942", ("k", "m"), ("n", "k"), "f16", 256, 256, 256)
    a = out["A"][1]
    covered = [(row, col + i) for c in range(a.chunks) for row, col, n in a.lds_writes(c) for i in range(n)]
    assert sorted(covered) == [(r, c) for r in range(a.lds_tile[0]) for c in range(a.lds_tile[1])]
    # Each write is 64 bits and stays whole under the swizzle.
    for c in range(a.chunks):
        for row, col, n in a.lds_writes(c):
            first = a.address_map(row * 32 + col)
            assert n * 16 == 64 and [a.address_map(row * 32 + col + i) for i in range(n)] == \
                list(range(first, first + n))


def test_lavapipe_f32_rakes_two_rows_when_threads_hold_two(restaged):
    """40x50x30 f32, forced (FMA): B's 16 x 64 tile in 2-wide reads gives each thread 2 K rows:
    rake 2 (64 bits)."""
    _, out = restaged("lavapipe", ("m", "k"), ("k", "n"), "f32", 40, 50, 30, force=True)
    b = out["B"][1]
    assert (b.rake, b.vector, b.write_vector) == (2, 2, 2) and b.k_contiguous


@pytest.mark.parametrize("target, dims_a, dims_b, dtype, m, n, k, tiles, why", [
    ("gfx942", ("m", "k"), ("n", "k"), "f16", 256, 256, 256, "", "both K-contiguous"),
    ("gfx942", ("m", "k"), ("k", "n"), "f16", 96, 160, 64, "64x64x4x4", "one K row per thread"),
    ("lavapipe", ("m", "k"), ("k", "n"), "f32", 64, 64, 64, "", "one K row per thread"),
    ("lavapipe", ("k", "m"), ("k", "n"), "f16", 64, 96, 48, "", "FMA reads 4 along M/N as planned"),
])
def test_guards_leave_the_staging(target, dims_a, dims_b, dtype, m, n, k, tiles, why, restaged):
    _, out = restaged(target, dims_a, dims_b, dtype, m, n, k, tiles=tiles)
    assert all(new is None for _, new in out.values()), why


def test_mfma_f32_transposes_only_when_k_is_packed(restaged):
    """MFMA 16x16x4 f32 takes one K element per lane and step: in the natural K order a
    transposed tile reads no wider (the guard), packed over 4 steps it reads 4 (ds_read_b128)."""
    pl, out = restaged("gfx942", ("m", "k"), ("k", "n"), "f32", 256, 256, 256)
    planned, b = out["B"]
    assert inthread_transpose.transposed(planned, pl.scheme, 32, BankModel.gfx942()) is None  # as planned
    assert (b.k_pack, b.read_vector, b.rake, str(b.k_order)) == (4, 4, 2, "(4,4):(4,1)")


def test_rewriting_twice_changes_nothing(restaged):
    pl, out = restaged("gfx942", ("m", "k"), ("k", "n"), "f16", 256, 256, 256)
    b = out["B"][1]
    assert inthread_transpose.transposed(b, pl.scheme, 16, BankModel.gfx942()) is None


def test_staging_attr_round_trip_and_consistency():
    s = dataclasses.replace(TileLayout.planned("B", ("k", "n"), (32, 128), 4, 256, "MFMA_F32_16x16x16_F16", 4),
                            thread_map=RowChunks((32, 128), 4, 4), lds=LdsRows.rotating(32, 4, 1, 8))
    assert TileLayout.from_attr(s.attr()) == s
    for t in (with_parts(s, lanes="rows"), with_parts(s, row_xor=4)):
        assert TileLayout.from_attr(t.attr()) == t and t.attr() != s.attr()
    assert 'swizzle = "rotating<4,1,8>"' in str(s.attr()) and "register_transpose = true" in str(s.attr())
    edited = ir.Attribute.parse(str(s.attr()).replace("lds_shape = [2, 128, 32]", "lds_shape = [2, 32, 128]"))
    with pytest.raises(ValueError, match="inconsistent"):
        TileLayout.from_attr(edited)


def test_recorded_staging_must_be_of_the_plan(restaged):
    pl, out = restaged("gfx942", ("m", "k"), ("k", "n"), "f16", 256, 256, 256)
    recorded = {r: new for r, (_, new) in out.items()}
    b = recorded["B"]
    assert with_recorded(pl, recorded).staging["B"] == b
    with pytest.raises(ValueError, match="not of this plan"):
        with_recorded(pl, {**recorded, "B": dataclasses.replace(b, fragment="fma 8x4", k_pack=0)})
    with pytest.raises(ValueError, match="group K steps differently"):
        with_recorded(pl, {"B": b})  # the planned A reads one K step at a time


def test_copy_direct_stages_the_rake_through_a_buffer(restaged, matmul_problem):
    """copy=direct (CUDA): the transposed operand's raked rows are cp.async copies into a
    staging buffer of one tile, counted in the plan's LDS; the K-contiguous A keeps registers.
    gfx942 has no per-lane cp.async: the option is an error there."""
    tgt = target_model.by_name("cuda")
    pl = planner.plan(matmul_problem(("m", "k"), ("k", "n"), "f16", 4096, 4096, 4096), tgt, tgt.lds_bytes, True)
    new = inthread_transpose.InthreadTranspose(copy="direct", force=True).restaged(pl, tgt, 16)
    b, a = new["B"], new["A"]
    assert (b.copy, b.raw_elems) == (Direct(), 32 * 128) and (a.copy, a.raw_elems) == (Registers(), 0)
    assert TileLayout.from_attr(b.attr()) == b and 'copy = "direct"' in str(b.attr())
    assert with_recorded(pl, new).lds_bytes(2) == \
        (math.prod(a.lds_shape) + math.prod(b.lds_shape) + b.raw_elems) * 2
    gfx942 = target_model.by_name("gfx942")
    pl942 = planner.plan(matmul_problem(("m", "k"), ("k", "n"), "f16", 256, 256, 256), gfx942, gfx942.lds_bytes, True,
                         TILES["gfx942"])
    with pytest.raises(ValueError, match="needs cp.async"):
        inthread_transpose.InthreadTranspose(copy="direct").restaged(pl942, gfx942, 16)


def test_register_rakes_are_prefetched_into_l1_on_cuda_only(matmul_problem):
    """With copy=registers the raked operand's staging says `prefetch = 2` on CUDA (its global
    reads of tile kt+2 prefetched into L1 at step kt), none on gfx942; the K-contiguous A and
    a copy=direct rake are not prefetched; the staging states it and reads it back."""
    problem = matmul_problem(("m", "k"), ("k", "n"), "f16", 4096, 4096, 4096)
    cuda, gfx942 = target_model.by_name("cuda"), target_model.by_name("gfx942")
    pl = planner.plan(problem, cuda, cuda.lds_bytes, True)
    new = inthread_transpose.InthreadTranspose(force=True).restaged(pl, cuda, 16)
    assert (new["B"].copy, new["A"].copy) == (Registers(inthread_transpose.PREFETCH_STEPS), Registers())
    assert TileLayout.from_attr(new["B"].attr()) == new["B"] and "prefetch = 2" in str(new["B"].attr())
    assert inthread_transpose.InthreadTranspose(prefetch=3, force=True).restaged(pl, cuda, 16)["B"].copy.prefetch == 3
    assert inthread_transpose.InthreadTranspose(copy="direct", force=True).restaged(pl, cuda, 16)["B"].copy == Direct()
    pl942 = planner.plan(problem, gfx942, gfx942.lds_bytes, True, TILES["gfx942"])
    assert inthread_transpose.InthreadTranspose().restaged(pl942, gfx942, 16)["B"].copy == Registers()
    direct = ir.Attribute.parse(str(new["B"].attr())[:-1] + ', copy = "direct"}')  # a direct copy holds no registers
    with pytest.raises(ValueError, match="inconsistent"):
        TileLayout.from_attr(direct)
