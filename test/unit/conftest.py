"""Fixtures shared by the unit tests."""

import pytest
from iree.compiler import ir

from ldsopt.codegen.dispatch import Binding
from ldsopt.matmul import match


@pytest.fixture
def matmul_problem():
    """Builds a match.MatmulProblem over fake bindings (planning reads only shapes and types):
    `matmul_problem(dims_a, dims_b, dtype, m, n, k)`, dims in memory order. Needs a context."""

    def build(dims_a, dims_b, dtype, m, n, k):
        sizes = {"b": 1, "m": m, "n": n, "k": k}
        elem = ir.Type.parse(dtype)

        def binding(dims):
            return Binding(ir.RankedTensorType.get([sizes[d] for d in dims], elem), None)

        out = Binding(ir.RankedTensorType.get([m, n], ir.F32Type.get()), None)
        return match.MatmulProblem(sizes, {"A": binding(dims_a), "B": binding(dims_b)},
                                   {"A": dims_a, "B": dims_b}, False, 0.0, out)

    return build
