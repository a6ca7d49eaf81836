"""Unit tests of ldsopt.index_expr and of every map built on it: the IR a map emits, run by a
small interpreter of the `arith` ops for every index of its domain, equals its integer face
(the one the bank model and the planners call)."""

import itertools

import pytest
from iree.compiler import ir
from iree.compiler.dialects import arith, func

from ldsopt.layout import dtl
from ldsopt.layout import index_expr
from ldsopt.layout import mma
from ldsopt.layout.maps import Composed, Layout, Padded, RotatingSwizzle, RowXor, Walk
from ldsopt.layout.tile_layout import Lanes, LdsRows, RowChunks, TileLayout

# The interpreter: unsigned index arithmetic on Python ints, independent of index_expr's own face.
_ARITH = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
    "arith.divui": lambda a, b: a // b, "arith.remui": lambda a, b: a % b, "arith.shrui": lambda a, b: a >> b,
    "arith.andi": lambda a, b: a & b, "arith.xori": lambda a, b: a ^ b, "arith.minui": min,
}


class Emitted:
    """`exprs` emitted into a function whose arguments are the variables `names`, callable on
    ints by interpreting its ops."""

    def __init__(self, names, exprs):
        self.ctx = ir.Context()
        with self.ctx, ir.Location.unknown():
            index = ir.IndexType.get()
            self.module = ir.Module.create()
            with ir.InsertionPoint(self.module.body):
                f = func.FuncOp("f", ([index] * len(names), [index] * len(exprs)))
            block = f.add_entry_block()
            consts = {}
            with ir.InsertionPoint(block):
                def const(v):
                    if v not in consts:
                        consts[v] = arith.constant(index, v)
                    return consts[v]
                outs = index_expr.emit(exprs, dict(zip(names, block.arguments)), const)
                func.ReturnOp(outs)
            assert self.module.operation.verify()
            self.ops = [op.operation for op in block.operations]
            self.args = list(block.arguments)

    def op_names(self):
        return [op.name for op in self.ops]

    def __call__(self, *xs):
        val = {a: x for a, x in zip(self.args, xs)}
        for op in self.ops:
            if op.name == "arith.constant":
                val[op.result] = ir.IntegerAttr(op.attributes["value"]).value
            elif op.name == "func.return":
                return tuple(val[v] for v in op.operands)
            else:
                a, b = (val[v] for v in op.operands)
                val[op.result] = _ARITH[op.name](a, b)
                assert 0 <= val[op.result] < 1 << 31, (op, a, b)  # a signed 32-bit index never wraps


def test_emission_follows_build_order_and_folds_nothing():
    x = index_expr.var("x")
    row = x // 4
    col = x % 4
    e = Emitted(["x"], [index_expr.scaled(row, 2), index_expr.scaled(col, 1), index_expr.offset(row, 0)])
    # The constants are the caller's (here uniqued): 4 is asked for twice, made once.
    assert e.op_names() == ["arith.constant", "arith.divui", "arith.remui", "arith.constant", "arith.muli",
                            "func.return"]
    assert [e(v) for v in range(8)] == [(v // 4 * 2, v % 4, v // 4) for v in range(8)]


def test_magic_division():
    x = index_expr.var("x")
    div = dtl.divider(96, 10000)
    assert not div.is_pow2
    q, r = index_expr.divmod_by(x, div)
    e = Emitted(["x"], [q, r])
    assert "arith.divui" not in e.op_names()
    for v in range(10001):
        assert e(v) == (v // 96, v % 96) == tuple(index_expr.evaluate([q, r], {"x": v}))


@pytest.mark.parametrize("intrinsic", sorted(mma.BY_NAME))
def test_lane_maps(intrinsic):
    """Every lane map of every intrinsic operand (packed ones too) as the pass emits it for the
    subgroup's lanes, against `LaneMap.__call__`."""
    i = mma.BY_NAME[intrinsic]
    maps = {m for lay in (i.a, i.b, i.c) for m in (lay.first, lay.second)}
    maps |= {mma.packed_lane_map(lay, g) for lay in (i.a, i.b) for g in (2, 4)}
    lane = index_expr.var("lane")
    for m in maps:
        e = Emitted(["lane"], [m.expr(lane, i.subgroup)])
        assert [e(x)[0] for x in range(i.subgroup)] == [m(x) for x in range(i.subgroup)], m


def _stagings():
    base = dict(operand="B", dims=("k", "n"), fragment="fma 4x4", read_vector=4)
    yield TileLayout(threads=64, thread_map=RowChunks((16, 64), 4), lds=LdsRows.padded(64, 4), **base)
    yield TileLayout(threads=64, thread_map=RowChunks((16, 64), 4, 4, Lanes.ROWS), lds=LdsRows(16, row_xor=4), **base)
    yield TileLayout(threads=32, thread_map=RowChunks((16, 64), 4, 2, lane_rows=2), lds=LdsRows(16), **base)
    yield TileLayout(threads=64, thread_map=RowChunks((16, 64), 4), lds=LdsRows.rotating(64, 4, 2, 4), **base)
    yield TileLayout(threads=4, thread_map=RowChunks((12, 4), 4), lds=LdsRows(4), **base)  # one column chunk


@pytest.mark.parametrize("s", list(_stagings()), ids=str)
def test_staging_chunk_coords(s):
    """Each chunk's tile coordinates as emitted, against the thread map (a CuTe Layout)."""
    e = Emitted(["c"], list(s.chunk_expr(index_expr.var("c"))[0]))
    for c in range(s.chunks):
        assert e(c) == s.chunk_coords(c) == divmod(s.thread_map.layout(c), s.tile[1])


@pytest.mark.parametrize("amap", [
    RowXor(4, 16), RowXor(2, 8),
    RotatingSwizzle(4, 1, 4, 32), RotatingSwizzle(8, 2, 4, 64), RotatingSwizzle(2, 4, 2, 16),
    Padded(row_elems=16, pad_elems=4),
    Composed(RowXor(4, 32), RotatingSwizzle(4, 2, 8, 32)), Composed(RowXor(2, 16), Padded(16, 8)),
], ids=str)
def test_row_structured_lds_maps(amap):
    """The LDS (row, col) a pass emits for every element of a 64-row tile, against the map on
    the logical index (row * cols + col), the padded row pitch being the memref's."""
    cols = amap.outer.row_elems if isinstance(amap, Composed) else amap.row_elems
    pitch = cols + (amap.outer.pad_elems if isinstance(amap, Composed) and isinstance(amap.outer, Padded)
                    else amap.pad_elems if isinstance(amap, Padded) else 0)
    e = Emitted(["row", "col"], list(amap.place(index_expr.var("row"), index_expr.var("col"))))
    for row, col in itertools.product(range(64), range(cols)):
        r, c = e(row, col)
        assert r * pitch + c == amap(row * cols + col)


def test_layout_coords():
    lay = Layout((3, 5, 4), (20, 1, 5))
    e = Emitted(["x"], lay.coords_expr(index_expr.var("x")))
    assert [e(x) for x in range(lay.size)] == [lay.coords(x) for x in range(lay.size)]


_DTL = [("none", 16, 64, 2), ("block_pad<128,8>", 16, 64, 2), ("perm<4,2>", 16, 96, 4),
        ("perm<8,4>+block_pad<64,4>", 32, 96, 4), ("rotation<2,4,4>", 16, 64, 2), ("rotation<1,2,8>", 8, 160, 4)]


@pytest.mark.parametrize("text,rows,cols,elem_bytes", _DTL)
def test_dtl_maps(text, rows, cols, elem_bytes):
    """A DTL layout's chunk map (source element, LDS destination) and fragment-read offsets as
    dtl_emit emits them, with each division by its proven magic divider (cols / vec threads
    along a row: 24 and 40 are not powers of two), against the integer faces."""
    spec = dtl.DtlSpec.parse(text)
    g = dtl.Geometry(rows, cols, elem_bytes, threads=64, wave_size=64)
    div = index_expr.Proven(dtl.divisions(g, spec))
    (row, col), dest = g.chunk_expr(index_expr.var("c"), spec, div)
    e = Emitted(["c"], [row, col, dest])
    assert [e(c) for c in range(g.chunks)] == [(*g.source(c, spec), g.dest(c, spec)) for c in range(g.chunks)]
    amap = spec.address_map(cols)
    e = Emitted(["row", "col"], [spec.offset_expr(cols, index_expr.var("row"), index_expr.var("col"), div)])
    for r, c in itertools.product(range(rows), range(cols)):
        assert e(r, c) == (amap(r * cols + c),)
    inner = spec.inner(cols)
    if inner:  # the two faces of the inner placement are inverses
        assert all(inner.inverse(inner(i)) == i for i in range(rows * cols))


@pytest.mark.parametrize("levels", [((1, 8, 4), (2, 64, 1)), ((2, 16, 4), (1, 32, 1), (2, 1, 64)),
                                    ((0, 2, 4), (1, 12, 1), (2, 16, 1)), ((0, 4, 4), (1, 6, 1), (0, 2, 16))])
def test_walk(levels):
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
    e = Emitted(["i"], list(coords.values()))
    for i in range(w.size):
        assert dict(zip(coords, e(i))) == w(i) == by_definition(i)
    for bound in (64, 128, 256):
        for offset in range(0, w.size, bound):
            levels_t = w.levels_of_offset(index_expr.var("t"), bound, offset)
            if levels_t is None:
                continue
            e = Emitted(["t"], levels_t)
            for t in range(min(bound, w.size - offset)):
                assert list(e(t)) == list(Layout(tuple(w.counts), (1,) * len(w.counts)).coords(t + offset))


@pytest.mark.parametrize("shape,reduced,subgroup", [((512, 64), (0,), 64), ((4, 4096), (1,), 64),
                                                    ((100, 30), (1,), 8), ((7, 4099), (1,), 8)])
def test_reduction_readback(shape, reduced, subgroup):
    """The read-back's (partial row, output, column) of every thread and round as
    vector_distribute emits them, against the plan's integer face."""
    from ldsopt.reduction.plan import ReductionProblem, default_plan
    plan = default_plan(ReductionProblem(shape, reduced, 4, subgroup_size=subgroup, max_threads=1024,
                                         max_workgroups=65535), 256)
    tid = index_expr.var("tid")
    kk, out0 = plan.readback_lane(tid)
    rounds = -(-plan.outputs_per_tile // (plan.workgroup_size // plan.readback_group()))
    exprs = [kk] + [x for r in range(rounds) for x in plan.readback_round(out0, r)]
    e = Emitted(["tid"], exprs)
    for t in range(plan.workgroup_size):
        assert e(t) == tuple(index_expr.evaluate(exprs, {"tid": t}))
        spread = plan.subgroup_size // plan.readback_group()
        lane = t % plan.subgroup_size
        assert e(t)[:3] == (lane // spread, t // plan.subgroup_size * spread + lane % spread,
                            min(t // plan.subgroup_size * spread + lane % spread, plan.outputs_per_tile - 1))
