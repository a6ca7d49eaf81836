"""The FMA scheme's product and output store (schemes.FmaScheme): thread (ty, tx) accumulates
its TM x TN micro-tile in accumulator vectors of TN (f32; i32 for i8 inputs, which are
sign-extended and multiplied and added exactly: `arith.extsi`, `arith.muli`, `arith.addi`),
from fragments read along the LDS rows."""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith, vector

from ldsopt.matmul.emit import Emitter
from ldsopt.matmul.planner import pow2_dividing


class FmaEmitter(Emitter):
    """FMA on accumulator vectors of TN: correct on every target, vectors of at most 4 on SPIR-V."""

    def thread_origins(self) -> None:
        k, t = self.k, self.pl.tiling
        ty, tx = k.delinearize(self.tid, [t.bm // t.tm, t.bn // t.tn])
        self.frag_origin = {"A": arith.muli(ty, k.const(t.tm)), "B": arith.muli(tx, k.const(t.tn))}

    def lane_output(self, lane: int) -> tuple[int, int]:
        t = self.pl.tiling
        ty, tx = divmod(lane, t.bn // t.tn)  # `thread_origins`' delinearization
        return ty * t.tm, tx * t.tn

    def acc_init(self, value: ir.Value) -> list[ir.Value]:
        t = self.pl.tiling
        return [vector.broadcast(ir.VectorType.get([t.tn], self.acc_type), value)] * t.tm

    def multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value],
                 fragments: list[ir.Value] | None = None) -> list[ir.Value]:
        assert fragments is None  # FMA kernels carry none (`carried_fragments`)
        t = self.pl.tiling
        a, b = self._fragment_reads("A", buf, kk), self._fragment_reads("B", buf, kk)
        acc = list(acc)
        for u in range(t.ku):
            b_u = self._fragment_vector("B", b, u)
            for i in range(t.tm):
                a_iu = vector.broadcast(b_u.type, self._fragment_elem("A", a, i, u))
                acc[i] = self._fma(a_iu, b_u, acc[i])
        return acc

    def _fma(self, a: ir.Value, b: ir.Value, c: ir.Value) -> ir.Value:
        """a * b + c: one `vector.fma` in f32; `arith.muli` then `arith.addi` in i32 (exact)."""
        if isinstance(self.acc_type, ir.IntegerType):
            return arith.addi(arith.muli(a, b), c)
        return vector.fma(a, b, c)

    def _fragment_reads(self, role: str, buf: ir.Value, kk: int) -> list[ir.Value]:
        """This thread's fragment for the K sub-step at `kk`, as vectors of the accumulator's
        type read along the LDS rows: one per M/N element when the rows run along K, else one
        per K element."""
        s, k = self.pl.staging[role], self.k
        x0 = self.frag_origin[role]
        reads = self.pl.scheme.reads(role, s.k_contiguous, 0)  # static offsets: lane 0's origin is 0
        return [self._to_acc(self.lds_read(role, buf, self.offset(x0, row) if s.k_contiguous else k.const(kk + row),
                                            k.const(kk + col) if s.k_contiguous else self.offset(x0, col), n))
                for row, col, n in reads]

    def _fragment_elem(self, role: str, reads: list[ir.Value], x: int, u: int) -> ir.Value:
        """Element (M/N offset x, K offset u) of a fragment read by `_fragment_reads`."""
        if self.pl.staging[role].k_contiguous:
            return vector.extract(reads[x], [], [u])
        return vector.extract(reads[u], [], [x])

    def _fragment_vector(self, role: str, reads: list[ir.Value], u: int) -> ir.Value:
        """The fragment's vector along M/N at K offset u."""
        if not self.pl.staging[role].k_contiguous:
            return reads[u]
        n = self.pl.scheme.extent(role)
        return vector.from_elements(ir.VectorType.get([n], self.acc_type),
                                    [self._fragment_elem(role, reads, x, u) for x in range(n)])

    def _to_acc(self, v: ir.Value) -> ir.Value:
        """`v` in the accumulator's type: f16/bf16 extended to f32, i8 sign-extended to i32."""
        vtype = ir.VectorType(v.type)
        if vtype.element_type == self.acc_type:
            return v
        wide = ir.VectorType.get(vtype.shape, self.acc_type)
        return arith.extsi(wide, v) if isinstance(self.acc_type, ir.IntegerType) else arith.extf(wide, v)

    def output_pieces(self) -> list[tuple[int, int, int, int, int]]:
        """Each accumulator row (row i of the micro-tile) in the widest vectors that divide N
        (`MatmulProblem.out_run`)."""
        p, t = self.p, self.pl.tiling
        width = pow2_dividing(math.gcd(t.tn, p.out_run), t.tn)
        return [(i, q, width, i, q) for i in range(t.tm) for q in range(0, t.tn, width)]
