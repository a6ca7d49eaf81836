"""The matrix-core scheme's product and output store (schemes.MmaScheme): each wave's RM x RN
intrinsic tiles (amdgpu.mfma, nvgpu.mma.sync), their fragments read from LDS in the
intrinsic's lane layouts (ldsopt/layout/mma.py): whole registers by a matrix load (`nvgpu.ldmatrix`,
CUDA) where the intrinsic has one and K is in its natural order, else in runs of elements."""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import arith, vector

from ldsopt.layout import index_expr
from ldsopt.layout import mma
from ldsopt.matmul.emit import Emitter
from ldsopt.matmul.planner import pow2_dividing
from ldsopt.matmul.schemes import row_runs


# `math` ops a GPU does in one instruction (or a modifier): no reason to overlap a consumer.
_ONE_INSTRUCTION_MATH = frozenset({"math.absf", "math.fma", "math.copysign", "math.ceil", "math.floor",
                                   "math.roundeven", "math.trunc"})


class MmaEmitter(Emitter):
    """Matrix-core intrinsics (amdgpu.mfma, nvgpu.mma.sync) on fragments in their operand
    layouts, read from LDS in the longest runs the staging order allows."""

    def thread_origins(self) -> None:
        k, sch = self.k, self.pl.scheme
        sg = sch.intrinsic.subgroup
        self.lane = arith.remui(self.tid, k.const(sg))
        wy, wx = k.delinearize(arith.divui(self.tid, k.const(sg)), list(sch.waves))
        wgm, wgn = sch.waves
        self.frag_origin = {"A": arith.muli(wy, k.const(self.pl.tiling.bm // wgm)),
                            "B": arith.muli(wx, k.const(self.pl.tiling.bn // wgn))}

    def _lane_offset(self, lane_map: mma.LaneMap) -> ir.Value:
        lane = index_expr.var("lane")
        return self.k.index([lane_map.expr(lane, self.pl.scheme.intrinsic.subgroup)], lane=self.lane)[0]

    def acc_init(self, value: ir.Value) -> list[ir.Value]:
        rm, rn = self.pl.scheme.reps
        return [vector.broadcast(self.pl.scheme.intrinsic.c.register_type(self.acc_type), value)] * (rm * rn)

    def k_group(self) -> int:
        """The intrinsic's K times the K steps of one fragment read group (`k_pack`, the same
        for both operands)."""
        return self.pl.scheme.k_step * max(self.pl.staging["A"].k_pack, 1)

    def multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value],
                 fragments: list[ir.Value] | None = None) -> list[ir.Value]:
        sch = self.pl.scheme
        rm, rn = sch.reps
        if fragments is not None:  # the group's, read ahead by `carried_fragments`
            b, a_all = self._unflatten(fragments)
        else:
            # B's fragments (2 registers a step for mma.sync, 4 MFMA) stay in registers while A's
            # (4) are read one repetition at a time: with two K steps a read group, all of both
            # took more than the 128 registers of 2 workgroups per SM on CUDA (ncu: 12.7 M spill
            # requests on NT f16 4096^3).
            b, a_all = self._b_fragments(buf, kk), None
        acc = list(acc)
        for r in range(rm):
            a = a_all[r] if a_all is not None else self._fragments("A", buf, kk, r * sch.intrinsic.m)
            for st, a_st in enumerate(a):
                for c in range(rn):
                    acc[r * rn + c] = sch.intrinsic.emit(a_st, b[c][st], acc[r * rn + c])
        return acc

    def carried_fragments(self, buf: ir.Value) -> list[ir.Value]:
        """With `carry_fragments`: every fragment of the first read group of LDS tile `buf`, B's
        then A's (`multiply` takes them back), read right after the barrier that publishes
        the tile so that the step's first products need not wait for LDS: register double
        buffering across K steps, for grids of few warps an SM (one a scheduler at 4 warps,
        where nothing else hides the read's latency)."""
        if not self.carry_fragments:
            return []
        sch = self.pl.scheme
        b = self._b_fragments(buf, 0)
        a = [self._fragments("A", buf, 0, r * sch.intrinsic.m) for r in range(sch.reps[0])]
        return [v for frag in b + a for v in frag]

    def _unflatten(self, flat: list[ir.Value]) -> tuple[list[list[ir.Value]], list[list[ir.Value]]]:
        """`carried_fragments`' list as (B's per N repetition, A's per M repetition), each per K step."""
        rm, rn = self.pl.scheme.reps
        steps = len(flat) // (rm + rn)
        groups = [flat[i:i + steps] for i in range(0, len(flat), steps)]
        return groups[:rn], groups[rn:]

    def _b_fragments(self, buf: ir.Value, kk: int) -> list[list[ir.Value]]:
        """B's fragments of the wave's N repetitions for the read group at `kk`: two repetitions
        an ldmatrix.x4 where the scheme pairs them (`MmaScheme.paired_b_load`), else each by
        `_fragments`."""
        sch = self.pl.scheme
        n, rn = sch.intrinsic.n, sch.reps[1]
        pair = sch.paired_b_load(self.pl.staging["B"].k_pack)
        if pair is None:
            return [self._fragments("B", buf, kk, c * n) for c in range(rn)]
        one = sch.layout("B").register_type(self.p.elem_type)
        shape = ir.VectorType(one).shape
        out = []
        for c in range(0, rn, 2):
            both = self._matrix_load("B", buf, kk, c * n, pair, ir.VectorType.get([2 * shape[0], *shape[1:]],
                                                                                self.p.elem_type))
            out += [[vector.extract_strided_slice(one, both, [i * shape[0], 0], shape, [1, 1])] for i in range(2)]
        return out

    def overlaps_epilogue(self) -> bool:
        """With a consumer of transcendental math (GELU's erf, SiLU's exp: a `math` op that is
        not one instruction): its math on one accumulator is independent of the other
        accumulators' products, so the last K step goes by accumulator, each consumed while
        the next one's products run (it would otherwise run alone after the loop). A consumer
        of a few adds gains nothing from it and pays the step's second read of B."""
        return self.p.epilogue is not None and any(
            op.operation.name.startswith("math.") and op.operation.name not in _ONE_INSTRUCTION_MATH
            for op in self.p.epilogue.op.regions[0].blocks[0].operations)

    def last_step_storing(self, acc: list[ir.Value]) -> None:
        sch, k = self.pl.scheme, self.k
        rm, rn = sch.reps
        buf = k.const((self.n_steps - 1) % self.pl.stages)
        groups = range(0, self.pl.bk, self.k_group())
        offsets = self.writer.offsets()
        acc = list(acc)
        done = None  # the accumulator whose products were emitted last, consumed after the next's
        for r in range(rm):
            # A's fragments of the step, read once; B's read again for each repetition of A (this
            # step only), which keeps the registers of one accumulator's products.
            a = [self._fragments("A", buf, kk, r * sch.intrinsic.m) for kk in groups]
            for c in range(rn):
                i = r * rn + c
                for kk, a_group in zip(groups, a):
                    b = self._fragments("B", buf, kk, c * sch.intrinsic.n)
                    for a_st, b_st in zip(a_group, b):
                        acc[i] = sch.intrinsic.emit(a_st, b_st, acc[i])
                if done is not None:
                    self.writer.store_accumulator(done, acc[done], offsets)
                done = i
        self.writer.store_accumulator(done, acc[done], offsets)
        self.writer.finish()

    def _fragments(self, role: str, buf: ir.Value, kk: int, x_off: int) -> list[ir.Value]:
        """This lane's registers of the intrinsic tiles at M/N offset `x_off` (from the wave's
        origin) for the K steps of the read group at `kk` (k_pack of them, else one), read from
        LDS in the runs of consecutive columns (`row_runs`) and assembled in the intrinsic's
        register layout; packed, K slot j of the group is K index kk + k_order(j)."""
        s, sch, k = self.pl.staging[role], self.pl.scheme, self.k
        load = sch.matrix_load(role, s.k_pack)
        if load:
            return [self._matrix_load(role, buf, kk, x_off, load)]
        first, second = sch.lane_maps(role, s.k_pack)
        x = arith.addi(self.offset(self.frag_origin[role], x_off), self._lane_offset(first))
        kv = arith.addi(k.const(kk), self._lane_offset(second))
        row, col = (x, kv) if s.k_contiguous else (kv, x)
        steps = sch.element_coords(role, s.k_contiguous, s.k_pack)
        where = {}
        for r, c, n in row_runs([e for st in steps for e in st]):
            piece = self.lds_read(role, buf, self.offset(row, r), self.offset(col, c), n)
            where.update({(r, c + i): (piece, i) for i in range(n)})
        return [self._register(sch.layout(role), [where[e] for e in st]) for st in steps]

    def _matrix_load(self, role: str, buf: ir.Value, kk: int, x_off: int, load: mma.MatrixLoad,
                     result: ir.Type | None = None) -> ir.Value:
        """This lane's register of the intrinsic tile at M/N offset `x_off` and K step `kk`, read
        whole by one `nvgpu.ldmatrix` (transposed where the LDS rows run along K); `result`:
        the registers of a load of several tiles (`_b_fragments`)."""
        s, k = self.pl.staging[role], self.k
        lane = index_expr.var("lane")
        lanes = self.pl.scheme.intrinsic.subgroup
        f, kv, r = k.index([m.expr(lane, lanes) for m in (load.first, load.second, load.ROW)], lane=self.lane)
        x = arith.addi(self.offset(self.frag_origin[role], x_off), f)
        kv = self.offset(kv, kk)
        row, col = (arith.addi(x, r), kv) if s.k_contiguous else (arith.addi(kv, r), x)
        return load.emit(result or self.pl.scheme.layout(role).register_type(self.p.elem_type), self.lds[role],
                         self.lds_indices(role, buf, row, col), not s.k_contiguous)

    def _register(self, lay: mma.OperandLayout, parts: list[tuple[ir.Value, int]]) -> ir.Value:
        """The register value of `lay` whose elements are `parts` (read piece, index in it)."""
        piece, first = parts[0]
        if not lay.shape:
            return vector.extract(piece, [], [first])
        one_run = all(p is piece and i == first + e for e, (p, i) in enumerate(parts))
        if one_run and ir.VectorType(piece.type).shape[0] == len(parts):  # the whole read
            flat = piece
        elif one_run:  # a slice of one read
            flat = vector.extract_strided_slice(ir.VectorType.get([lay.elems], self.p.elem_type), piece,
                                                [first], [lay.elems], [1])
        else:
            flat = vector.from_elements(ir.VectorType.get([lay.elems], self.p.elem_type),
                                        [vector.extract(p, [], [i]) for p, i in parts])
        return flat if len(lay.shape) == 1 else vector.shape_cast(lay.register_type(self.p.elem_type), flat)

    def output_origin(self) -> tuple[ir.Value, ir.Value]:
        c = self.pl.scheme.intrinsic.c
        m0, n0 = super().output_origin()
        return arith.addi(m0, self._lane_offset(c.first)), arith.addi(n0, self._lane_offset(c.second))

    def output_local(self) -> tuple[ir.Value, ir.Value]:
        c = self.pl.scheme.intrinsic.c
        m0, n0 = super().output_local()
        return arith.addi(m0, self._lane_offset(c.first)), arith.addi(n0, self._lane_offset(c.second))

    def lane_output(self, lane: int) -> tuple[int, int]:
        c = self.pl.scheme.intrinsic.c
        return c.first(lane), c.second(lane)

    def flat(self, acc: ir.Value) -> ir.Value:
        c = self.pl.scheme.intrinsic.c
        return acc if len(c.shape) == 1 else vector.shape_cast(ir.VectorType.get([c.elems], self.acc_type), acc)

    def output_pieces(self) -> list[tuple[int, int, int, int, int]]:
        """Each intrinsic tile's C elements in runs along N, as long as the runs and N allow."""
        sch = self.pl.scheme
        c = sch.intrinsic.c
        rm, rn = sch.reps
        coords = list(zip(c.d_first, c.d_second))
        pieces = []
        for r in range(rm):
            for q in range(rn):
                for e, n in mma.runs(coords):
                    width = pow2_dividing(math.gcd(n, self.p.out_run), n)
                    for j in range(e, e + n, width):
                        dm, dn = coords[j]
                        pieces.append((r * rn + q, j, width, r * sch.intrinsic.m + dm, q * sch.intrinsic.n + dn))
        return pieces
