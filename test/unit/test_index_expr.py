"""Unit tests of ldsopt.index_expr and of every map built on it: the IR a map emits, run by a
small interpreter of the `arith` ops for every index of its domain, equals its integer face
(the one the bank model and the planners call)."""

import itertools

import pytest
from iree.compiler import ir
from iree.compiler.dialects import arith, func

from ldsopt import dtl, index_expr, mma
from ldsopt.layout import Composed, Layout, Padded, RotatingSwizzle, RowXor
from ldsopt.staging import StagingLayout

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
    yield StagingLayout(tile=(16, 64), vector=4, threads=64, pad=4, **base)
    yield StagingLayout(tile=(16, 64), vector=4, threads=64, pad=0, lanes="rows", rake=4, row_xor=4, **base)
    yield StagingLayout(tile=(16, 64), vector=4, threads=32, pad=0, lane_rows=2, rake=2, **base)
    yield StagingLayout(tile=(16, 64), vector=4, threads=64, pad=0, swizzle=(4, 2, 4), **base)
    yield StagingLayout(tile=(12, 4), vector=4, threads=4, pad=0, **base)  # one column chunk


@pytest.mark.parametrize("s", list(_stagings()), ids=str)
def test_staging_chunk_coords(s):
    """Each chunk's tile coordinates as emitted, against the thread map (a CuTe Layout)."""
    e = Emitted(["c"], list(s.chunk_coords_expr(index_expr.var("c"))))
    for c in range(s.chunks):
        assert e(c) == s.chunk_coords(c) == divmod(s.thread_map(c), s.tile[1])


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
