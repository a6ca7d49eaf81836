"""The kernel of a row-wise fused dispatch (`FusedRowKernel`; ldsopt-vector-distribute's module
docstring, *Fused rows*): passes of reductions over each row, the row kept in registers, LDS or
global memory between sweeps, arg-best reductions in three phases, and the last sweep's stores."""

from __future__ import annotations

import functools
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Binding
from ldsopt.codegen import gather
from ldsopt.codegen.elementwise import clone_body
from ldsopt.codegen.kernel import lds_alloc, read_vector, write_vector
from ldsopt.ir_types import element_bits
from ldsopt.reduction import arg_best, fused_rows
from ldsopt.reduction.emit import Combiner, DistributedKernel
from ldsopt.reduction.plan import ReductionPlan


_I32_MAX = (1 << 31) - 1


def row_partials(rows: fused_rows.RowGraph, level: int) -> list[tuple[object, Combiner]]:
    """(key, combiner) of each value that pass `level` reduces over the row: each result of
    its reductions (keyed by the result), then each arg-best reduction's phase (keyed by
    (its first result, phase)): arg_best.NAN, the first NaN's index (minsi of i32, none:
    INT32_MAX); BEST, the best value before it (of the non-NaN values where NaN are ignored);
    FIRST, the first index among those holding that value (minsi)."""
    out = [(n.op.results[j], Combiner.of(n.combines[j])) for n, j in rows.reduction_results(level)]
    for n, phase in rows.arg_bests(level):
        comb = Combiner(n.arg_best.kind, _value_type(n)) if phase == arg_best.BEST else \
            Combiner("arith.minsi", ir.IntegerType.get_signless(32))
        out.append(((n.op.results[0], phase), comb))
    return out


def _value_type(n: fused_rows.Node) -> ir.Type:
    """The element type of an arg-best reduction's value result."""
    return ir.RankedTensorType(n.op.results[n.arg_best.value_result].type).element_type


class _Chunk:
    """One reduction chunk of the row: its coordinates and the vectors known there (loaded
    operands by (tensor, dims), generic results by value)."""

    def __init__(self, coords: list[ir.Value]):
        self.coords = coords
        self.values: dict = {}


class FusedRowKernel(DistributedKernel):
    """Emits the kernel of a row-wise fused dispatch (ldsopt-vector-distribute's *Fused rows*)."""

    def __init__(self, rows: fused_rows.RowGraph, plan: ReductionPlan, tgt: target_model.Target, lds_pads: list[int],
                 row: str, reciprocal: bool, pass_name: str, extents: dict[int, ir.Value] | None = None):
        super().__init__(rows.graph, plan, tgt, pass_name, extents)
        self.rows, self.lds_pads, self.row_place = rows, lds_pads, row
        self.divisors = [(n, i) for n in rows.nodes for i in n.row_divisors] if reciprocal else []

    SETUP = DistributedKernel.SETUP + ("bufs", "outs", "inits", "staged")

    def _setup(self) -> None:
        plan, g = self.plan, self.rows.graph
        self.bufs = [(v, b.memref()) for v, b in g.loads]
        self.outs = [(v, b.memref()) for v, b in g.stores]
        self.inits = {}
        for n in self.rows.nodes:
            for r, init in zip(n.op.results, n.inits):
                self.inits[r] = init.memref() if isinstance(init, Binding) else init
        self._threads()
        self.lds = {}
        if plan.subgroups_r > 1:
            parts = [p for level in range(self.rows.passes) for p in row_partials(self.rows, level)]
            for i, ((key, comb), pad) in enumerate(zip(parts, self.lds_pads)):
                reads = self._column_conflicts(comb.acc_type) if plan.threads_p > 1 else None
                self.lds[key] = self._lds_partials(comb.acc_type, pad, f"partials{i}", reads)
        # row == "lds": each staged operand's row, laid out as the chunks (the vectors of a
        # chunk contiguous); a thread reads back only what it wrote, so no barrier.
        self.staged = {}
        if self.row_place == "lds":
            for o in self.rows.staged_operands():
                etype = ir.RankedTensorType(o.value.type).element_type
                self.staged[o.value] = lds_alloc([plan.problem.n_reduced], etype)

    def _buffer(self, value: ir.Value, pairs) -> ir.Value:
        return next(buf for v, buf in pairs if v == value)

    def _tile(self, tile: ir.Value) -> None:
        """One row: the reduction passes, each followed by the exchange of its partials and
        the row maps it makes computable, then the pass that stores the full results."""
        rows, plan = self.rows, self.plan
        # A tile is threads_p consecutive rows, the thread's the p-th (one row where every
        # thread is on it).
        row = tile if plan.threads_p == 1 else self._linear((tile, plan.threads_p), (self.p, 1))
        self.out_coords = self.k.delinearize(row, self.out_sizes) if self.out_sizes else []
        self.row: dict = {}  # row values (scalars) by tensor, and loaded row operands by (tensor, dims)
        for o in rows.row_operands():
            index = [self.out_coords[d] for d in o.dims]
            self.row[(o.value, o.dims)] = memref.load(self._buffer(o.value, self.bufs), index)
        # Per map that reads tables, its tables' elements read once per row (the indices of its
        # row reads, or of other such reads) and their addresses: its body values' scalars.
        self.gathered = {n.op: self._hoist(n, dict(enumerate(self.out_coords)),
                                           [x.results[0] for x in n.reads.uniform if x.name == gather.EXTRACT])
                         for n in rows.gathering()}
        self._row_maps(0)
        chunks = valid = None
        if self.row_place == "registers":
            # Every chunk of the thread loaded once, up front, kept for every pass.
            fewest, most = plan.chunks_per_thread
            ids = [self._linear((self.r, 1), (self.k.const(i * plan.threads_r), 1)) for i in range(most)]
            guarded, ids[fewest:] = self._clamped(ids[fewest:])
            valid = [None] * fewest + (guarded or [None] * (most - fewest))
            chunks = [self._read(c, ok) for c, ok in zip(ids, valid)]
        for level in range(rows.passes):
            parts = row_partials(rows, level)
            accs = [comb.identity(ir.VectorType.get([plan.vector], comb.acc_type)) for _, comb in parts]
            body = functools.partial(self._reduce, level)
            read = functools.partial(self._read, sweep=level)
            accs = body(accs, chunks, valid) if chunks is not None else self._chunk_loop(accs, read, body)
            for (key, comb), total in zip(parts, self._exchange(parts, accs)):
                if isinstance(key, tuple):  # an arg-best phase
                    self.row[key] = total
                    continue
                init = self.inits[key]
                self.row[key] = comb(total, memref.load(init, self.out_coords) if isinstance(init.type, ir.MemRefType)
                                     else init)
            for n, phase in rows.arg_bests(level):
                if phase == arg_best.FIRST:
                    self._arg_best_results(n)
            self._row_maps(level + 1)
        if rows.full_stores:
            if chunks is not None:
                self._store(chunks, valid)
            else:
                def store(accs: list[ir.Value], reads: list[_Chunk], flags) -> list[ir.Value]:
                    self._store(reads, flags)
                    return accs

                self._chunk_loop([], functools.partial(self._read, sweep=rows.passes), store)
        if rows.row_stores:
            with self._only_if(self._is_zero(self.r)):
                for value, _ in rows.row_stores:
                    memref.store(self.row[value], self._buffer(value, self.outs), self.out_coords)

    def _read(self, chunk: ir.Value, valid: ir.Value | None, sweep: int = 0) -> _Chunk:
        """The chunk with every loaded operand read along the row loaded (a loaded operand
        without the innermost dim is one element, broadcast), and every table's row read. With the row in LDS, the
        first sweep also writes the staged operands there where the chunk exists (`valid`:
        a leftover clamped to the last chunk is another thread's, and the next row's first
        sweep may come while that thread still reads this row's), and later sweeps read
        them back (a clamped chunk's values are dropped)."""
        c = _Chunk(self._chunk_coords(chunk, self.out_coords))
        v = self.plan.vector
        last = len(self.rows.shape) - 1
        slot = [self._linear((chunk, self.plan.vec_r))] if self.staged else []
        for o in self.rows.chunk_operands():
            etype = ir.RankedTensorType(o.value.type).element_type
            vtype = ir.VectorType.get([v], etype)
            if o.value in self.staged and sweep > 0:
                c.values[(o.value, o.dims)] = read_vector(vtype, self.staged[o.value], slot)
                continue
            buf = self._buffer(o.value, self.bufs)
            index = [c.coords[d] for d in o.dims]
            if last in o.dims:
                c.values[(o.value, o.dims)] = read_vector(vtype, buf, index, self._align(vtype))
            else:
                c.values[(o.value, o.dims)] = vector.broadcast(vtype, memref.load(buf, index))
            if o.value in self.staged:
                with self._only_if(valid):
                    write_vector(c.values[(o.value, o.dims)], self.staged[o.value], slot)
        for n in self.rows.gathering():
            self._read_rows(c, n)
        return c

    def _operand(self, c: _Chunk, o: fused_rows.Operand) -> ir.Value:
        """The vector of operand `o` at chunk `c`."""
        if (o.value, o.dims) in c.values:
            return c.values[(o.value, o.dims)]
        scalar = self._row_value(o)
        if scalar is not None:
            return vector.broadcast(ir.VectorType.get([self.plan.vector], scalar.type), scalar)
        return self._full(c, o.value)

    def _row_value(self, o: fused_rows.Operand) -> ir.Value | None:
        """The scalar of a row operand: loaded (by tensor and dims) or computed (by value)."""
        return self.row.get((o.value, o.dims), self.row.get(o.value))

    def _reciprocals(self, node: fused_rows.Node) -> dict:
        """For clone_body: each row divisor of `node` (its block argument) -> its reciprocal,
        broadcast."""
        args = node.op.regions[0].blocks[0].arguments
        out = {}
        for i in node.row_divisors:
            r = self.row.get(("reciprocal", node.operands[i].value, node.operands[i].dims))
            if r is not None:
                out[args[i]] = vector.broadcast(ir.VectorType.get([self.plan.vector], r.type), r)
        return out

    def _full(self, c: _Chunk, value: ir.Value) -> ir.Value:
        """The vector of full tensor `value` (a map's result) at chunk `c`, computed once."""
        if value not in c.values:
            node = self.rows.producer(value)
            args = [self._operand(c, o) for o in node.operands]
            mapping = {}
            if node.reads is not None:  # the tables' rows read with the chunk; the address ops not cloned
                mapping.update((x.results[0], c.values[x]) for x in node.reads.rows)
                mapping.update((r, None) for x in gather.addresses(node.reads, node.op) for r in x.results)
            self._map_positions(c, node, mapping)
            for r, x in zip(node.op.results, clone_body(node.op, args, self.plan.vector, mapping,
                                                        reciprocals=self._reciprocals(node))):
                c.values[r] = x
        return c.values[value]

    def _hoist(self, n: fused_rows.Node, positions: dict[int, ir.Value], needed: list[ir.Value],
               known: dict | None = None) -> dict:
        """gather.hoist of the ops of map `n`'s body that compute `needed` (body values computed
        once per row), on the row's operands, at `positions` (the parallel dims'); `known`: its
        body values computed before."""
        args = [self._row_value(o) if all(d < self.rows.k for d in o.dims) else None for o in n.operands]
        load = lambda x, at: memref.load(self._buffer(x.operands[0], self.bufs), at)  # noqa: E731
        return gather.hoist(n.reads, n.op, args, positions, load, needed, known)

    def _read_rows(self, c: _Chunk, n: fused_rows.Node) -> None:
        """Chunk `c`'s vector of each table row that map `n`'s body reads (into `c.values`, by
        extract): at its indices computed once per row (those not computed per row, with the
        chunk), along the table's row from the chunk's position in it."""
        scalars, positions = self.gathered[n.op], dict(enumerate(c.coords[:self.rows.k]))
        for x in n.reads.rows:
            index = n.reads.row_index(x)
            scalars = self._hoist(n, positions, index, scalars)
            vtype = ir.VectorType.get([self.plan.vector], ir.RankedTensorType(x.operands[0].type).element_type)
            c.values[x] = read_vector(vtype, self._buffer(x.operands[0], self.bufs),
                                      [scalars.get(i, i) for i in index] + [c.coords[-1]])

    def _reduce(self, level: int, accs: list[ir.Value], chunks: list[_Chunk], valid) -> list[ir.Value]:
        """`accs` (one per partial of pass `level`, _row_partials' order) with each chunk
        folded in."""
        nodes, bests = self.rows.reductions(level), self.rows.arg_bests(level)
        for i, c in enumerate(chunks):
            new, pos = [], 0
            for n in nodes:
                m = len(n.op.results)
                args = [self._operand(c, o) for o in n.operands] + accs[pos:pos + m]
                new += clone_body(n.op, args, self.plan.vector, self._map_positions(c, n, {}),
                                  reciprocals=self._reciprocals(n))
                pos += m
            for (n, phase), acc in zip(bests, accs[pos:]):
                new.append(self._arg_best_step(c, n, phase, acc))
            accs = [self._select_valid(valid[i] if valid else None, x, a) for x, a in zip(new, accs)]
        return accs

    def _indices(self, c: _Chunk) -> ir.Value:
        """The row indices (i32) of chunk `c`'s elements."""
        return self._row_positions(c, ir.IntegerType.get_signless(32))

    def _row_positions(self, c: _Chunk, etype: ir.Type) -> ir.Value:
        """The positions along the row's innermost dim of chunk `c`'s elements, as a vector of
        `etype` (an integer type or index): the chunk's first position plus each lane's."""
        return gather.lane_positions(c.coords[-1], self.plan.vector, etype)

    def _map_positions(self, c: _Chunk | None, node: fused_rows.Node, mapping: dict) -> dict:
        """`mapping` (for clone_body) with each linalg.index of `node`'s body not in it mapped to
        the position of the element along its loop's dim of S: on chunk `c`'s vectors, each
        lane's along the innermost dim, the chunk's along another (broadcast); on a row's
        scalars (`c` None, a row map), the row's."""
        last = len(self.rows.shape) - 1
        for x in node.op.regions[0].blocks[0].operations:
            x = x.operation
            if x.name != "linalg.index" or x.results[0] in mapping:
                continue
            d = node.loops[ir.IntegerAttr(x.attributes["dim"]).value]
            if c is None:
                mapping[x.results[0]] = self.out_coords[d]
                continue
            key = ("position", d)
            if key not in c.values:
                c.values[key] = self._row_positions(c, ir.IndexType.get()) if d == last else \
                    vector.broadcast(ir.VectorType.get([self.plan.vector], ir.IndexType.get()), c.coords[d])
            mapping[x.results[0]] = c.values[key]
        return mapping

    def _compared(self, c: _Chunk, n: fused_rows.Node) -> ir.Value:
        """The vector of the values arg-best reduction `n` compares, at chunk `c`: its input's
        (arg_compare), or its body's value, the body cloned with its outputs as constants
        (their uses are dead)."""
        key = (n.op.results[0], "compared")
        if key not in c.values:
            v, best = self.plan.vector, n.arg_best
            if best.compared is None:
                c.values[key] = self._operand(c, n.operands[0])
                return c.values[key]
            index_type = ir.VectorType.get([v], ir.IndexType.get())
            mapping = self._map_positions(c, n, {best.index: arith.index_cast(index_type, self._indices(c))})
            vtype = ir.VectorType.get([v], _value_type(n))
            itype = ir.VectorType.get([v], n.op.results[best.index_result].type.element_type)
            outs = [Combiner(best.kind, _value_type(n)).identity(vtype),
                    arith.constant(itype, ir.DenseElementsAttr.get_splat(
                        itype, ir.IntegerAttr.get(itype.element_type, 0)))]
            if best.value_result:
                outs.reverse()
            clone_body(n.op, [self._operand(c, o) for o in n.operands] + outs, v, mapping)
            c.values[key] = mapping[best.compared]
        return c.values[key]

    def _arg_best_step(self, c: _Chunk, n: fused_rows.Node, phase: str, acc: ir.Value) -> ir.Value:
        """`acc` of arg-best phase `phase` (see row_partials) with chunk `c` folded in."""
        v, best = self.plan.vector, n.arg_best
        i32 = ir.IntegerType.get_signless(32)
        values, indices = self._compared(c, n), self._indices(c)
        none = arith.constant(ir.VectorType.get([v], i32), ir.DenseElementsAttr.get_splat(
            ir.VectorType.get([v], i32), ir.IntegerAttr.get(i32, _I32_MAX)))
        if phase == arg_best.NAN:
            nan = arith.cmpf(arith.CmpFPredicate.UNO, values, values)
            return arith.minsi(acc, arith.select(nan, indices, none))
        if best.nan == arg_best.IGNORE:  # the values that count: the numbers
            counted = arith.cmpf(arith.CmpFPredicate.ORD, values, values)
        else:  # those before the first NaN
            first_nan = vector.broadcast(indices.type, self.row[(n.op.results[0], arg_best.NAN)])
            counted = arith.cmpi(arith.CmpIPredicate.slt, indices, first_nan)
        if phase == arg_best.BEST:
            comb = Combiner(best.kind, _value_type(n))
            return comb(acc, arith.select(counted, values, comb.identity(values.type)))
        top = vector.broadcast(values.type, self.row[(n.op.results[0], arg_best.BEST)])
        holds = arith.andi(counted, arith.cmpf(arith.CmpFPredicate.OEQ, values, top))
        return arith.minsi(acc, arith.select(holds, indices, none))

    def _arg_best_results(self, n: fused_rows.Node) -> None:
        """The value and index results of arg-best reduction `n` from its phases and its
        initial values (v0, i0), as the sequential body leaves them. The row's best (`top`,
        before the first NaN, or of the numbers where NaN are ignored) and the first index
        holding it replace v0 and i0 where the best beats v0 (strictly; never where v0 is
        NaN). A NaN that came (and v0 not NaN) then makes the value NaN, and its index the
        index where a NaN is taken (TAKE). The value where nothing NaN is involved is
        best(v0, top) for a max / min body, else the select of the body."""
        best = n.arg_best
        r_value, r_index = n.op.results[best.value_result], n.op.results[best.index_result]
        key = n.op.results[0]
        top, first = self.row[(key, arg_best.BEST)], self.row[(key, arg_best.FIRST)]
        v0, i0 = (memref.load(self.inits[r], self.out_coords) if isinstance(self.inits[r].type, ir.MemRefType)
                  else self.inits[r] for r in (r_value, r_index))
        i32, itype = ir.IntegerType.get_signless(32), ir.IntegerType(i0.type)
        vt = _value_type(n)

        def beats() -> ir.Value:
            pred = arith.CmpFPredicate.OGT if best.kind == arg_best.MAX else arith.CmpFPredicate.OLT
            return arith.cmpf(pred, top, v0)

        value = Combiner(best.kind, vt)(v0, top) if best.nan == arg_best.POISON else arith.select(beats(), top, v0)
        if best.nan != arg_best.IGNORE:
            first_nan = self.row[(key, arg_best.NAN)]
            has_nan = arith.cmpi(arith.CmpIPredicate.ne, first_nan, arith.constant(i32, _I32_MAX))
            value = arith.select(has_nan, arith.constant(vt, ir.FloatAttr.get(vt, math.nan)), value)
        first = self._index_result(n, first, itype)
        index = arith.select(beats(), first, i0)
        if best.nan == arg_best.TAKE:
            taken = arith.andi(has_nan, arith.cmpf(arith.CmpFPredicate.ORD, v0, v0))
            index = arith.select(taken, self._index_result(n, first_nan, itype), index)
        self.row[r_value], self.row[r_index] = value, index

    def _index_result(self, n: fused_rows.Node, position: ir.Value, itype: ir.IntegerType) -> ir.Value:
        """The index result of arg-best reduction `n` whose last update is at row position
        `position` (i32; INT32_MAX where there is none, and the result is not used): the
        position plus the base, as the index result's type, or the body's new index computed
        there, from the inputs read at it."""
        best = n.arg_best
        if best.index_ops:
            return self._body_index(n, position)
        if best.base:
            position = arith.addi(position, arith.constant(position.type, best.base))
        return position if itype.width == 32 else \
            arith.extsi(itype, position) if itype.width > 32 else arith.trunci(itype, position)

    def _body_index(self, n: fused_rows.Node, position: ir.Value) -> ir.Value:
        """The body's new index (ArgBest.index_ops) at row position `position`, on scalars: the
        inputs it reads loaded there (a position that is none reads the row's first)."""
        best, i32 = n.arg_best, position.type
        none = arith.cmpi(arith.CmpIPredicate.eq, position, arith.constant(i32, _I32_MAX))
        at = arith.index_cast(ir.IndexType.get(), arith.select(none, arith.constant(i32, 0), position))
        args = n.op.regions[0].blocks[0].arguments
        env = {best.index: at} if best.index is not None else {}
        for i in best.index_inputs:
            o = n.operands[i]
            env[args[i]] = self._row_value(o)
            if env[args[i]] is None:
                coords = [at if d >= self.rows.k else self.out_coords[d] for d in o.dims]
                env[args[i]] = memref.load(self._buffer(o.value, self.bufs), coords)
        for op in best.index_ops:
            if op.name == "linalg.index":
                continue
            new = ir.Operation.create(op.name, results=[r.type for r in op.results],
                                      operands=[env.get(x, x) for x in op.operands], attributes=dict(op.attributes))
            env.update(zip(op.results, new.results))
        return env[best.new_index]

    def _exchange(self, parts: list[tuple[object, Combiner]], accs: list[ir.Value]) -> list[ir.Value]:
        """Each partial's accumulators combined over the workgroup: the totals, which every
        thread gets."""
        plan, k = self.plan, self.k
        partials = [k.butterfly(self._fold(a, cb), plan.shuffle_offsets(), cb) for a, (_, cb) in zip(accs, parts)]
        if plan.subgroups_r == 1:
            return partials
        # One buffer per partial. With a single pass per row, the next tile's writes could
        # overtake this tile's reads; with more, another pass's barrier parts them.
        if self.tiles_repeat and self.rows.passes == 1:
            gpu.barrier()
        column = k.const(0) if plan.threads_p == 1 else self.p
        with self._only_if(None if plan.lanes_r == 1 else self._is_zero(self.lane_r)):
            for (key, _), part in zip(parts, partials):
                memref.store(part, self.lds[key], [self.sg_r, column])
        gpu.barrier()
        if plan.threads_p > 1:
            return [self._column_total(self.lds[key], cb) for key, cb in parts]
        kk, _ = self._readback_lanes()
        return [self._partials_total(self.lds[key], k.const(0), kk, cb) for key, cb in parts]

    def _column_total(self, lds: ir.Value, combine: Combiner) -> ir.Value:
        """Strided rows (a tile of rows a workgroup): column p of the partials buffer, this
        thread's row, combined over every subgroup, by each thread serially."""
        k = self.k
        loop = scf.ForOp(k.const(0), k.const(self.plan.subgroups_r), k.const(1), [combine.identity(combine.acc_type)])
        with ir.InsertionPoint(loop.body):
            scf.yield_([combine(loop.inner_iter_args[0], memref.load(lds, [loop.induction_variable, self.p]))])
        return loop.results[0]

    def _column_conflicts(self, acc_type: ir.Type) -> int:
        """The bank model's extra cycles of subgroup 0 reading its first row of partials by
        columns (`_column_total`): lane % lanes_p, lanes of one row reading one word."""
        size = element_bits(acc_type) // 8
        addresses = [lane % self.plan.lanes_p * size for lane in range(self.plan.subgroup_size)]
        return self.k.target.bank_model().conflicts(addresses, size)

    def _row_maps(self, level: int) -> None:
        """The row maps computable after `level` reduction passes, on scalars; then the
        reciprocals of the row divisors known by then, once per row."""
        for n in self.rows.row_maps(level):
            args = [self._row_value(o) for o in n.operands]
            for r, x in zip(n.op.results, clone_body(n.op, args, None, self._map_positions(None, n, {}))):
                self.row[r] = x
        for n, i in self.divisors:
            o = n.operands[i]
            key, scalar = ("reciprocal", o.value, o.dims), self._row_value(o)
            if scalar is not None and key not in self.row:
                one = arith.constant(scalar.type, ir.FloatAttr.get(scalar.type, 1.0))
                self.row[key] = arith.divf(one, scalar)

    def _store(self, chunks: list[_Chunk], valid) -> None:
        """Writes every stored full result at each chunk that exists."""
        for i, c in enumerate(chunks):
            with self._only_if(valid[i] if valid else None):
                for value, _ in self.rows.full_stores:
                    full = self._full(c, value)
                    index = [c.coords[d] for d in self.rows.layouts[value]]
                    write_vector(full, self._buffer(value, self.outs), index, self._align(ir.VectorType(full.type)))
