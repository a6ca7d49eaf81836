"""Unit tests of ldsopt.layout: CuTe layouts and the LDS address maps' bijections."""

import pytest

from ldsopt.layout.maps import (BlockedRotation, BlockPadded, Layout, Padded, PerpPermutation,
                           RotatingSwizzle, RowXor, XorSwizzle)


def table(f, n):
    return [f(i) for i in range(n)]


# ------------------------------------------------------------------ Layout basics

def test_colexicographic_indexing():
    l = Layout((4, 2), (1, 4))
    assert l.coords(5) == (1, 1)
    assert table(l, 8) == list(range(8))
    assert l((3, 1)) == 7
    r = Layout((4, 2), (2, 1))
    assert table(r, 8) == [0, 2, 4, 6, 1, 3, 5, 7]


def test_of_bit_permutation():
    # mma.sync m16n8k16's K order over 2 steps: bit 0 stays, bits 1-2 go to 3-4, bits 3-4 to 1-2.
    perm = [(k & 1) | (k >> 3 & 3) << 1 | (k >> 1 & 3) << 3 for k in range(32)]
    lay = Layout.of_bit_permutation(perm)
    assert str(lay) == "(2,4,4):(1,8,2)" and table(lay, 32) == perm
    assert Layout.of_bit_permutation(list(range(8))) == Layout((8,), (1,))
    assert Layout.of_bit_permutation([1, 2, 0, 3]) is None      # a permutation, not of bits
    assert Layout.of_bit_permutation([0, 1, 2]) is None         # not a power of two
    assert Layout.of_bit_permutation([0, 0, 1, 2]) is None      # not a permutation


def test_size_and_bounds():
    l = Layout((2, 3), (3, 1))
    assert l.size == 6
    with pytest.raises(IndexError):
        l(6)
    with pytest.raises(IndexError):
        l((2, 0))
    with pytest.raises(ValueError):
        Layout((2, 3), (1,))


def test_str():
    assert str(Layout((4, 2), (1, 4))) == "(4,2):(1,4)"
    assert str(Layout(8, 1)) == "8:1"


# ------------------------------------------------------------------ LDS address maps

def assert_injective_with_inverse(m, n):
    """m is injective on [0, n), inverse undoes it, and its images fit alloc_size(n)."""
    offs = table(m, n)
    assert len(set(offs)) == n
    assert all(m.inverse(o) == i for i, o in enumerate(offs))
    assert max(offs) < m.alloc_size(n)
    return offs


def test_padded_rows():
    m = Padded(row_elems=32, pad_elems=1)
    offs = assert_injective_with_inverse(m, 32 * 32)
    assert offs[32] == 33 and offs[64 + 5] == 2 * 33 + 5
    assert m.alloc_size(32 * 32) == 32 * 33 - 1              # no trailing pad
    holes = [o for o in range(m.alloc_size(1024)) if m.inverse(o) is None]
    assert holes == [33 * r + 32 for r in range(31)]


def test_padded_row_blocks():
    m = Padded(row_elems=16, pad_elems=4, rows_per_pad=2)
    offs = assert_injective_with_inverse(m, 16 * 8)
    assert offs[31] == 31 and offs[32] == 36 and offs[64] == 72


def test_block_padded_rounds_to_wave_run():
    # f16, 128 B requested: a wave's dword DTL load writes 64 * 4 = 256 B, so the
    # block becomes 256 B = 128 halves (hipBLASLt's LdsBlockSizePerPad rule).
    m = BlockPadded(block_bytes=128, pad_bytes=16, elem_bytes=2)
    assert m.block_elems == 128 and m.pad == 8
    offs = assert_injective_with_inverse(m, 1024)
    assert offs[127] == 127 and offs[128] == 136
    assert BlockPadded(block_bytes=512, pad_bytes=16, elem_bytes=4).block_elems == 128
    assert BlockPadded(block_bytes=300, pad_bytes=4, elem_bytes=4, wave_size=32).block_elems == 96
    with pytest.raises(ValueError):
        BlockPadded(block_bytes=256, pad_bytes=3, elem_bytes=2)


@pytest.mark.parametrize("b,m_,s", [(3, 3, 3), (2, 0, 3), (5, 0, 5), (1, 2, 4), (0, 1, 1)])
def test_xor_swizzle_is_an_involutive_bijection(b, m_, s):
    sw = XorSwizzle(b, m_, s)
    n = 1 << (b + m_ + s + 1)
    offs = assert_injective_with_inverse(sw, n)
    assert sorted(offs) == list(range(n))                      # a permutation: no holes
    assert all(sw(sw(i)) == i for i in range(n))
    unit = 1 << m_
    assert all(offs[i] - offs[i - i % unit] == i % unit for i in range(n))   # 2^M units stay whole


def test_xor_swizzle_cute_128b():
    sw = XorSwizzle(3, 3, 3)                                    # Swizzle<3,3,3> on f16: 16 B units
    assert sw(0) == 0 and sw(64) == 72 and sw(64 + 8) == 64 and sw(7 * 64) == 7 * 64 + 56
    with pytest.raises(ValueError):
        XorSwizzle(3, 0, 2)                                     # overlapping bits: not a bijection


def test_rotating_swizzle_matches_triton_definition():
    # Triton lit: in-thread transpose of a 256x32 f16 A operand -> vec=4 perPhase=2 maxPhase=8.
    m = RotatingSwizzle(vec=4, per_phase=2, max_phase=8, row_elems=32)
    n = 256 * 32
    offs = assert_injective_with_inverse(m, n)
    assert sorted(offs) == list(range(n))
    for row in range(256):
        phase = (row // 2) % 8
        block = (row // 16) % 8
        for col in range(32):
            expect = ((col // 4) ^ phase ^ block) * 4 + col % 4
            assert offs[row * 32 + col] == row * 32 + expect
    # in the first per_phase*max_phase rows it is the plain swizzle of the brief
    assert all(offs[r * 32 + c] == r * 32 + ((c // 4) ^ ((r // 2) % 8)) * 4 + c % 4
               for r in range(16) for c in range(32))
    # the rotation: row 16 (phase 0) is not stored like row 0
    assert offs[16 * 32] != 16 * 32


def test_rotating_swizzle_wraps_mask_to_row():
    m = RotatingSwizzle(vec=8, per_phase=1, max_phase=16, row_elems=32)   # vec*phase exceeds the row
    offs = assert_injective_with_inverse(m, 64 * 32)
    assert all(o // 32 == i // 32 for i, o in enumerate(offs))
    with pytest.raises(ValueError):
        RotatingSwizzle(vec=3, per_phase=1, max_phase=8, row_elems=32)


@pytest.mark.parametrize("block,stride", [(8, 2), (8, 4), (16, 4), (12, 3), (12, 4), (6, 6), (5, 1)])
def test_perp_permutation_forward_inverse(block, stride):
    p = PerpPermutation(block, stride)
    sp = block // stride
    rows = 3 * block
    for i in range(rows):
        base, j = divmod(i, block)
        assert p.forward(i) == base * block + stride * (j % sp) + j // sp
        assert p.backward(i) == base * block + sp * (j % stride) + j // stride
        assert p.backward(p.forward(i)) == i and p.forward(p.backward(i)) == i
    assert sorted(p.forward(i) for i in range(block)) == list(range(block))
    assert sorted(p.backward(i) for i in range(rows)) == list(range(rows))


def test_perp_permutation_as_lds_map():
    p = PerpPermutation(block=8, stride=2, row_elems=16)
    offs = assert_injective_with_inverse(p, 16 * 16)
    assert sorted(offs) == list(range(256))
    # forward(1) = 2 * (1 % 4) + 1 // 4 = 2: LDS row 1 holds logical row 2, so row 2 reads LDS row 1
    assert p.forward(1) == 2 and p(2 * 16 + 3) == 1 * 16 + 3
    with pytest.raises(ValueError):
        PerpPermutation(block=8, stride=3)


def test_blocked_rotation():
    m = BlockedRotation(perp_block=2, stride_tile=2, para_block=4, chunk_elems=8, row_elems=64)
    n = 32 * 64
    offs = assert_injective_with_inverse(m, n)
    assert sorted(offs) == list(range(n))
    for row in range(32):
        rot = row // 4
        for k in range(8):
            expect_k = (k & ~3) | ((k + rot) & 3)
            assert offs[row * 64 + k * 8 + 5] == row * 64 + expect_k * 8 + 5
    assert offs[4 * 64] == 4 * 64 + 8                           # rows 4..7 rotate by one chunk
    with pytest.raises(ValueError):
        BlockedRotation(perp_block=2, stride_tile=2, para_block=3, chunk_elems=8, row_elems=48)


def test_layout_then_map():
    """A thread layout composed with an address map: a column of a padded tile."""
    col = Layout((32,), (32,))                                  # lane -> (row=lane, col=0)
    m = Padded(32, 1)
    assert [m(col(l)) for l in range(32)] == [33 * l for l in range(32)]


def test_row_xor_swaps_row_pairs_in_odd_blocks():
    m = RowXor(stride=4, row_elems=32)
    rows = [m(r * 32) // 32 for r in range(16)]
    assert rows == [0, 1, 2, 3, 5, 4, 7, 6, 8, 9, 10, 11, 13, 12, 15, 14]
    assert all(m.inverse(m(i)) == i and m(i) % 32 == i % 32 for i in range(16 * 32))
    assert m.alloc_size(3 * 32) == 4 * 32
    with pytest.raises(ValueError):
        RowXor(stride=3, row_elems=32)
