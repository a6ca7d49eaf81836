"""Unit tests of ldsopt.banks: the bank-conflict model on known access patterns."""
import pytest

from ldsopt.layout.banks import GFX942_DS_READ_B128_LANE_GROUPS, BankModel
from ldsopt.layout.maps import Layout, Padded, RotatingSwizzle, XorSwizzle

GFX942 = BankModel.gfx942()
NV = BankModel.nvidia()


def test_phase_widths():
    assert [GFX942.lanes_per_phase(b) for b in (1, 2, 4, 8, 16)] == [32, 32, 32, 16, 8]
    assert [NV.lanes_per_phase(b) for b in (4, 8, 16)] == [32, 16, 8]
    assert BankModel(32, 4, 8).lanes_per_phase(4) == 8            # lavapipe-sized subgroup
    assert BankModel(32, 4, 64, phase_lanes=64).lanes_per_phase(16) == 64


@pytest.mark.parametrize("model", [GFX942, NV])
def test_stride1_f32_is_conflict_free(model):
    assert model.conflicts([4 * l for l in range(model.wave_size)], 4) == 0


def test_column_read_32x32_f32():
    addrs = [4 * (32 * l + 5) for l in range(32)]                 # column 5, stride 32 words
    assert NV.conflicts(addrs, 4) == 31
    assert GFX942.conflicts(addrs, 4) == 31                      # 32 active lanes = one phase
    assert GFX942.conflicts([4 * 32 * l for l in range(64)], 4) == 62   # two half-wave phases


def test_column_read_padded_to_33():
    assert NV.conflicts([4 * 33 * l for l in range(32)], 4) == 0
    col = Layout((32, 1), (32, 1))                                # (lane, access) -> row = lane
    assert NV.average_conflicts(Padded(32, 1), col, 1, 4, 4) == 0
    assert NV.average_conflicts(Layout(1024, 1), col, 1, 4, 4) == 31


def test_xor_swizzle_fixes_column_read():
    # 32x32 f32, read column j by 32 lanes: for j = 0..31 every access conflicts 31-way
    # unswizzled; Swizzle<5,0,5> stores (row, col) at col ^ row: all banks distinct.
    cols = Layout((32, 32), (32, 1))                              # lane = row, access = column
    assert NV.average_conflicts(Layout(1024, 1), cols, 32, 4, 4) == 31
    assert NV.average_conflicts(XorSwizzle(5, 0, 5), cols, 32, 4, 4) == 0
    rows = Layout((32, 32), (1, 32))                              # row reads stay conflict-free
    assert NV.average_conflicts(XorSwizzle(5, 0, 5), rows, 32, 4, 4) == 0


def test_broadcast_is_free():
    assert GFX942.conflicts([128] * 64, 4) == 0
    assert NV.conflicts([0, 0, 4, 4] * 8, 4) == 0
    assert NV.conflicts([0, 128] * 16, 4) == 1                    # two words, one bank
    assert GFX942.conflicts([0] * 64, 16) == 0


@pytest.mark.parametrize("model", [GFX942, NV])
def test_b128_row_reads_are_conflict_free(model):
    assert model.conflicts([16 * l for l in range(model.wave_size)], 16) == 0


def test_b128_phase_is_eight_lanes():
    # Lanes l and l+8 hit the same banks, but they are in different phases.
    addrs = [16 * (l % 8) + 512 * (l // 8) for l in range(64)]
    assert GFX942.conflicts(addrs, 16) == 0
    assert BankModel(32, 4, 64, phase_lanes=16).conflicts(addrs, 16) == 4      # 4 phases, 2-way each
    # All lanes on banks 0-3 at distinct rows: 8 lanes per phase serialize 8-way.
    assert GFX942.conflicts([512 * l for l in range(64)], 16) == 8 * 7
    assert NV.conflicts([512 * l for l in range(32)], 16) == 4 * 7


def test_b64_phases_of_sixteen():
    assert GFX942.conflicts([8 * l for l in range(64)], 8) == 0
    assert GFX942.conflicts([256 * l for l in range(64)], 8) == 4 * 15
    assert NV.conflicts([256 * l for l in range(32)], 8) == 2 * 15


def test_inactive_lanes_and_wave_bound():
    assert NV.conflicts([0, None, 128, None], 4) == 1
    with pytest.raises(ValueError):
        NV.conflicts([0] * 33, 4)


def test_gfx942_ds_read_b128_groups():
    groups = GFX942_DS_READ_B128_LANE_GROUPS
    assert sorted(l for g in groups for l in g) == list(range(64)) and all(len(g) == 8 for g in groups)
    assert GFX942.conflicts([16 * l for l in range(64)], 16, groups) == 0
    # Each quad of lanes reads its own row, in bank half h.  Consecutive groups of 8
    # pair quads of opposite halves; the reported groups (0-3 with 20-23, ...) pair
    # quads of the same half, so each of the 8 phases serializes 2-way.
    def h(l):
        return ((l // 4) + (l // 16)) % 2
    addrs = [64 * h(l) + 16 * (l % 4) + 128 * (l // 4) for l in range(64)]
    assert GFX942.conflicts(addrs, 16) == 0
    assert GFX942.conflicts(addrs, 16, groups) == 8


def test_rotating_swizzle_k_contiguous_reads():
    """K-contiguous LDS tile, 64 rows x 32 f16 (64 B rows); a wave reads one 8-half
    chunk (b128) of each row, lane -> row.  Row-major: a phase of 8 rows covers only
    two 64 B bank halves, 4-way.  The plain XOR swizzle (phase = row % 4) still
    maps rows r and r+4 alike; Triton's rotation (phase ^ block) separates them."""
    reads = Layout((64, 4), (32, 8))                                  # lane -> row, access -> K chunk
    plain = GFX942.average_conflicts(Layout(64 * 32, 1), reads, 4, 2, 16)
    xor = GFX942.average_conflicts(XorSwizzle(2, 3, 2), reads, 4, 2, 16)   # chunk ^= row % 4
    rot = GFX942.average_conflicts(RotatingSwizzle(vec=8, per_phase=1, max_phase=4, row_elems=32),
                                   reads, 4, 2, 16)
    assert (plain, xor, rot) == (8 * 3, 8 * 1, 0)


def test_split_vector_is_rejected():
    with pytest.raises(ValueError):
        NV.average_conflicts(XorSwizzle(2, 0, 2), Layout((32, 1), (4, 1)), 1, 4, 16)


def _direct_count(model, addrs, access_bytes, groups):
    """The phase model counted lane by lane: the most distinct words one bank holds in a phase."""
    extra = 0
    for group in groups:
        words = {}
        for lane in group:
            if lane < len(addrs) and addrs[lane] is not None:
                a = addrs[lane]
                for w in range(a // model.bank_bytes, (a + access_bytes - 1) // model.bank_bytes + 1):
                    words.setdefault(w % model.num_banks, set()).add(w)
        extra += max(map(len, words.values())) - 1 if words else 0
    return extra


@pytest.mark.parametrize("model", [GFX942, NV, BankModel(32, 4, 8)])
def test_batched_conflicts_match_a_direct_count(model):
    # Random addresses (some lanes inactive, unaligned sizes too), default phases and gfx942's
    # b128 lane groups: conflicts_many counts what the model says, access by access.
    import random
    rng = random.Random(7)
    for _ in range(300):
        lanes = rng.randint(1, model.wave_size)
        access = rng.choice([1, 2, 3, 4, 6, 8, 16])
        rows = [[None if rng.random() < 0.1 else rng.randrange(4096) for _ in range(lanes)] for _ in range(3)]
        custom = rng.random() < 0.3 and model.wave_size == 64
        groups = GFX942_DS_READ_B128_LANE_GROUPS if custom else \
            [range(p, min(p + model.lanes_per_phase(access), lanes)) for p in range(0, lanes, model.lanes_per_phase(access))]
        batch = model.conflicts_many([[-1 if a is None else a for a in r] for r in rows], access,
                                     GFX942_DS_READ_B128_LANE_GROUPS if custom else None)
        assert list(batch) == [_direct_count(model, r, access, groups) for r in rows]
