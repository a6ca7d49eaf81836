"""The Hopper attention kernel's layouts (ldsopt/attention/emit_wgmma.py): wgmma's register
fragments (wgmma_maps.accumulator_coords, register_a_coords) against the PTX ISA's figures,
mma.sync's per-warp layouts that the shared softmax reads them as, and the LDS placement and
descriptor offsets of Q, K and V against the canonical 128-byte-swizzle layouts that the
descriptors describe (codegen/wgmma.py's transcription of PTX's, not the maps under test)."""

import pytest

from ldsopt.attention.emit_wgmma import BLOCK, warp_layouts_match
from ldsopt.codegen import wgmma
from ldsopt.codegen.wgmma import k_major_bytes, mn_major_bytes
from ldsopt.layout import index_expr, mma
from ldsopt.layout.wgmma_maps import SwizzledColumnBlocks, accumulator_coords, register_a_coords


@pytest.mark.parametrize("n", [64, 128])
def test_accumulator_covers_the_tile_once(n):
    held = [rc for t in range(128) for rc in accumulator_coords(t, n)]
    assert sorted(held) == [(r, c) for r in range(64) for c in range(n)]


def test_accumulator_is_the_ptx_figure():
    """PTX ISA, wgmma D fragment: thread T0 holds d0, d1 at row 0, columns 0, 1 and d2, d3 at
    row 8; T5 (row 1, columns 2, 3); T32 (warp 1) starts at row 16; d4.. the next 8 columns."""
    assert accumulator_coords(0, 64)[:8] == [(0, 0), (0, 1), (8, 0), (8, 1), (0, 8), (0, 9), (8, 8), (8, 9)]
    assert accumulator_coords(5, 64)[:4] == [(1, 2), (1, 3), (9, 2), (9, 3)]
    assert accumulator_coords(32, 64)[0] == (16, 0) and accumulator_coords(127, 64)[-1] == (63, 63)


def test_register_a_is_the_ptx_figure():
    """PTX ISA, wgmma A in registers (.f16/.bf16, k16): a0, a1 row g, K 2t, 2t + 1; a2, a3 row
    g + 8; a4..a7 the same at K + 8; warp w's rows 16 w on; every element of 64 x 16 once."""
    assert register_a_coords(0) == [(0, 0), (0, 1), (8, 0), (8, 1), (0, 8), (0, 9), (8, 8), (8, 9)]
    assert register_a_coords(37)[:2] == [(17, 2), (17, 3)]  # warp 1, lane 5: g = 1, t = 1
    held = [rc for t in range(128) for rc in register_a_coords(t)]
    assert sorted(held) == [(r, k) for r in range(64) for k in range(16)]


@pytest.mark.parametrize("elem", ["f16", "bf16"])
@pytest.mark.parametrize("n", [64, 128])
def test_warps_hold_mma_sync_layouts(elem, n):
    """Each warp's part of wgmma's accumulator is mma.sync's m16n8 C tiles along N, and of its
    register A the m16n8k16 A fragment: the softmax and P's packing of emit_mma apply as they are."""
    assert warp_layouts_match(mma.INTRINSICS[("sm80", elem)], n)


def test_other_layouts_do_not_match():
    """The check can fail: gfx942's MFMA layouts are not wgmma's."""
    assert not warp_layouts_match(mma.INTRINSICS[("cdna3", "f16")], 64)


def _placed_bytes(rows: int, cols: int) -> dict[tuple[int, int], int]:
    """Byte offset of each element of a rows x cols 16-bit tile as the kernel places it (its
    indices into the [rows, cols] LDS tile, from SwizzledColumnBlocks' expressions)."""
    m = SwizzledColumnBlocks(8, 1, 8, block=BLOCK, rows=rows, row_elems=cols)
    exprs = list(m.place(index_expr.var("row"), index_expr.var("col")))
    out = {}
    for r in range(rows):
        for c in range(cols):
            lr, lc = index_expr.evaluate(exprs, {"row": r, "col": c})
            out[(r, c)] = (lr * cols + lc) * 2
    return out


@pytest.mark.parametrize("rows, cols", [(64, 64), (128, 128), (128, 64)])
def test_q_and_k_tiles_are_k_major_blocks(rows, cols):
    """Q's and K's tiles: each 64-column block is the K-major 128-byte-swizzle layout of its rows
    (8-row groups 1024 bytes apart), blocks rows x 128 bytes apart: the descriptor's start
    address of K slice j is block j / 4 plus 32 bytes per slice (row 0 is unswizzled)."""
    placed = _placed_bytes(rows, cols)
    assert all(off == c // 64 * rows * 128 + k_major_bytes(r, c % 64) for (r, c), off in placed.items())
    for j in range(cols // wgmma.K_STEP):
        k = j * wgmma.K_STEP
        assert placed[(0, k)] == k // BLOCK * rows * wgmma.SWIZZLE_ROW_BYTES + k % BLOCK * 2


@pytest.mark.parametrize("keys, cols", [(128, 64), (128, 128)])
def test_v_tile_is_mn_major(keys, cols):
    """V's tile [keys, value dim]: the MN-major layout (keys along K) with blocks of 64 value
    columns keys x 128 bytes apart, the descriptor's leading offset; key slice j at 2 KiB j."""
    placed = _placed_bytes(keys, cols)
    assert all(off == mn_major_bytes(k, x, keys * wgmma.SWIZZLE_ROW_BYTES) for (k, x), off in placed.items())
    assert all(placed[(16 * j, 0)] == j * 16 * wgmma.SWIZZLE_ROW_BYTES for j in range(keys // 16))
