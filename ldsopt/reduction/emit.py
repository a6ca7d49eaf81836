"""The kernel of one planned reduction (`ReductionKernel`, steps 1-4 of ldsopt-vector-distribute's
module docstring) and what it shares with the fused-row kernel (emit_rows.py): the threads'
coordinates in the plan, the loop over a thread's reduction chunks, the butterflies and the
read-back of the subgroups' partials from LDS (`DistributedKernel`), and `Combiner`.

Dynamic extents (read at run time): the plan is made for a bound (plan.planning_shape:
many outputs, a long row). The loop over tiles runs to the count the kernel reads, stepping
by the workgroups launched, and the workgroup count region computes min(outputs, the plan's
grid) from the dispatch's workload. A dynamic reduced extent makes the chunk count a run-time
value: the groups of `unroll` chunks run while a whole group remains, and a remainder loop
takes the rest one chunk at a time (no clamped or masked reads: a row of length 0 reads
nothing). A row of dynamic length gets two plans of the same threads (`emit`): vectors along
it where they divide its length at run time (their alignment stated on CUDA/HIP), else
scalars."""

from __future__ import annotations

import contextlib
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt import target as target_model
from ldsopt.codegen import gather
from ldsopt.codegen.combining import identity_attr
from ldsopt.codegen.dispatch import Binding, Dispatch, Graph
from ldsopt.codegen.workload import in_count_region
from ldsopt.codegen.elementwise import clone_body, vectorize_body
from ldsopt.codegen.kernel import Kernel, launch_count, lds_alloc, read_vector, write_vector
from ldsopt.ir_types import element_bits
from ldsopt.layout import index_expr
from ldsopt.reduction.match import Reduction
from ldsopt.reduction.plan import ReductionPlan


class Combiner:
    """A combining op (ldsopt.combining), applied to new values: a body's (`of`), or one of
    `kind` on `acc_type`."""

    def __init__(self, kind: str, acc_type: ir.Type, attrs: dict | None = None):
        self.kind, self.acc_type, self.attrs = kind, acc_type, attrs or {}

    @classmethod
    def of(cls, op: ir.Operation) -> "Combiner":
        return cls(op.name, op.results[0].type, dict(op.attributes.items()))  # keeps fastmath / overflow flags

    def __call__(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return ir.Operation.create(self.kind, results=[a.type], operands=[a, b], attributes=self.attrs).result

    def identity(self, t: ir.Type) -> ir.Value:
        """The identity as a constant of `t` (the accumulator type or a vector of it)."""
        attr = identity_attr(self.kind, self.acc_type)
        return arith.constant(t, ir.DenseElementsAttr.get_splat(t, attr) if isinstance(t, ir.VectorType) else attr)


def _product(sizes: list[int | ir.Value], const) -> ir.Value:
    """The product of `sizes` (ints, and index values where dynamic), its ints one constant
    (made by `const`), left out where 1."""
    static = math.prod(s for s in sizes if isinstance(s, int))
    out = None if static == 1 else const(static)
    for s in sizes:
        if not isinstance(s, int):
            out = s if out is None else arith.muli(out, s)
    return const(1) if out is None else out


class DistributedKernel:
    """What the reduction kernels share: the threads' coordinates in the plan, the loop over a
    thread's reduction chunks, the butterflies and the LDS read-back of partials. `pass_name`
    is the pass recorded as the kernel's author (kernel.LOWERED_BY)."""

    def __init__(self, d: Dispatch | Graph, plan: ReductionPlan, tgt: target_model.Target, pass_name: str,
                 extents: dict[int, ir.Value] | None = None):
        """`extents`: the dynamic extents of iteration dims, as values of the dispatch
        computed from its workload ordinals (workload.in_count_region)."""
        self.d, self.plan, self.pass_name = d, plan, pass_name
        self.extents = extents or {}
        p = plan.problem
        assert not self.extents or plan.outputs_per_tile == 1, "dynamic outputs in tiles of several"
        workload_grid = self._workload_grid if any(i in p.parallel for i in self.extents) else None
        self.k = Kernel(d, tgt, (plan.workgroup_size, 1, 1), (plan.grid, 1, 1), workload_grid)
        self.out_sizes = [self.extents.get(i, p.shape[i]) for i in p.parallel]
        self.red_sizes = [self.extents.get(i, p.shape[i]) for i in p.reduced]
        self.dynamic_chunks = any(i in p.reduced for i in self.extents)
        self.row_aligned = False  # the kernel runs only where its vectors divide a dynamic row (`emit`)

    def _workload_grid(self, workload: list[ir.Value]) -> list[ir.Value]:
        """The workgroup count from the workload: one per output, at most the plan's grid."""
        def const(value: int) -> ir.Value:
            return arith.constant(ir.IndexType.get(), value)
        p = self.plan.problem
        sizes = [in_count_region(self.extents[i], workload) if i in self.extents else p.shape[i] for i in p.parallel]
        count = launch_count(_product(sizes, const), self.plan.grid, const)
        return [count, const(1), const(1)]

    def _tile_loop(self) -> scf.ForOp:
        """The grid-stride loop over tiles of outputs."""
        plan, k = self.plan, self.k
        if not any(i in plan.problem.parallel for i in self.extents):
            return scf.ForOp(k.block_id(), k.const(plan.n_tiles), k.const(plan.grid))
        return scf.ForOp(k.block_id(), _product(self.out_sizes, k.const), k.grid_dim())

    # What `_setup` makes, which a kernel of the other plan of a dynamic row shares (`emit`).
    SETUP: tuple[str, ...] = ("tid", "lane_r", "sg_r", "p", "r", "lds")

    def emit(self, narrow: "DistributedKernel | None" = None) -> None:
        """Emits the kernel. With `narrow`, a kernel of the same dispatch whose plan reads a
        dynamic row in narrower vectors, the row's length chooses at run time: this kernel's
        loop over tiles where it is a multiple of this plan's vector, else narrow's (both
        with the same threads and LDS buffers)."""
        k = self.k
        with k.ip, self.d.location:
            self._setup()
            if narrow is None:
                self._rows()
            else:
                narrow._share(self)
                self.row_aligned = True
                row = self.red_sizes[-1]
                whole = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(row, k.const(self.plan.vector)), k.const(0))
                branch = scf.IfOp(whole, [], has_else=True)
                for kernel, block in ((self, branch.then_block), (narrow, branch.else_block)):
                    with ir.InsertionPoint(block):
                        kernel._rows()
                        scf.yield_([])
        k.finish(self.pass_name)

    def _rows(self) -> None:
        """The loop over tiles, each tile's code in it."""
        tiles = self._tile_loop()
        with ir.InsertionPoint(tiles.body):
            self._tile(tiles.induction_variable)
            scf.yield_([])

    def _share(self, other: "DistributedKernel") -> None:
        """Takes `other`'s Kernel and what its _setup made."""
        mine, theirs = self.plan, other.plan
        assert (mine.workgroup_size, mine.lanes_p, mine.subgroups_r, mine.outputs_per_tile) == \
            (theirs.workgroup_size, theirs.lanes_p, theirs.subgroups_r, theirs.outputs_per_tile), (mine, theirs)
        self.k = other.k
        for key in self.SETUP:
            if hasattr(other, key):
                setattr(self, key, getattr(other, key))

    @property
    def tiles_repeat(self) -> bool:
        """Whether a workgroup may work on several tiles (it then waits before reusing LDS)."""
        return any(i in self.plan.problem.parallel for i in self.extents) or self.plan.grid < self.plan.n_tiles

    def _threads(self) -> None:
        """Thread id, lane and subgroup coordinates on the reduction, thread coordinates p, r."""
        plan, k = self.plan, self.k
        self.tid = k.thread_id()
        L = plan.subgroup_size
        lane_p, self.lane_r = self._split(arith.remui(self.tid, k.const(L)), plan.lanes_p, plan.lanes_r)
        sg_p, self.sg_r = self._split(arith.divui(self.tid, k.const(L)), plan.subgroups_p, plan.subgroups_r)
        # With every thread on one side, the thread id is that side's coordinate.
        self.p = self.tid if plan.threads_r == 1 else self._linear((sg_p, plan.lanes_p), (lane_p, 1))
        self.r = self.tid if plan.threads_p == 1 else self._linear((self.sg_r, plan.lanes_r), (self.lane_r, 1))

    def _lds_partials(self, acc_type: ir.Type, pad: int, name: str = "partials", reads: int | None = None) -> ir.Value:
        """The workgroup buffer of partials: a row per subgroup on the reduction. Its bank
        conflicts are recorded as the plan priced them: its read-back (`lds_row_pad`), or
        `reads` where the kernel reads it otherwise; its writes none, each subgroup writing
        one contiguous row."""
        if reads is None:
            reads = self.plan.readback_conflicts(self.k.target.bank_model(), element_bits(acc_type) // 8, pad)
        self.k.record_bank_conflicts(name, 0, reads)
        return lds_alloc([self.plan.subgroups_r, self.plan.outputs_per_tile + pad], acc_type)

    def _split(self, id_: ir.Value, n_p: int, n_r: int) -> tuple[ir.Value, ir.Value]:
        """(output, reduction) coordinates of a lane or subgroup id, in the plan's order."""
        if n_p == 1:
            return self.k.const(0), id_
        if n_r == 1:
            return id_, self.k.const(0)
        fast = n_r if self.plan.reduction_fastest else n_p
        low, high = arith.remui(id_, self.k.const(fast)), arith.divui(id_, self.k.const(fast))
        return (high, low) if self.plan.reduction_fastest else (low, high)

    def _linear(self, *terms: tuple[ir.Value, int]) -> ir.Value:
        """sum(value * scale) over `terms`, leaving out constant zeros and unit scales."""
        zero = self.k.const(0)
        out = None
        for value, scale in terms:
            if value == zero:
                continue
            term = value if scale == 1 else arith.muli(value, self.k.const(scale))
            out = term if out is None else arith.addi(out, term)
        return zero if out is None else out

    @contextlib.contextmanager
    def _only_if(self, cond: ir.Value | None):
        """Emits the body under `scf.if cond`, or unguarded when cond is None (always true)."""
        if cond is None:
            yield
            return
        with ir.InsertionPoint(scf.IfOp(cond).then_block):
            yield
            scf.yield_([])

    def _chunk_loop(self, accs: list[ir.Value], read, body) -> list[ir.Value]:
        """`accs` carried over this thread's reduction chunks: a loop over whole groups of
        `unroll` chunks, `body(accs, [read(c, None) for c in group], None)` (all reads of a
        group issued before the body uses them), then `body(accs, reads, valid)` of the
        thread's leftover chunks (plan.remainder_loads reads `read(c, valid[i])`, each clamped
        to the last chunk; `valid` says per read whether its chunk exists, None when every
        thread has them all)."""
        plan, k = self.plan, self.k
        if self.dynamic_chunks:
            return self._dynamic_chunk_loop(accs, read, body)
        tr, u = plan.threads_r, plan.unroll
        start = self.r
        main_end = plan.chunks - (u - 1) * tr  # a group starting at chunk c ends at c + (u-1) tr
        if main_end > 0:
            leftover = [start] if plan.remainder_loads else []  # where a thread's leftovers begin
            loop = scf.ForOp(self.r, k.const(main_end), k.const(u * tr), accs + leftover)
            with ir.InsertionPoint(loop.body):
                c = loop.induction_variable
                reads = [read(self._linear((c, 1), (k.const(i * tr), 1)), None) for i in range(u)]
                nxt = [arith.addi(c, k.const(u * tr))] if leftover else []
                carried = list(loop.inner_iter_args)[:len(accs)]
                scf.yield_(body(carried, reads, None) + nxt)
            results = list(loop.results)
            accs, start = results[:len(accs)], results[len(accs)] if leftover else None
        chunks = [self._linear((start, 1), (k.const(i * tr), 1)) for i in range(plan.remainder_loads)]
        valid, chunks = self._clamped(chunks)
        if chunks:
            accs = body(accs, [read(c, valid[i] if valid else None) for i, c in enumerate(chunks)], valid)
        return accs

    def _dynamic_chunk_loop(self, accs: list[ir.Value], read, body) -> list[ir.Value]:
        """_chunk_loop for a chunk count read at run time: groups of `unroll` chunks while a
        whole group remains (the bound is signed: a short row runs none), then the rest one
        at a time."""
        plan, k = self.plan, self.k
        tr, u = plan.threads_r, plan.unroll
        chunks = _product(self._chunk_sizes(), k.const)
        start = self.r
        if u > 1:
            main_end = arith.subi(chunks, k.const((u - 1) * tr))
            loop = scf.ForOp(self.r, main_end, k.const(u * tr), accs + [start])
            with ir.InsertionPoint(loop.body):
                c = loop.induction_variable
                reads = [read(self._linear((c, 1), (k.const(i * tr), 1)), None) for i in range(u)]
                carried = list(loop.inner_iter_args)[:len(accs)]
                scf.yield_(body(carried, reads, None) + [arith.addi(c, k.const(u * tr))])
            results = list(loop.results)
            accs, start = results[:len(accs)], results[len(accs)]
        rest = scf.ForOp(start, chunks, k.const(tr), accs)
        with ir.InsertionPoint(rest.body):
            scf.yield_(body(list(rest.inner_iter_args), [read(rest.induction_variable, None)], None))
        return list(rest.results)

    def _clamped(self, chunks: list[ir.Value]) -> tuple[list[ir.Value] | None, list[ir.Value]]:
        """(whether each chunk exists, the chunks clamped to the last one) where threads differ
        in their leftover chunks; (None, chunks) where they do not."""
        if not (self.plan.remainder_guarded and chunks):
            return None, chunks
        last = self.k.const(self.plan.chunks)
        valid = [arith.cmpi(arith.CmpIPredicate.ult, c, last) for c in chunks]
        return valid, [arith.minui(c, self.k.const(self.plan.chunks - 1)) for c in chunks]

    def _chunk_coords(self, chunk: ir.Value, out_coords: list[ir.Value]) -> list[ir.Value]:
        """The iteration-space coordinates of the first element of reduction chunk `chunk` of
        the outputs at `out_coords`."""
        plan = self.plan
        p = plan.problem
        red_coords = self.k.delinearize(chunk, self._chunk_sizes())
        if plan.vec_r > 1:
            red_coords[-1] = self._linear((red_coords[-1], plan.vec_r))
        coords = dict(zip(p.parallel, out_coords)) | dict(zip(p.reduced, red_coords))
        return [coords[i] for i in range(len(p.shape))]

    def _align(self, vtype: ir.VectorType) -> int:
        """The alignment (bytes) to state on an access of `vtype` along a dynamic row that its
        vectors divide: what the access's own size is, which the compiler cannot see from the
        row's dynamic stride (CUDA/HIP would split the access); 0 elsewhere, and on SPIR-V."""
        if not self.row_aligned or self.k.target.backend == "vulkan":
            return 0
        return vtype.shape[0] * element_bits(vtype.element_type) // 8

    def _chunk_sizes(self) -> list[int | ir.Value]:
        """The reduced extents in chunks: the innermost one in vectors of vec_r (a dynamic one
        is a multiple of it: the kernel of such a plan runs where it is, `emit`)."""
        sizes, vec = list(self.red_sizes), self.plan.vec_r
        if vec > 1:
            last = sizes[-1]
            sizes[-1] = last // vec if isinstance(last, int) else arith.divui(last, self.k.const(vec))
        return sizes

    def _select_valid(self, valid: ir.Value | None, new: ir.Value, old: ir.Value) -> ir.Value:
        """`new`, or `old` where the chunk of `valid` does not exist."""
        if valid is None:
            return new
        # A vector condition: SPIR-V 1.3 selects vectors by vectors of booleans only.
        mask_type = ir.VectorType.get(ir.VectorType(new.type).shape, ir.IntegerType.get_signless(1))
        return arith.select(vector.broadcast(mask_type, valid), new, old)

    def _fold(self, acc: ir.Value, combine: Combiner) -> ir.Value:
        """The elements of vector `acc` combined (a tree)."""
        elements = [vector.extract(acc, [], [j]) for j in range(ir.VectorType(acc.type).shape[0])]
        while len(elements) > 1:
            pairs = zip(elements[::2], elements[1::2])
            elements = [combine(a, b) for a, b in pairs] + elements[len(elements) & ~1:]
        return elements[0]

    def _readback_lanes(self) -> tuple[ir.Value, ir.Value]:
        """(kk, out0): the lane's first partial of the read-back and its first output of a
        round (`reduction_plan.ReductionPlan.readback_lane`; with the rows' padding, no bank conflicts)."""
        kk, out0 = self.k.index(list(self.plan.readback_lane(index_expr.var("tid"))), tid=self.tid)
        return kk, out0

    def _partials_total(self, lds: ir.Value, col: ir.Value, kk: ir.Value, combine: Combiner) -> ir.Value:
        """Column `col` of the partials buffer combined over every subgroup: each lane of the
        read-back group serially from partial kk on, then a butterfly over the group (every
        lane of it ends with the total)."""
        plan, k = self.plan, self.k
        loop = scf.ForOp(kk, k.const(plan.subgroups_r), k.const(plan.readback_group()),
                         [combine.identity(combine.acc_type)])
        with ir.InsertionPoint(loop.body):
            part = memref.load(lds, [loop.induction_variable, col])
            scf.yield_([combine(loop.inner_iter_args[0], part)])
        return k.butterfly(loop.results[0], plan.readback_offsets(), combine)

    def _is_zero(self, v: ir.Value) -> ir.Value:
        return arith.cmpi(arith.CmpIPredicate.eq, v, self.k.const(0))


class ReductionKernel(DistributedKernel):
    """Emits the kernel of one planned reduction (steps 1-4 of ldsopt-vector-distribute's docstring)."""

    def __init__(self, d: Dispatch, red: Reduction, plan: ReductionPlan, tgt: target_model.Target, lds_pad: int,
                 pass_name: str, extents: dict[int, ir.Value] | None = None):
        super().__init__(d, plan, tgt, pass_name, extents)
        self.red, self.lds_pad = red, lds_pad
        self.combine = Combiner.of(red.combine)

    SETUP = DistributedKernel.SETUP + ("inputs", "output", "init", "epilogue_mem")

    def _setup(self) -> None:
        d = self.d
        self.inputs = [b.memref() for b in d.inputs]
        self.output = d.output.memref()
        self.init = self.red.init.memref() if isinstance(self.red.init, Binding) else self.red.init
        epilogue = getattr(d, "epilogue", None)
        self.epilogue_mem = [None if x is None else x[0].memref() for x in epilogue.inputs] if epilogue else []
        self._threads()
        if self.plan.subgroups_r > 1:
            self.lds = self._lds_partials(self.red.acc_type, self.lds_pad)

    def _tile(self, tile: ir.Value) -> None:
        plan, k = self.plan, self.k
        tile_first = self._linear((tile, plan.outputs_per_tile))
        first = self._linear((tile_first, 1), (self.p, plan.vec_p))
        partials = [k.butterfly(v, plan.shuffle_offsets(), self.combine) for v in self._thread_partials(first)]
        # After the butterfly every lane on the reduction holds the result; lane 0 writes it.
        writer = None if plan.lanes_r == 1 else self._is_zero(self.lane_r)
        if plan.subgroups_r == 1:
            with self._only_if(writer):
                for j, v in enumerate(partials):
                    self._store_output(self._linear((first, 1), (k.const(j), 1)), v)
            return
        if self.tiles_repeat:
            gpu.barrier()  # the previous tile's partials may still be being read
        with self._only_if(writer):
            # Row sg_r of the buffer: a lane's vec_p partials are contiguous (one vector write).
            slot = self._linear((self.p, plan.vec_p))
            if plan.vec_p == 1:
                memref.store(partials[0], self.lds, [self.sg_r, slot])
            else:
                values = vector.from_elements(ir.VectorType.get([plan.vec_p], self.red.acc_type), partials)
                write_vector(values, self.lds, [self.sg_r, slot])
        gpu.barrier()
        self._read_back(tile_first)

    def _thread_partials(self, first: ir.Value) -> list[ir.Value]:
        """This thread's partial result for each of its vec_p outputs starting at `first`
        (the chunk loop of _chunk_loop, the body applied to whole vectors)."""
        plan = self.plan
        out_coords = self.k.delinearize(first, self.out_sizes) if self.out_sizes else []
        acc = self.combine.identity(ir.VectorType.get([plan.vector], self.red.acc_type))
        (acc,) = self._chunk_loop([acc], lambda c, valid: self._read_chunk(c, out_coords),
                                  lambda accs, loads, valid: [self._accumulate(accs[0], loads, valid)])
        if plan.vec_p > 1:
            return [vector.extract(acc, [], [j]) for j in range(plan.vector)]
        return [self._fold(acc, self.combine)]

    def _read_chunk(self, chunk: ir.Value, out_coords: list[ir.Value]) -> list[ir.Value]:
        """Each input's vector of reduction chunk `chunk` for the outputs at `out_coords`."""
        index = self._chunk_coords(chunk, out_coords)
        types = [ir.VectorType.get([self.plan.vector], b.tensor_type.element_type) for b in self.d.inputs]
        return [read_vector(t, buf, index, self._align(t)) for t, buf in zip(types, self.inputs)]

    def _accumulate(self, acc: ir.Value, loads: list[list[ir.Value]], valid: list[ir.Value] | None = None) -> ir.Value:
        """`acc` with the body applied to each chunk's loaded vectors in turn; a chunk whose
        `valid` flag is false leaves it unchanged."""
        for i, values in enumerate(loads):
            new = vectorize_body(self.d.root, values + [acc], self.plan.vector)
            acc = self._select_valid(valid[i] if valid else None, new, acc)
        return acc

    def _read_back(self, tile_first: ir.Value) -> None:
        """The tile's outputs from the subgroups' partials (_partials_total), rounds of
        workgroup_size / readback_group outputs covering the tile."""
        plan, k = self.plan, self.k
        per_round = plan.workgroup_size // plan.readback_group()
        n_out = plan.outputs_per_tile
        kk, out0 = self._readback_lanes()
        for rnd in range(math.ceil(n_out / per_round)):
            # Surplus lanes read a valid column and store nothing: every lane takes part in the shuffles.
            o, col = k.index(list(plan.readback_round(index_expr.var("out0"), rnd)), out0=out0)
            exact = (rnd + 1) * per_round <= n_out
            total = self._partials_total(self.lds, col, kk, self.combine)
            writes = self._is_zero(kk)
            if not exact:
                writes = arith.andi(writes, arith.cmpi(arith.CmpIPredicate.ult, o, k.const(n_out)))
            with self._only_if(writes):
                self._store_output(self._linear((tile_first, 1), (col, 1)), total)

    def _store_output(self, index: ir.Value, value: ir.Value) -> None:
        """Combines `value` with the initial value of output `index` (numbered in the inputs'
        order of the kept dims) and stores it, where the output's own dim order puts it; with
        a fused consumer (ReductionDispatch.epilogue), stores the consumer's result instead."""
        coords = self.k.delinearize(index, self.out_sizes) if self.out_sizes else []
        coords = [coords[i] for i in self.red.out_order]
        init = memref.load(self.init, coords) if isinstance(self.red.init, Binding) else self.init
        total = self.combine(value, init)
        epilogue = getattr(self.d, "epilogue", None)
        if epilogue is None:
            memref.store(total, self.output, coords)
            return
        # The fused consumer's body on the total and its other inputs at the same output.
        args = [total if x is None else memref.load(mem, [coords[i] for i in x[1]])
                for x, mem in zip(epilogue.inputs, self.epilogue_mem)]
        (result,) = clone_body(epilogue.op, args, None, gather.loop_positions(epilogue.op, coords, None))
        memref.store(result, self.output, [coords[i] for i in epilogue.out_dims])
