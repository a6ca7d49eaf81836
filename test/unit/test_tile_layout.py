"""ldsopt.layout.tile_layout: a TileLayout's integer face (what the planners and the bank model
price) is its IR face (what the kernel builder emits, run by the interpreter of conftest.py),
for every layout the planners enumerate on random plans; and its attribute's one parser."""

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.ir_types import element_bits
from ldsopt.layout import dtl, index_expr
from ldsopt.layout.tile_layout import (Direct, Lanes, LdsDtl, LdsRows, Registers, RowChunks, StorageOrder,
                                       TileLayout)
from ldsopt.matmul import planner, schemes
from ldsopt.passes import inthread_transpose

_CHECKED: set = set()  # (thread map, LDS map) pairs whose faces were compared (the faces depend on nothing else)


def check_faces(s: TileLayout, emitted) -> None:
    """The IR of `s`'s chunk map and LDS map, interpreted at every chunk and every LDS element,
    against the integer faces: each chunk's source (`chunk_coords`, and the thread map's CuTe
    layout), the LDS offset of each of its writes (`lds_writes` through `address_map`, what the
    bank model prices) and of each fragment read's element (`address_map`); the chunks cover
    the tile once and the LDS map places every element at its own offset inside a buffer."""
    key = (s.thread_map, s.lds)
    if key in _CHECKED:
        return
    rows, cols = s.tile
    chunks = np.arange(s.chunks)
    (row, col), dest = s.chunk_expr(index_expr.var("c"))
    exprs = [row, col] + ([dest] if dest is not None else [])
    got = [np.broadcast_to(x, chunks.shape) for x in emitted(["c"], exprs)(chunks)]
    src_row, src_col = got[0], got[1]
    assert (src_row == s.chunk_coords(chunks)[0]).all() and (src_col == s.chunk_coords(chunks)[1]).all()

    # The LDS map's IR face: the memref indices after the buffer's, flattened.
    lds_rows, lds_cols = s.lds_tile
    buffer = s.lds_shape[1:]
    strides = [int(np.prod(buffer[i + 1:])) for i in range(len(buffer))]
    index = emitted(["row", "col"], s.lds.index_exprs(index_expr.var("row"), index_expr.var("col")))

    def offset(r, c):
        return sum(np.asarray(x) * d for x, d in zip(index(r, c), strides))

    r_all, c_all = np.divmod(np.arange(lds_rows * lds_cols), lds_cols)
    placed = offset(r_all, c_all)
    assert (placed == s.address_map(r_all * lds_cols + c_all)).all()
    assert len(np.unique(placed)) == placed.size and placed.max() < np.prod(s.lds_shape[1:])

    covered = np.zeros((rows, cols), dtype=int)
    tm = s.thread_map
    if isinstance(tm, RowChunks):
        lay = tm.layout  # colexicographic coordinates of each chunk, dotted with the strides
        coords = np.unravel_index(chunks, lay.shape[::-1])[::-1]
        logical = sum(x * d for x, d in zip(coords, lay.stride))
        assert (src_row * cols + src_col == logical).all()
        lds_r, lds_c = tm.lds_coords(src_row, src_col)
        for (row_w, col_w, _), (_, dr, _) in zip(s.lds_writes(chunks), tm.write_slices()):  # every chunk at once
            assert (row_w == lds_r + dr).all() and (col_w == lds_c).all()
            assert (offset(lds_r + dr, lds_c) == s.address_map(row_w * lds_cols + col_w)).all()
    else:
        # A chunk's fixed slot holds what it fetched: where the fragment reads look for it.
        assert (got[2] == s.address_map(src_row * cols + src_col)).all()
    dr, dc = np.meshgrid(np.arange(tm.rake), np.arange(tm.vector), indexing="ij")
    np.add.at(covered, ((src_row[:, None, None] + dr), (src_col[:, None, None] + dc)), 1)
    assert (covered == 1).all()
    _CHECKED.add(key)


def dtl_candidates(s: TileLayout, elem_bytes: int, wave_size: int) -> list[TileLayout]:
    """Every DTL layout ldsopt-dtl-layout's bank model prices for `s`, in each lane width, whose
    divisions it can prove."""
    if s.lds_dims != s.dims:
        return []
    out = []
    for lane in dtl.LANE_CHOICES:
        try:
            g = dtl.Geometry(s.tile[0], s.tile[1], elem_bytes, s.threads, wave_size, lane)
        except ValueError:
            continue
        for spec in dtl.candidates(g, s.read_vector):
            try:
                dtl.divisions(g, spec)
            except ValueError:
                continue
            out.append(s.placed(spec, g.vec, Direct()))
    return out


SIZES = st.sampled_from((16, 33, 48, 64, 96, 100, 128, 160, 256, 320))


@st.composite
def plans(draw):
    """A random matmul's plan on a random target, in one of the default tilings."""
    target = draw(st.sampled_from(("lavapipe", "cuda", "gfx942")))
    dtype = draw(st.sampled_from(("f32", "f16", "bf16", "i8")))
    dims_a = draw(st.sampled_from((("m", "k"), ("k", "m"))))
    dims_b = draw(st.sampled_from((("k", "n"), ("n", "k"))))
    tiling = draw(st.sampled_from(schemes.TILINGS))
    k_bytes = draw(st.sampled_from(planner.K_BYTES))
    return target, dtype, dims_a, dims_b, draw(SIZES), draw(SIZES), draw(SIZES), tiling, k_bytes


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(plan=plans())
def test_integer_face_is_the_emitted_ir_for_every_candidate(plan, matmul_problem, emitted):
    """For a random plan, every staging the planner (row pads), ldsopt-inthread-transpose (rakes,
    lane orders, row XORs, pads and rotating swizzles) and ldsopt-dtl-layout (DTL placements of
    each lane width) enumerate for each operand: `check_faces`."""
    target, dtype, dims_a, dims_b, m, n, k, tiling, k_bytes = plan
    tgt = target_model.by_name(target)
    with ir.Context(), ir.Location.unknown():
        problem = matmul_problem(dims_a, dims_b, dtype, m, n, k)
        pl = planner.plan(problem, tgt, tgt.lds_bytes, True, (tiling,), k_bytes=k_bytes)
        assume(pl is not None)
        bits = element_bits(problem.elem_type)
    for s in pl.staging.values():
        candidates = planner.padded(s, pl.scheme, s.k_pack)
        for opts in (inthread_transpose.InthreadTranspose(force=True),
                     inthread_transpose.InthreadTranspose(force=True, rake_bits=128)):
            candidates += inthread_transpose.candidates(s, pl.scheme, bits, opts)
        candidates += dtl_candidates(s, bits // 8, tgt.subgroup_size)
        for c in candidates:
            check_faces(c, emitted)


@pytest.mark.parametrize("s", [
    TileLayout.planned("B", ("k", "n"), (16, 64), 4, 64, "fma 4x4", 4, pad=4),
    dataclasses.replace(TileLayout.planned("B", ("k", "n"), (16, 64), 4, 64, "fma 4x4", 4),
                        thread_map=RowChunks((16, 64), 4, 4, Lanes.ROWS), lds=LdsRows.padded(16).xor_rows(4)),
    dataclasses.replace(TileLayout.planned("B", ("k", "n"), (16, 64), 4, 32, "fma 4x4", 4),
                        thread_map=RowChunks((16, 64), 4, 2, lane_rows=2), lds=LdsRows.padded(16)),
    dataclasses.replace(TileLayout.planned("B", ("k", "n"), (16, 64), 4, 64, "fma 4x4", 4),
                        lds=LdsRows.rotating(64, 4, 2, 4)),
    TileLayout.planned("B", ("k", "n"), (12, 4), 4, 4, "fma 4x4", 4),  # one column chunk
    TileLayout.planned("A", ("m", "k"), (32, 96), 2, 64, "fma 4x4", 2).placed(
        dtl.DtlSpec.parse("perm<8,4>+block_pad<64,4>"), 2, Registers()),
    TileLayout.planned("A", ("m", "k"), (8, 160), 4, 64, "fma 4x4", 4).placed(
        dtl.DtlSpec.parse("rotation<1,2,8>"), 4, Direct()),
])
def test_hand_picked_layouts(s, emitted):
    """The faces of layouts of every part: lanes down the rows with a row XOR, lane_rows, a
    swizzle, a single column chunk, DTL placements with divisions by non-powers of two (96 / 2
    and 160 / 4 lanes a row)."""
    _CHECKED.discard((s.thread_map, s.lds))
    check_faces(s, emitted)


def test_attribute_round_trip_and_its_one_parser():
    """Every part prints and parses back; an attribute that says two things, or names an
    unknown copy, lane order or swizzle, is refused."""
    base = TileLayout.planned("B", ("k", "n"), (32, 128), 4, 256, "MFMA_F32_16x16x16_F16", 4)
    raked = dataclasses.replace(base, thread_map=RowChunks((32, 128), 4, 4, Lanes.COLS, 2),
                                lds=LdsRows.rotating(32, 4, 1, 8).xor_rows(4), copy=Registers(2))
    direct = dataclasses.replace(raked, copy=Direct())
    placed = base.placed(dtl.DtlSpec.parse("perm<4,2>+block_pad<128,4>"), 2, Registers())
    with ir.Context():
        for s in (base, raked, direct, placed):
            assert TileLayout.from_attr(s.attr()) == s
        text = str(raked.attr())
        for part in ("lane_rows = 2", "row_xor = 4", 'swizzle = "rotating<4,1,8>"', "prefetch = 2",
                     "register_transpose = true", 'thread_map = "(2,32,4):(512,4,1024)"'):
            assert part in text, text
        assert "lanes" not in text and "copy" not in text  # the defaults are not printed
        assert {'copy = "registers"', 'lds_layout = "perm<4,2>+block_pad<128,4>"'} <= set(str(placed.attr())[1:-1].split(", "))
        for bad, match in ((text.replace("lane_rows = 2", "lane_rows = 4"), "inconsistent"),
                           (text[:-1] + ', copy = "dma"}', "unknown copy"),
                           (text[:-1] + ', lanes = "diagonal"}', "unknown lanes"),
                           (text.replace("rotating<4,1,8>", "xor<4>"), "unknown swizzle")):
            with pytest.raises(ValueError, match=match):
                TileLayout.from_attr(ir.Attribute.parse(bad))


def test_parts_refuse_what_they_cannot_be():
    with pytest.raises(ValueError, match="straddle"):
        StorageOrder((8, 30), 4)
    with pytest.raises(ValueError, match="lane_rows"):
        RowChunks((16, 64), 4, 2, Lanes.ROWS, 2)
    with pytest.raises(ValueError, match="power of two"):
        LdsRows(32, row_xor=3)
    base = TileLayout.planned("A", ("m", "k"), (64, 32), 2, 256, "fma 4x4", 2)
    with pytest.raises(ValueError, match="storage order"):
        dataclasses.replace(base, lds=LdsDtl(dtl.DtlSpec(), 64, 32))
    dataclasses.replace(base, copy=Direct())  # a direct copy of unraked rows: cp.async into LDS rows
    with pytest.raises(ValueError, match="split evenly"):
        TileLayout.planned("A", ("m", "k"), (8, 8), 4, 256, "fma 4x4", 4)
