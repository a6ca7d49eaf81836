"""Unit tests of ldsopt.reduction_plan: default plans, both generations of config keys,
rescaling, refusals, butterfly offsets and the read-back's bank conflicts."""
import pytest

from ldsopt import target as target_model
from ldsopt.layout.banks import BankModel
from ldsopt.reduction.plan import (PlanError, ReductionProblem, choose_unroll, config_plan, default_plan, for_kept_row,
                                   parse_lowering_config, strided_rows, with_unroll)

GFX942 = dict(subgroup_size=64, max_threads=1024, max_workgroups=2**31 - 1)
LAVAPIPE = dict(subgroup_size=8, max_threads=1024, max_workgroups=65535)

SEED001_4x4096 = """#iree_codegen.compilation_info<lowering_config = #iree_gpu.lowering_config<{reduction = [0, 256],
  subgroup_basis = [[1, 4], [0, 1]], thread_basis = [[4, 16], [0, 1]], workgroup = [4, 0]}>,
  translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute>
  workgroup_size = [256, 1, 1] subgroup_size = 64, {}>>"""
IREE313_4x4096 = """#iree_gpu.lowering_config<{lane_basis = [[1, 64], [0, 1]], partial_reduction = [0, 4096],
  subgroup_basis = [[1, 16], [0, 1]], thread = [0, 4], workgroup = [1, 0]}>"""
IREE313_TRANSLATION = ("#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> "
                       "workgroup_size = [1024, 1, 1] subgroup_size = 64>")


def test_parse_seed_keys():
    cfg = parse_lowering_config(SEED001_4x4096, SEED001_4x4096)
    assert cfg.workgroup == (4, 0) and cfg.reduction == (0, 256)
    assert cfg.lane_basis == ((4, 16), (0, 1)) and cfg.subgroup_basis == ((1, 4), (0, 1))
    assert cfg.workgroup_size == (256, 1, 1) and cfg.subgroup_size == 64
    assert cfg.has_layout


def test_parse_iree313_keys():
    cfg = parse_lowering_config(IREE313_4x4096, IREE313_TRANSLATION)
    assert cfg.reduction == (0, 4096) and cfg.thread == (0, 4) and cfg.lane_basis == ((1, 64), (0, 1))
    assert cfg.workgroup_size == (1024, 1, 1)


def test_tiling_only_config_has_no_layout():
    cfg = parse_lowering_config("#iree_gpu.lowering_config<{reduction = [0, 4], thread = [1, 0], workgroup = [32, 0]}>")
    assert not cfg.has_layout


def test_seed_config_plan():
    p = ReductionProblem((4, 4096), (1,), 4, **GFX942)
    plan = config_plan(p, parse_lowering_config(SEED001_4x4096, SEED001_4x4096), False)
    assert (plan.lanes_p, plan.lanes_r, plan.subgroups_p, plan.subgroups_r, plan.vector) == (4, 16, 1, 4, 4)
    assert plan.workgroup_size == 256 and plan.outputs_per_tile == 4 and plan.grid == 1
    assert plan.shuffle_offsets() == [8, 4, 2, 1]
    assert plan.readback_group() == 4 and plan.readback_offsets() == [32, 16]
    assert plan.tiles() == {"parallel": [1, 1, 4, 1], "reduction": [4, 16, 16, 4]}


def test_iree313_default_config_plan():
    p = ReductionProblem((4, 4096), (1,), 4, **GFX942)
    plan = config_plan(p, parse_lowering_config(IREE313_4x4096, IREE313_TRANSLATION), False)
    assert (plan.lanes_r, plan.subgroups_r, plan.vector, plan.workgroup_size) == (64, 16, 4, 1024)


def test_rescale_only_when_asked():
    p = ReductionProblem((4, 4096), (1,), 4, **LAVAPIPE)
    cfg = parse_lowering_config(SEED001_4x4096, SEED001_4x4096)
    with pytest.raises(PlanError, match="written for subgroups of 64 lanes, the target has 8"):
        config_plan(p, cfg, False)
    plan = config_plan(p, cfg, True)
    # Same workgroup, same 4 rows on lanes; the reduction side takes the difference.
    assert (plan.lanes_p, plan.lanes_r, plan.subgroups_r, plan.workgroup_size) == (4, 2, 32, 256)


def test_interleaved_basis_is_refused():
    p = ReductionProblem((4, 8, 64), (0, 2), 4, **LAVAPIPE)
    cfg = parse_lowering_config("#iree_gpu.lowering_config<{lane_basis = [[2, 2, 2], [0, 1, 2]]}>")
    with pytest.raises(PlanError, match="interleaves"):
        config_plan(p, cfg, False)


@pytest.mark.parametrize("shape, reduced, vector, lanes_p, threads", [
    ((4, 4096), (1,), 4, 1, 256),       # row sums: every lane on the row, 128-bit loads
    ((13, 1000), (1,), 4, 1, 256),
    ((10007,), (0,), 1, 1, 256),        # a prime: scalar reads
    ((512, 64), (0,), 4, 8, 256),       # outer dim: lanes along the outputs
    ((6, 50, 10), (1,), 2, 1, 64),      # middle dim, 10 outputs a row: vectors of 2
    ((32, 6), (1,), 2, 1, 8),           # a short row: one subgroup
])
def test_default_plans_on_lavapipe(shape, reduced, vector, lanes_p, threads):
    plan = default_plan(ReductionProblem(shape, reduced, 4, **LAVAPIPE), 256)
    assert (plan.vector, plan.lanes_p, plan.workgroup_size) == (vector, lanes_p, threads)
    assert plan.n_tiles * plan.outputs_per_tile == plan.problem.n_outputs
    assert plan.chunks * plan.vec_r == plan.problem.n_reduced


def test_grid_is_capped():
    plan = default_plan(ReductionProblem((70000, 4), (1,), 4, **LAVAPIPE), 256)
    assert plan.n_tiles == 70000 and plan.grid == 65535 and plan.tiles()["parallel"][1] == 2


def test_parallel_fastest_offsets():
    plan = default_plan(ReductionProblem((512, 64), (0,), 4, **GFX942), 256)
    assert (plan.lanes_p, plan.lanes_r, plan.reduction_fastest) == (16, 4, False)
    assert plan.shuffle_offsets() == [32, 16]


def test_readback_padding_removes_conflicts():
    banks = BankModel.gfx942()
    # 16 outputs a row, 4 partials: lanes 0-15 read row 0, 16-31 row 1: unpadded rows of 64
    # floats put both half-rows in the same banks.
    plan = default_plan(ReductionProblem((512, 64), (0,), 4, **GFX942), 256)
    unpadded = [a * 4 if a is not None else None for a in plan.readback_addresses(plan.outputs_per_tile)]
    assert banks.conflicts(unpadded, 4) > 0
    pad = plan.lds_row_pad(banks, 4)
    padded = [a * 4 if a is not None else None for a in plan.readback_addresses(plan.outputs_per_tile + pad)]
    assert pad == 16 and banks.conflicts(padded, 4) == 0
    # One output a tile (row sums): the lanes read one row of partials; no padding.
    assert default_plan(ReductionProblem((4, 4096), (1,), 4, **GFX942), 256).lds_row_pad(banks, 4) == 0


def test_config_follows_the_inputs_dim_order():
    # IREE's form of a sum over the outer dim of 512x64: iterators (64 parallel, 512 reduced),
    # input map (d1, d0). The config speaks of iterators; the ReductionProblem of the input's dims.
    cfg = parse_lowering_config("#iree_gpu.lowering_config<{workgroup = [64, 0], thread = [4, 0], "
                                "lane_basis = [[16, 4], [0, 1]], subgroup_basis = [[1, 4], [0, 1]]}>")
    plan = config_plan(ReductionProblem((512, 64), (0,), 4, **GFX942), cfg.permuted([1, 0]), False)
    assert (plan.lanes_p, plan.lanes_r, plan.subgroups_r, plan.vector, plan.reduction_fastest) == (16, 4, 4, 4, True)
    assert plan.outputs_per_tile == 64


CUDA = dict(subgroup_size=32, max_threads=1024, max_workgroups=2**31 - 1)


@pytest.mark.parametrize("shape, reduced, vector_limit, element_bytes, unroll", [
    ((8192, 8192), (1,), 4, 4, 4),   # 8 chunks of 16 bytes per thread: 4 in flight (64 bytes)
    ((8192, 8192), (1,), 8, 2, 4),   # f16: vectors of 8, the same 16 bytes
    ((4, 4096), (1,), 4, 4, 4),      # 4 chunks per thread: all at once
    ((10007,), (0,), 4, 4, 16),      # a prime: 4-byte scalars, 16 of them
    ((64, 4096, 64), (1,), 4, 4, 4),  # middle dim: 256 rows of 16 bytes per thread
    ((13, 100), (1,), 4, 4, 1),      # 25 chunks, 32 threads: one each
    ((4, 8192), (1,), 4, 8, 2),      # two f32 inputs: 32 bytes a chunk
])
def test_default_unroll(shape, reduced, vector_limit, element_bytes, unroll):
    p = ReductionProblem(shape, reduced, vector_limit, **CUDA, element_bytes=element_bytes)
    plan = with_unroll(default_plan(p, 256))
    assert plan.unroll == unroll
    assert choose_unroll(plan) == unroll


def test_leftovers():
    # 10007 scalars over 256 threads: 39 or 40 chunks; groups of 16 leave 7 or 8, guarded.
    plan = with_unroll(default_plan(ReductionProblem((10007,), (0,), 4, **CUDA), 256))
    assert plan.chunks_per_thread == (39, 40)
    assert (plan.remainder_loads, plan.remainder_guarded) == (8, True)
    # 4 chunks each, groups of 3: one leftover for every thread, unguarded.
    plan = with_unroll(default_plan(ReductionProblem((4, 4096), (1,), 4, **CUDA), 256), 3)
    assert plan.chunks_per_thread == (4, 4)
    assert (plan.unroll, plan.remainder_loads, plan.remainder_guarded) == (3, 1, False)
    # Whole groups: nothing left over.
    plan = with_unroll(default_plan(ReductionProblem((8192, 8192), (1,), 4, **CUDA), 256), 8)
    assert (plan.remainder_loads, plan.remainder_guarded) == (0, False)


def test_unroll_must_be_positive():
    with pytest.raises(PlanError, match="unroll -1 is not positive"):
        with_unroll(default_plan(ReductionProblem((4, 4096), (1,), 4, **CUDA), 256), -1)


# The H200 as ldsopt.target knows it (132 SMs); the issue-3 bench cases (after the default
# split: 32 rows of 2^20 into 32 x 16 partials, 2^26 into 512).
H200 = dict(CUDA, compute_units=target_model.by_name("cuda").compute_units)


@pytest.mark.parametrize("shape, reduced, vector_limit, element_bytes, threads", [
    ((4, 4096), (1,), 4, 4, 256),          # 4 workgroups, but 4 chunks a thread: no more threads
    ((4, 4096), (1,), 8, 2, 256),
    ((8192, 8192), (1,), 4, 4, 256),       # 8192 workgroups fill the GPU
    ((8192, 8192), (1,), 8, 2, 256),
    ((512, 65536), (1,), 4, 4, 256),       # the 32x1M split's first dispatch: 512 workgroups
    ((512, 65536), (1,), 8, 2, 256),
    ((32, 16), (1,), 4, 4, 32),            # its second: one chunk a thread
    ((512, 131072), (1,), 4, 4, 256),      # sum_2p26's first dispatch
    ((512,), (0,), 4, 4, 128),             # and its second
    ((64, 4096, 64), (1,), 4, 4, 1024),    # max_mid: 64 workgroups of 64 outputs, 64 chunks a thread
])
def test_workgroup_grows_when_the_grid_leaves_units_idle(shape, reduced, vector_limit, element_bytes, threads):
    problem = ReductionProblem(shape, reduced, vector_limit, **H200, element_bytes=element_bytes)
    plan = with_unroll(default_plan(problem))
    assert plan.workgroup_size == threads


def test_workgroup_size_option_overrides():
    p = ReductionProblem((64, 4096, 64), (1,), 4, **H200)
    assert default_plan(p, 256).workgroup_size == 256   # never grown
    assert default_plan(p, 512).workgroup_size == 512
    # Few chunks: fewer threads than asked for, as before.
    assert default_plan(ReductionProblem((32, 16), (1,), 4, **H200), 1024).workgroup_size == 32


def test_unknown_compute_units_never_grow():
    assert default_plan(ReductionProblem((64, 4096, 64), (1,), 4, **CUDA)).workgroup_size == 256


def test_growth_stops_at_two_unroll_groups_a_thread():
    # A sum over 64 columns: one workgroup, 16 lanes on the outputs, 2 on the rows (16 threads
    # on the rows at 256), unroll goal 4: a doubling must leave every thread 8 rows.
    assert default_plan(ReductionProblem((128, 64), (0,), 4, **H200)).workgroup_size == 256   # 512: 4 rows
    assert default_plan(ReductionProblem((256, 64), (0,), 4, **H200)).workgroup_size == 512   # 1024: 4 rows
    assert default_plan(ReductionProblem((512, 64), (0,), 4, **H200)).workgroup_size == 1024  # 8 rows


def _kept(operands: int, registers: int = 64):
    """The fused row kernel's test: a thread's share of `operands` rows fits `registers`."""
    return lambda p: p.chunks_per_thread[1] * p.vector * operands <= registers


@pytest.mark.parametrize("shape, vector_limit, operands, threads", [
    ((131072, 4096), 8, 1, 128),   # softmax f16 rows: 4 chunks of 8 a thread at 128 threads
    ((131072, 4096), 4, 1, 256),   # the same rows in f32: 4 chunks a thread at 256 already
    ((16384, 4096), 8, 3, 256),    # layernorm f16 (x, gamma, beta): 4 chunks would not fit 64 registers
    ((64, 4096), 8, 1, 256),       # 64 rows leave SMs idle: no fewer threads
    ((4096, 1000), 8, 1, 32),      # 1000 halves: 125 chunks, 4 a thread on one subgroup (no LDS exchange)
])
def test_kept_rows_take_fewer_threads(shape, vector_limit, operands, threads):
    plan = for_kept_row(default_plan(ReductionProblem(shape, (1,), vector_limit, **H200)), _kept(operands))
    assert plan.workgroup_size == threads
    assert _kept(operands)(plan)


@pytest.mark.parametrize("rows, length, element_bytes, lanes_p, lanes_r, subgroups_p, subgroups_r", [
    # softmax over 19 channels of f32 [1, 19, 512, 512]: 2 lanes a row (about 8 elements
    # each), 16 rows a subgroup, 8 subgroups (2048 tiles fill the 132 SMs)
    (262144, 19, 4, 16, 2, 8, 1),
    # a channels-first LayerNorm of 768 channels on 56 x 56: 8 rows read together (a 32-byte
    # sector of f32), 4 lanes on each; 2 subgroups, as 4 would leave SMs idle (98 tiles)
    (3136, 768, 4, 8, 4, 2, 1),
    # the same on 7 x 7: 49 rows, odd: one row a tile, the whole subgroup on it, and a second
    # subgroup on it too (49 tiles leave SMs idle; 12 elements a thread)
    (49, 768, 4, 1, 32, 1, 2),
    # f16: 16 rows read together
    (4096, 64, 2, 16, 2, 1, 1),
    # softmax over dim 0 of [4096, 8]: one tile of the 8 rows, 8 subgroups on them
    (8, 4096, 4, 8, 4, 1, 8),
    # column sums of 2100 rows reading an f32 and an f16 (6 bytes an element): a 32-byte
    # sector holds 5, so 4 rows are read together (lanes come in powers of two; 5 was an
    # error, test/e2e/programs/matmul_persistent/nt_f16_residual_2100x2048x136.mlir)
    (2048, 2100, 6, 4, 8, 2, 1),
])
def test_strided_rows_plans(rows, length, element_bytes, lanes_p, lanes_r, subgroups_p, subgroups_r):
    plan = strided_rows(ReductionProblem((rows, length), (1,), 1, **H200, element_bytes=element_bytes))
    assert (plan.vector, plan.lanes_p, plan.lanes_r, plan.subgroups_p, plan.subgroups_r) == \
        (1, lanes_p, lanes_r, subgroups_p, subgroups_r)
    assert not plan.reduction_fastest and plan.problem.n_outputs % plan.outputs_per_tile == 0


def test_strided_rows_take_the_workgroup_asked_for():
    """Unknown compute units (lavapipe) never add subgroups on the rows, unless asked."""
    p = ReductionProblem((12, 37), (1,), 1, **LAVAPIPE, element_bytes=4)
    assert strided_rows(p).subgroups_r == 1
    assert (strided_rows(p, 64).subgroups_p, strided_rows(p, 64).subgroups_r) == (1, 2)
