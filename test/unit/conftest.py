"""Fixtures shared by the unit tests."""

import numpy as np
import pytest
from iree.compiler import ir
from iree.compiler.dialects import arith, func

from ldsopt.layout import index_expr

from ldsopt.matmul import planner


@pytest.fixture
def matmul_problem():
    """Builds a match.MatmulProblem over fake bindings (planner.shaped_problem):
    `matmul_problem(dims_a, dims_b, dtype, m, n, k)`, dims in memory order. Needs a context."""

    def build(dims_a, dims_b, dtype, m, n, k):
        return planner.shaped_problem(dims_a, dims_b, ir.Type.parse(dtype), m, n, k)

    return build


# The interpreter: unsigned index arithmetic on Python ints or numpy arrays of them (every point
# at once), independent of index_expr's own integer face.
_ARITH = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
    "arith.divui": lambda a, b: a // b, "arith.remui": lambda a, b: a % b, "arith.shrui": lambda a, b: a >> b,
    "arith.andi": lambda a, b: a & b, "arith.xori": lambda a, b: a ^ b, "arith.minui": np.minimum,
}


class Emitted:
    """`exprs` emitted into a function whose arguments are the variables `names` (the IR face
    of a map), callable on ints or numpy arrays of them by interpreting its ops."""

    _context = None  # one for all: a context's start costs more than most maps' emission

    def __init__(self, names, exprs):
        if Emitted._context is None:
            Emitted._context = ir.Context()
        with Emitted._context, ir.Location.unknown():
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
                assert np.all((0 <= val[op.result]) & (val[op.result] < 1 << 31)), (op, a, b)  # never wraps


@pytest.fixture
def emitted():
    """`Emitted`: index expressions emitted as IR, and that IR interpreted."""
    return Emitted
