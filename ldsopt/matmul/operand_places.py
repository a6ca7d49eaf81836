"""Where a matmul kernel's elements are in their tensors (`OperandPlaces`, a part of
emit.py's Emitter): an operand's indices at a matrix index (its batch dims inserted, or a
convolution's tensor indices gathered by its implicit GEMM view, implicit_gemm.py), the
padded dims a copy guards, and the output's indices in the contraction's loops."""

from __future__ import annotations

from iree.compiler import ir

from ldsopt.codegen.kernel import global_alignment
from ldsopt.layout import index_expr


class OperandPlaces:
    """Needs the Emitter's `p` (MatmulProblem), `k` (Kernel), `batch` and `mem`."""

    def operand_index(self, role: str, idx: list[ir.Value]) -> list[ir.Value]:
        """The indices into operand `role` of its element at matrix index `idx` (its two
        matrix dims, in its memory order): the batch dims' indices inserted, or a
        convolution's tensor indices gathered by its implicit GEMM view."""
        view = self.p.view
        if view is None:
            return self.p.operand_index(role, self.batch, idx)
        names = [f"x{i}" for i in range(len(idx))]
        batch = [f"b{i}" for i in range(len(self.batch))]
        exprs = view.indices(role, [index_expr.var(x) for x in names], [index_expr.var(b) for b in batch])
        return self.k.index(exprs, **dict(zip(names, idx)), **dict(zip(batch, self.batch)))

    def operand_bounds(self, role: str, idx: list[ir.Value], n: int = 1) -> list[tuple[ir.Value, int]]:
        """(index, extent) of each padded dim among operand `role`'s indices `idx`
        (`operand_index`'s), as `inside` takes them: the element is in the image where all are
        below their extents, else a border zero (implicit_gemm.py's `Padded`); [] unpadded. For
        a vector of n > 1, not the dim it may straddle (`straddle`)."""
        edge = self.straddle(role, n)
        return [(idx[d], e) for d, e in self.padded_dims(role) if (d, e) != edge]

    def straddle(self, role: str, n: int) -> tuple[int, int] | None:
        """(dim, extent) of the padded dim a vector of n elements of operand `role` runs along
        and may straddle the border of (GemmView.straddles), where n > 1; else None."""
        view = self.p.view
        return view.straddles(role) if view is not None and n > 1 else None

    def padded_dims(self, role: str) -> tuple[tuple[int, int], ...]:
        """(dim, extent) of each padded dim of operand `role`'s tensor (GemmView.padded)."""
        view = self.p.view
        return view.padded.get(role, ()) if view is not None else ()

    def gathered_alignment(self, role: str, n: int) -> int:
        """Bytes of alignment to state on a read of n elements of a convolution's operand (0:
        none; not a convolution, SPIR-V, or a vector that may start off a multiple of n of its
        tensor's last dim): LLVM cannot see it through the gather's divisions, and CUDA split
        such a read of 8 f16 into eight 2-byte loads."""
        view = self.p.view
        if view is None or n == 1 or not view.aligned_vectors(role, n):
            return 0
        return global_alignment(self.mem[role], n, self.k.target.backend)

    def output_index(self, m: ir.Value, n: ir.Value) -> list[ir.Value]:
        """The indices of the output element at (m, n) in the contraction's loops (b?, m, n):
        a convolution's at its own output dims (those its fused consumer reads by)."""
        view = self.p.view
        if view is None:
            return self.batch + [m, n]
        batch = [f"b{i}" for i in range(len(self.batch))]
        exprs = view.output_loops(index_expr.var("m"), index_expr.var("n"), [index_expr.var(b) for b in batch])
        return self.k.index(exprs, m=m, n=n, **dict(zip(batch, self.batch)))

    def output_groups(self) -> list[str]:
        """Per index of `output_index`, the matrix dim it moves with: "b", "m" or "n"."""
        view = self.p.view
        return view.output_groups() if view else ["b"] * len(self.batch) + ["m", "n"]
