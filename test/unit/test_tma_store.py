"""ldsopt/matmul/tma_store.py: the stage is laid out as the copy engine's boxes in the 128-byte
swizzle, and a warp's accumulator pieces fill it without bank conflicts beyond their width."""

import types

import pytest
from iree.compiler import ir

from ldsopt.layout import index_expr
from ldsopt.matmul import tma_store
from ldsopt.matmul.schemes import Tiling


def kernel(bm: int, bn: int, elem: str):
    out = types.SimpleNamespace(tensor_type=ir.RankedTensorType.get([4096, 4096], ir.Type.parse(elem)))
    return types.SimpleNamespace(p=types.SimpleNamespace(output=out), pl=types.SimpleNamespace(tiling=Tiling(bm, bn, 8, 8)))


def store(bm: int, bn: int, elem: str, parts: int = 1, buffers: int = 1) -> tma_store.TmaStore:
    with ir.Context(), ir.Location.unknown():
        return tma_store.TmaStore(kernel(bm, bn, elem), parts, buffers)


def byte_of(st: tma_store.TmaStore, row: int, col: int) -> int:
    r, c = index_expr.Function(("r", "c"), st.address_map.place(index_expr.var("r"), index_expr.var("c")))(row, col)
    return (int(r) * st.stage.cols + int(c)) * st.elem_bytes


@pytest.mark.parametrize("bm, bn, elem, parts, buffers", [(128, 128, "f32", 1, 1), (64, 256, "f16", 1, 1),
                                                          (128, 256, "bf16", 1, 1), (128, 256, "f32", 4, 1),
                                                          (128, 256, "f32", 8, 2)])
def test_stage_is_the_boxes_in_the_128_byte_swizzle(bm, bn, elem, parts, buffers):
    """Element (r, c) of the stage (a part's columns) lies in box c / (128 / e) (bm rows of 128
    bytes each, one box after the other), its 16-byte unit u of the row at u ^ r % 8: what a TMA
    map of that box reads in swizzle mode 128B from a 1024-byte aligned stage."""
    st = store(bm, bn, elem, parts, buffers)
    e = st.elem_bytes
    assert st.box == [128 // e, bm] and st.stage.alignment == 1024 and st.stage.pad == 0
    assert st.stage.cols == buffers * bn // parts
    for row in range(0, bm, 3):
        for col in range(0, st.stage.cols, 5):
            box, within = divmod(col * e, 128)
            unit, byte = divmod(within, 16)
            assert byte_of(st, row, col) == box * bm * 128 + row * 128 + (unit ^ row % 8) * 16 + byte, (row, col)


def test_warp_pieces_take_two_wavefronts():
    """A warp's store of its 8-byte f32 pieces (lane l: row l / 4, columns 2 (l % 4) + 8 i) fills
    each of the 32 banks twice: the minimum for 256 bytes, no conflict."""
    st = store(128, 128, "f32")
    for i in range(16):
        banks = [0] * 32
        for lane in range(32):
            at = byte_of(st, lane // 4, 2 * (lane % 4) + 8 * i)
            for word in (at // 4, at // 4 + 1):
                banks[word % 32] += 1
        assert banks == [2] * 32, (i, banks)


@pytest.mark.parametrize("lds_left_kib, parts", [(200, 1), (100, 2), (40, 4), (20, 8), (10, None)])
def test_fitting_takes_the_fewest_parts_whose_stage_fits(lds_left_kib, parts):
    """A 128x256 f32 tile (128 KiB, 8 boxes of 32 columns) leaves whole where its stage fits,
    else in 2, 4 or 8 parts of its columns (64, 32, 16 KiB and a map), never in less than a box."""
    with ir.Context(), ir.Location.unknown():
        st = tma_store.fitting(kernel(128, 256, "f32"), lds_left_kib * 1024)
        assert (st and st.parts) == parts
        if st:
            assert st.lds_bytes() <= lds_left_kib * 1024 and st.stage.cols == 256 // parts


@pytest.mark.parametrize("lds_left_kib, parts", [(200, 1), (100, 4), (40, 8), (20, None)])
def test_fitting_with_two_buffers(lds_left_kib, parts):
    """Two part buffers: a tile that fits whole still takes one stage; in parts, the stage holds
    two of them (4 parts: 2 x 32 KiB, 8 parts: 2 x 16 KiB)."""
    with ir.Context(), ir.Location.unknown():
        st = tma_store.fitting(kernel(128, 256, "f32"), lds_left_kib * 1024, buffers=2)
        assert (st and st.parts) == parts
        if st:
            assert st.buffers == (1 if parts == 1 else 2) and st.stage.cols == st.buffers * 256 // parts


def test_part_of_a_piece_and_its_buffer():
    """A piece belongs to the part of its 8-column group (the lane's offset within it below 8);
    part p lies in buffer p % B."""
    st = store(128, 256, "f32", 4)
    assert [st.part_of(dn, 2) for dn in (0, 6, 56, 62, 64, 200, 254)] == [0, 0, 0, 0, 1, 3, 3]
    assert [st.stage_col(p) for p in range(4)] == [0, 0, 0, 0]
    st = store(128, 256, "f32", 8, 2)
    assert [st.stage_col(p) for p in range(8)] == [0, 32] * 4
