"""Kernels that take a dispatch's one op row by row along one dim, a workgroup a row
(ldsopt-lower-scan, ldsopt-lower-sort): the matched dispatch (`RowDispatch`), the kernel's
threads and workgroups (`row_kernel`), and the grid-stride loop over rows (`each_row`), whose
body a pass writes with the row's index at hand."""

from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Iterator

from iree.compiler import ir
from iree.compiler.dialects import gpu, scf

from ldsopt.codegen.dispatch import Graph
from ldsopt.codegen.kernel import Kernel


@dataclasses.dataclass
class RowDispatch:
    """A dispatch of one op (`graph.ops[0]`) taken along dim `dim`."""

    graph: Graph
    dim: int

    @property
    def func(self) -> ir.Operation:
        return self.graph.func

    @property
    def location(self) -> ir.Location:
        return self.graph.location

    @property
    def op(self) -> ir.Operation:
        return self.graph.ops[0]


@dataclasses.dataclass
class Row:
    """The row a workgroup holds: `at` its index among the rows (the other dims' indices)."""

    at: list[ir.Value]
    dim: int

    def index(self, j: ir.Value) -> list[ir.Value]:
        """The full index of the row's element `j`."""
        return self.at[:self.dim] + [j] + self.at[self.dim:]


def rows(shape: list[int], dim: int) -> int:
    return math.prod(n for i, n in enumerate(shape) if i != dim)


def power_of_two_at_least(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def row_kernel(pass_, d: RowDispatch, shape: list[int], tgt, wanted: int) -> tuple[Kernel, int, int]:
    """(kernel, threads, workgroups) for `d`: `wanted` threads a row (a power of two) within the
    largest power of two of `pass_`'s workgroup size, a workgroup a row within its grid limit."""
    threads = max(1, min(1 << (pass_.workgroup_size.bit_length() - 1), wanted))
    workgroups = pass_.workgroups(rows(shape, d.dim), tgt, threads=1)
    return Kernel(d.graph, tgt, (threads, 1, 1), (workgroups, 1, 1)), threads, workgroups


@contextlib.contextmanager
def each_row(k: Kernel, shape: list[int], dim: int, workgroups: int) -> Iterator[Row]:
    """The grid-stride loop of workgroup rows: yields the Row whose body is being written; after
    it, a barrier (the row's LDS is read before the next row writes it) and the loop's end."""
    others = [n for i, n in enumerate(shape) if i != dim]
    loop = scf.ForOp(k.block_id(), k.const(math.prod(others)), k.const(workgroups))
    with ir.InsertionPoint(loop.body):
        yield Row(k.delinearize(loop.induction_variable, others) if others else [], dim)
        gpu.barrier()
        scf.yield_([])
