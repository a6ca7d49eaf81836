"""Unit tests of ldsopt.index_expr and of every map built on it: the IR a map emits, run by a
small interpreter of the `arith` ops for every index of its domain, equals its integer face
(the one the bank model and the planners call)."""

import itertools

import pytest

from ldsopt.layout import dtl
from ldsopt.layout import index_expr
from ldsopt.layout import mma
from ldsopt.layout.maps import Composed, Layout, Padded, RotatingSwizzle, RowXor, Walk


def test_emission_follows_build_order_and_folds_nothing(emitted):
    x = index_expr.var("x")
    row = x // 4
    col = x % 4
    e = emitted(["x"], [index_expr.scaled(row, 2), index_expr.scaled(col, 1), index_expr.offset(row, 0)])
    # The constants are the caller's (here uniqued): 4 is asked for twice, made once.
    assert e.op_names() == ["arith.constant", "arith.divui", "arith.remui", "arith.constant", "arith.muli",
                            "func.return"]
    assert [e(v) for v in range(8)] == [(v // 4 * 2, v % 4, v // 4) for v in range(8)]


def test_magic_division(emitted):
    x = index_expr.var("x")
    div = dtl.divider(96, 10000)
    assert not div.is_pow2
    q, r = index_expr.divmod_by(x, div)
    e = emitted(["x"], [q, r])
    assert "arith.divui" not in e.op_names()
    for v in range(10001):
        assert e(v) == (v // 96, v % 96) == tuple(index_expr.evaluate([q, r], {"x": v}))


@pytest.mark.parametrize("intrinsic", sorted(mma.BY_NAME))
def test_lane_maps(intrinsic, emitted):
    """Every lane map of every intrinsic operand (packed ones too) as the pass emits it for the
    subgroup's lanes, against `LaneMap.__call__`."""
    i = mma.BY_NAME[intrinsic]
    maps = {m for lay in (i.a, i.b, i.c) for m in (lay.first, lay.second)}
    maps |= {mma.packed_lane_map(lay, g) for lay in (i.a, i.b) for g in (2, 4)}
    lane = index_expr.var("lane")
    for m in maps:
        e = emitted(["lane"], [m.expr(lane, i.subgroup)])
        assert [e(x)[0] for x in range(i.subgroup)] == [m(x) for x in range(i.subgroup)], m


@pytest.mark.parametrize("amap", [
    RowXor(4, 16), RowXor(2, 8),
    RotatingSwizzle(4, 1, 4, 32), RotatingSwizzle(8, 2, 4, 64), RotatingSwizzle(2, 4, 2, 16),
    Padded(row_elems=16, pad_elems=4),
    Composed(RowXor(4, 32), RotatingSwizzle(4, 2, 8, 32)), Composed(RowXor(2, 16), Padded(16, 8)),
], ids=str)
def test_row_structured_lds_maps(amap, emitted):
    """The LDS (row, col) a pass emits for every element of a 64-row tile, against the map on
    the logical index (row * cols + col), the padded row pitch being the memref's."""
    cols = amap.outer.row_elems if isinstance(amap, Composed) else amap.row_elems
    pitch = cols + (amap.outer.pad_elems if isinstance(amap, Composed) and isinstance(amap.outer, Padded)
                    else amap.pad_elems if isinstance(amap, Padded) else 0)
    e = emitted(["row", "col"], list(amap.place(index_expr.var("row"), index_expr.var("col"))))
    for row, col in itertools.product(range(64), range(cols)):
        r, c = e(row, col)
        assert r * pitch + c == amap(row * cols + col)


def test_layout_coords(emitted):
    lay = Layout((3, 5, 4), (20, 1, 5))
    e = emitted(["x"], lay.coords_expr(index_expr.var("x")))
    assert [e(x) for x in range(lay.size)] == [lay.coords(x) for x in range(lay.size)]


_DTL = [("none", 16, 64, 2), ("block_pad<128,8>", 16, 64, 2), ("perm<4,2>", 16, 96, 4),
        ("perm<8,4>+block_pad<64,4>", 32, 96, 4), ("rotation<2,4,4>", 16, 64, 2), ("rotation<1,2,8>", 8, 160, 4)]


@pytest.mark.parametrize("text,rows,cols,elem_bytes", _DTL)
def test_dtl_maps(text, rows, cols, elem_bytes, emitted):
    """A DTL layout's chunk map (source element, LDS destination) and fragment-read offsets as
    the copies emit them, with each division by its proven magic divider (cols / vec threads
    along a row: 24 and 40 are not powers of two), against the integer faces."""
    spec = dtl.DtlSpec.parse(text)
    g = dtl.Geometry(rows, cols, elem_bytes, threads=64, wave_size=64)
    div = index_expr.Proven(dtl.divisions(g, spec))
    (row, col), dest = g.chunk_expr(index_expr.var("c"), spec, div)
    e = emitted(["c"], [row, col, dest])
    assert [e(c) for c in range(g.chunks)] == [(*g.source(c, spec), g.dest(c, spec)) for c in range(g.chunks)]
    amap = spec.address_map(cols)
    e = emitted(["row", "col"], [spec.offset_expr(cols, index_expr.var("row"), index_expr.var("col"), div)])
    for r, c in itertools.product(range(rows), range(cols)):
        assert e(r, c) == (amap(r * cols + c),)
    inner = spec.inner(cols)
    if inner:  # the two faces of the inner placement are inverses
        assert all(inner.inverse(inner(i)) == i for i in range(rows * cols))


@pytest.mark.parametrize("levels", [((1, 8, 4), (2, 64, 1)), ((2, 16, 4), (1, 32, 1), (2, 1, 64)),
                                    ((0, 2, 4), (1, 12, 1), (2, 16, 1)), ((0, 4, 4), (1, 6, 1), (0, 2, 16))])
def test_walk(levels, emitted):
    """A walk's block coordinates as preload_transposed emits them (from the block index, and
    from the thread id plus a constant where no level carries), against the walk on ints and
    the definition (each level's index times its step, summed per dim)."""
    w = Walk(levels)

    def by_definition(i):
        out = {d: 0 for d, _, _ in levels}
        for d, c, step in levels:
            out[d] += i % c * step
            i //= c
        return out

    coords = w.coords_expr(w.levels_expr(index_expr.var("i")))
    e = emitted(["i"], list(coords.values()))
    for i in range(w.size):
        assert dict(zip(coords, e(i))) == w(i) == by_definition(i)
    for bound in (64, 128, 256):
        for offset in range(0, w.size, bound):
            levels_t = w.levels_of_offset(index_expr.var("t"), bound, offset)
            if levels_t is None:
                continue
            e = emitted(["t"], levels_t)
            for t in range(min(bound, w.size - offset)):
                assert list(e(t)) == list(Layout(tuple(w.counts), (1,) * len(w.counts)).coords(t + offset))


@pytest.mark.parametrize("shape,reduced,subgroup", [((512, 64), (0,), 64), ((4, 4096), (1,), 64),
                                                    ((100, 30), (1,), 8), ((7, 4099), (1,), 8)])
def test_reduction_readback(shape, reduced, subgroup, emitted):
    """The read-back's (partial row, output, column) of every thread and round as
    vector_distribute emits them, against the plan's integer face."""
    from ldsopt.reduction.plan import ReductionProblem, default_plan
    plan = default_plan(ReductionProblem(shape, reduced, 4, subgroup_size=subgroup, max_threads=1024,
                                         max_workgroups=65535), 256)
    tid = index_expr.var("tid")
    kk, out0 = plan.readback_lane(tid)
    rounds = -(-plan.outputs_per_tile // (plan.workgroup_size // plan.readback_group()))
    exprs = [kk] + [x for r in range(rounds) for x in plan.readback_round(out0, r)]
    e = emitted(["tid"], exprs)
    for t in range(plan.workgroup_size):
        assert e(t) == tuple(index_expr.evaluate(exprs, {"tid": t}))
        spread = plan.subgroup_size // plan.readback_group()
        lane = t % plan.subgroup_size
        assert e(t)[:3] == (lane // spread, t // plan.subgroup_size * spread + lane % spread,
                            min(t // plan.subgroup_size * spread + lane % spread, plan.outputs_per_tile - 1))
