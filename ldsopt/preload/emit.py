"""The kernel of a planned ldsopt-preload-transposed dispatch (`PreloadEmitter`): tiles in a
grid-stride loop, the row walks that stage transposed inputs (or the output) through padded LDS
buffers, and the column walk that reads them back along the output's fastest dim."""

from __future__ import annotations

import functools
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Dispatch
from ldsopt.codegen.workload import in_count_region
from ldsopt.codegen.elementwise import collapsed_view, extent_product, group_extents, vectorize_body
from ldsopt.codegen.kernel import Kernel, ceil_div, global_alignment, launch_count, lds_alloc, read_vector, write_vector
from ldsopt.layout import index_expr
from ldsopt.layout import maps as layout
from ldsopt.preload.problem import FLAT, OUTPUT, Operand, PreloadPlan, PreloadProblem, StageKey, Walk


def _zeros(vtype: ir.VectorType) -> ir.Value:
    etype = vtype.element_type
    zero = ir.FloatAttr.get(etype, 0.0) if isinstance(etype, ir.FloatType) else ir.IntegerAttr.get(etype, 0)
    return arith.constant(vtype, ir.DenseElementsAttr.get_splat(vtype, zero))


class PreloadEmitter:
    """Builds the kernel of one planned dispatch."""

    def __init__(self, d: Dispatch, p: PreloadProblem, plan: PreloadPlan, tgt: target_model.Target, grid_limit: int,
                 unroll: int = 0):
        self.d, self.p, self.plan, self.unroll = d, p, plan, unroll
        self.extents = p.shape  # ints; where dynamic, index values made at the kernel's start (`emit`)
        self.tile_counts = self._tile_counts(p.shape, None)
        self.n_tiles = math.prod(self.tile_counts)
        if p.dynamic:  # `grid_limit` a bound, the count computed from the workload
            self.k = Kernel(d, tgt, (plan.workgroup_size, 1, 1), (grid_limit, 1, 1),
                            lambda workload: self._workload_grid(workload, grid_limit))
        else:
            n_wg = max(1, min(self.n_tiles, grid_limit))
            self.k = Kernel(d, tgt, (plan.workgroup_size, 1, 1), (n_wg, 1, 1))

    def _dynamic_extents(self, extents: dict[int, ir.Value], const) -> list:
        """Each collapsed dim's extent (an int, or an index value where dynamic), from the
        original dims' dynamic `extents`."""
        shape = list(self.d.output.tensor_type.shape)
        return group_extents(shape, self.p.groups, extents, const)

    def _tile_counts(self, extents: list, const) -> list:
        """Tiles along each collapsed dim: ints, or index values (ceil(extent / tile)) where
        the extent is one."""
        return [math.ceil(e / t) if isinstance(e, int) else
                ceil_div(e, t, const) for e, t in zip(extents, self.plan.tile)]

    def _workload_grid(self, workload: list[ir.Value], limit: int) -> list[ir.Value]:
        """The workgroup count from the workload (dynamic extents): one a tile, at most `limit`."""
        const = functools.cache(lambda value: arith.constant(ir.IndexType.get(), value))
        extents = {i: in_count_region(v, workload) for i, v in zip(self.p.dynamic, self.d.output.dims)}
        n = extent_product(self._tile_counts(self._dynamic_extents(extents, const), const), const)
        return [launch_count(n, limit, const), const(1), const(1)]

    def emit(self, pass_name: str) -> None:
        k, p, plan = self.k, self.p, self.plan
        with k.ip, self.d.location:
            self.views = [self._view(x) for x in p.inputs + [p.output]]
            if plan.flat:
                self.flat_views = {i: self._flat_view(x) for i, x in enumerate(p.inputs + [p.output])
                                   if x.dims[-2:] == [plan.col_b, p.a]}
                self.flat_views[-1] = self.flat_views.pop(len(p.inputs))
            self.lds = {key: self._alloc(key) for key in plan.sources}
            if p.dynamic:
                self.extents = self._dynamic_extents(dict(zip(p.dynamic, self.d.output.dims)), k.const)
                self.tile_counts = self._tile_counts(self.extents, k.const)
                loop = scf.ForOp(k.block_id(), extent_product(self.tile_counts, k.const), k.grid_dim())
            else:
                loop = scf.ForOp(k.block_id(), k.const(self.n_tiles), k.const(k.grid[0]))
        with ir.InsertionPoint(loop.body), self.d.location:
            if p.dynamic or self.n_tiles > k.grid[0]:
                gpu.barrier()  # the previous tile's LDS reads are done before it is overwritten
            origin = self._tile_origin(loop.induction_variable)
            etype = p.output.binding.tensor_type.element_type
            out_a = ir.VectorType.get([plan.vec[p.a]], etype)
            if plan.store_side:
                b = plan.stage(OUTPUT)[-1]
                self._each_block(plan.row_walk(OUTPUT), origin, ir.VectorType.get([plan.vec[b]], etype),
                                 self._compute_for_lds, self._to_lds(OUTPUT))
                gpu.barrier()
                self._each_block(plan.column_walk, origin, out_a, lambda loc, glob: self._column(OUTPUT, loc),
                                 self._to_output)
            else:
                for i in plan.sources:
                    x = p.inputs[i]
                    vt = ir.VectorType.get([plan.vec[x.fastest]], x.binding.tensor_type.element_type)
                    self._each_block(plan.row_walk(i), origin, vt, lambda loc, glob, i=i: self._preload(i, glob),
                                     self._to_lds(i))
                gpu.barrier()
                if plan.flat:
                    origin[FLAT] = arith.muli(origin[plan.col_b], k.const(p.shape[p.a]))
                    self._each_block(plan.column_walk, origin, ir.VectorType.get([plan.flat], etype),
                                     self._compute_flat, self._to_output_flat)
                else:
                    self._each_block(plan.column_walk, origin, out_a, self._compute_from_lds, self._to_output)
            scf.yield_([])
        k.finish(pass_name)

    # --- setup ---

    def _view(self, x: Operand) -> ir.Value:
        """The operand's binding over its collapsed dims (groups of output-order dims)."""
        return collapsed_view(x.binding.memref(), [self.p.groups[g] for g in x.dims],
                              list(self.p.output.binding.tensor_type.shape))

    def _alloc(self, key: StageKey) -> ir.Value:
        x = self.p.output if key == OUTPUT else self.p.inputs[key]
        if key in self.plan.conflicts:
            self.k.record_bank_conflicts("output" if key == OUTPUT else f"input{key}", *self.plan.conflicts[key])
        return lds_alloc(self.plan.lds_shape(key), x.binding.tensor_type.element_type)

    def _tile_origin(self, t: ir.Value) -> dict[int, ir.Value]:
        """The first element of tile `t` along every dim (tiles walked with the last dim fastest)."""
        k, tile, counts = self.k, self.plan.tile, self.tile_counts
        idx = k.delinearize(t, counts)
        return {x: k.const(0) if isinstance(counts[x], int) and counts[x] == 1 else i if tile[x] == 1
                else arith.muli(i, k.const(tile[x])) for x, i in enumerate(idx)}

    # --- walking a tile ---

    def _each_block(self, walk: Walk, origin: dict[int, ir.Value], vtype: ir.Type, load, sink) -> None:
        """Each thread takes every workgroup-size-th block of `walk`: value = load(local coords,
        global coords), then sink(value, local, global) when the block lies inside the tensor.
        With `unroll`, a thread loads up to `unroll` blocks before it stores any (many loads in
        flight, not one per loop trip). Their coordinates are the thread's plus constants where
        the walk allows (short index chains: LLVM then still proves vector accesses aligned;
        deeper chains and selects on coordinates made it split them into scalars)."""
        if self.unroll <= 0:
            return self._each_block_looped(walk, origin, vtype, load, sink)
        k, plan = self.k, self.plan
        counts = [c for _, c, _ in walk]
        total, wg = math.prod(counts), plan.workgroup_size
        iters = math.ceil(total / wg)
        batch = min(iters, self.unroll)
        n_batches = math.ceil(iters / batch)
        overflow = n_batches * batch * wg > total  # some thread's last blocks lie past the walk
        tid = self.tid = k.thread_id()

        def blocks(first) -> None:  # `first`: the batch's first iteration (int, or index value)
            items = []
            for j in range(batch):
                if isinstance(first, int):
                    it = first + j
                    if it >= iters:
                        break
                    i = arith.addi(tid, k.const(it * wg)) if it else tid
                    past = (it + 1) * wg > total
                else:
                    i = arith.addi(tid, arith.muli(arith.addi(first, k.const(j)) if j else first, k.const(wg)))
                    past = overflow
                offset = it * wg if isinstance(first, int) else None
                past_cond = arith.cmpi(arith.CmpIPredicate.ult, i, k.const(total)) if past else None
                # a block past the walk takes block 0's coordinates (no branch, alignment kept)
                local, glob = self._block_coords(walk, i, origin, offset, past_cond)
                inside = [arith.cmpi(arith.CmpIPredicate.ult, glob[x], self._bound(x)) for x in local if self._ragged(x)]
                for c in inside[1:]:
                    inside[0] = arith.andi(inside[0], c)
                if inside:  # the load alone under the guard (clamped coordinates would hide alignment)
                    guard = scf.IfOp(inside[0], [vtype], has_else=True)
                    with ir.InsertionPoint(guard.then_block):
                        scf.yield_([load(local, glob)])
                    with ir.InsertionPoint(guard.else_block):
                        scf.yield_([_zeros(vtype)])
                    value = guard.result
                else:
                    value = load(local, glob)
                conds = [c for c in (past_cond, inside[0] if inside else None) if c is not None]
                cond = arith.andi(*conds) if len(conds) == 2 else conds[0] if conds else None
                items.append((value, local, glob, cond))
            for value, local, glob, cond in items:
                if cond is not None:
                    guard = scf.IfOp(cond)
                    with ir.InsertionPoint(guard.then_block):
                        sink(value, local, glob)
                        scf.yield_([])
                else:
                    sink(value, local, glob)

        if n_batches == 1:
            blocks(0)
            return
        loop = scf.ForOp(k.const(0), k.const(n_batches), k.const(1))
        with ir.InsertionPoint(loop.body):
            blocks(arith.muli(loop.induction_variable, k.const(batch)))
            scf.yield_([])

    def _block_coords(self, walk: Walk, i: ir.Value, origin: dict[int, ir.Value],
                      offset: int | None = None, keep: ir.Value | None = None
                      ) -> tuple[dict[int, ir.Value], dict[int, ir.Value]]:
        """Tile-local and global coords of block `i` of `walk` (of block 0 where `keep` is
        false); `offset`, if given, says that `i` is the thread id plus that constant."""
        k, w = self.k, layout.Walk(tuple(walk))
        levels = w.levels_of_offset(index_expr.var("t"), self.plan.workgroup_size, offset) \
            if offset is not None else None
        index = k.index(levels, t=self.tid) if levels is not None else \
            k.index(w.levels_expr(index_expr.var("i")), i=i)
        if keep is not None:
            index = [arith.select(keep, ix, k.const(0)) for ix in index]
        names = [f"level{n}" for n in range(len(index))]
        coords = w.coords_expr([index_expr.var(x) for x in names])
        local = dict(zip(coords, k.index(list(coords.values()), **dict(zip(names, index)))))
        glob = dict(origin)
        for x in local:
            glob[x] = arith.addi(origin[x], local[x])
        return local, glob

    def _extent(self, x: int) -> int | ir.Value:
        """The extent of dim `x` of a walk (an index value where dynamic; a flat walk's is static)."""
        return self.p.shape[self.plan.col_b] * self.p.shape[self.p.a] if x == FLAT else self.extents[x]

    def _ragged(self, x: int) -> bool:
        """Whether the tiles along `x` may run past its extent (a dynamic one always may)."""
        e = self._extent(x)
        return not isinstance(e, int) or e % self._tile(x) != 0

    def _bound(self, x: int) -> ir.Value:
        e = self._extent(x)
        return self.k.const(e) if isinstance(e, int) else e

    def _tile(self, x: int) -> int:
        return self.plan.tile[self.plan.col_b] * self.plan.tile[self.p.a] if x == FLAT else self.plan.tile[x]

    def _each_block_looped(self, walk: Walk, origin: dict[int, ir.Value], vtype, load, sink) -> None:
        """One block per loop iteration, loads and stores under one guard (unroll=0)."""
        k, plan = self.k, self.plan
        counts = [c for _, c, _ in walk]
        loop = scf.ForOp(k.thread_id(), k.const(math.prod(counts)), k.const(plan.workgroup_size))
        with ir.InsertionPoint(loop.body):
            local, glob = self._block_coords(walk, loop.induction_variable, origin)
            ragged = [x for x in local if self._ragged(x)]
            if ragged:
                inside = [arith.cmpi(arith.CmpIPredicate.ult, glob[x], self._bound(x)) for x in ragged]
                cond = inside[0]
                for c in inside[1:]:
                    cond = arith.andi(cond, c)
                guard = scf.IfOp(cond)
                with ir.InsertionPoint(guard.then_block):
                    sink(load(local, glob), local, glob)
                    scf.yield_([])
            else:
                sink(load(local, glob), local, glob)
            scf.yield_([])

    # --- accesses ---

    def _read_along(self, buf: ir.Value, dims: list[int], coords: dict[int, ir.Value], along: int,
                    v: int) -> ir.Value:
        """`v` elements of `buf` (over `dims`) from `coords` on along dim `along`: one vector
        read if `along` is contiguous, one element broadcast if `buf` lacks it, else `v`
        element reads (an input strided along `along` that is not staged)."""
        etype = ir.MemRefType(buf.type).element_type
        vtype = ir.VectorType.get([v], etype)
        idx = [coords[x] for x in dims]
        if dims and dims[-1] == along:
            return read_vector(vtype, buf, idx, self._aligned(buf, v))
        if along not in dims:
            return vector.broadcast(vtype, memref.load(buf, idx))
        pos = dims.index(along)
        elems = [memref.load(buf, idx[:pos] + [arith.addi(idx[pos], self.k.const(j)) if j else idx[pos]]
                             + idx[pos + 1:]) for j in range(v)]
        return vector.from_elements(vtype, elems)

    def _column(self, key: StageKey, local: dict) -> ir.Value:
        """vec[a] elements of an LDS buffer along `a` from `local` (a column: one read each)."""
        plan, a = self.plan, self.p.a
        buf = self.lds[key]
        vtype = ir.VectorType.get([plan.vec[a]], ir.MemRefType(buf.type).element_type)
        return vector.from_elements(vtype, [
            memref.load(buf, [arith.addi(local[x], self.k.const(j)) if x == a and j else local[x]
                              for x in plan.stage(key)]) for j in range(plan.vec[a])])

    def _preload(self, i: int, glob: dict) -> ir.Value:
        x = self.p.inputs[i]
        return self._read_along(self.views[i], x.dims, glob, x.fastest, self.plan.vec[x.fastest])

    def _to_lds(self, key: StageKey):
        def sink(value: ir.Value, local: dict, glob: dict) -> None:
            write_vector(value, self.lds[key], [local[d] for d in self.plan.stage(key)])
        return sink

    def _to_output(self, value: ir.Value, local: dict, glob: dict) -> None:
        write_vector(value, self.views[-1], [glob[d] for d in self.p.output.dims],
                     self._aligned(self.views[-1], ir.VectorType(value.type).shape[0]))

    def _aligned(self, buf: ir.Value, v: int) -> int:
        """The alignment to state on a global access of `v` elements of `buf` (whose index
        along its last dim, the walks' vector starts, is a multiple of `v`): LLVM cannot see
        it through a binding at an offset, and CUDA split such a store of 8 f16 into 2-byte
        ones."""
        return global_alignment(buf, v, self.k.target.backend)

    def _body(self, staged: dict[int, ir.Value], glob: dict, along: int) -> ir.Value:
        """The body on vectors along `along`: `staged` inputs as given, others from global."""
        v = self.plan.vec[along]
        values = [staged[i] if i in staged else self._read_along(view, x.dims, glob, along, v)
                  for i, (x, view) in enumerate(zip(self.p.inputs, self.views))]
        return vectorize_body(self.d.root, values, v)

    def _compute_from_lds(self, local: dict, glob: dict) -> ir.Value:
        return self._body({i: self._column(i, local) for i in self.lds}, glob, self.p.a)

    def _compute_for_lds(self, local: dict, glob: dict) -> ir.Value:
        return self._body({}, glob, self.plan.stage(OUTPUT)[-1])

    # --- the flat column walk (all of a short `a` in the tile) ---

    def _flat_view(self, x: Operand) -> ir.Value:
        """An operand ending with (col_b, a) over its collapsed dims with those two merged."""
        groups = self.p.groups
        b, a = self.plan.col_b, self.p.a
        return collapsed_view(x.binding.memref(), [groups[g] for g in x.dims[:-2]] + [groups[b] + groups[a]],
                              list(self.p.output.binding.tensor_type.shape))

    def _compute_flat(self, local: dict, glob: dict) -> ir.Value:
        """plan.flat output elements from flat position local[FLAT]: staged inputs read one
        element each from LDS, inputs laid out like the output as one vector, others one
        element each (or broadcast)."""
        k, p, plan = self.k, self.p, self.plan
        a, b, n = p.a, plan.col_b, plan.flat
        coords = []  # (local, global) coords of each element
        for j in range(n):
            pos = arith.addi(local[FLAT], k.const(j)) if j else local[FLAT]
            loc = dict(local)
            loc[b], loc[a] = arith.divui(pos, k.const(p.shape[a])), arith.remui(pos, k.const(p.shape[a]))
            glo = dict(glob)
            glo[b], glo[a] = arith.addi(glob[b], loc[b]) if b in glob else loc[b], loc[a]
            coords.append((loc, glo))
        values = []
        for i, x in enumerate(p.inputs):
            etype = x.binding.tensor_type.element_type
            vtype = ir.VectorType.get([n], etype)
            if i in self.lds:
                values.append(vector.from_elements(vtype, [
                    memref.load(self.lds[i], [loc[d] for d in plan.stage(i)]) for loc, _ in coords]))
            elif x.dims[-2:] == [b, a]:
                values.append(read_vector(vtype, self.flat_views[i], [glob[d] for d in x.dims[:-2]] + [glob[FLAT]],
                                          self._aligned(self.flat_views[i], n)))
            elif a not in x.dims and b not in x.dims:
                values.append(self._read_along(self.views[i], x.dims, glob, a, n))
            else:
                values.append(vector.from_elements(vtype, [
                    memref.load(self.views[i], [glo[d] for d in x.dims]) for _, glo in coords]))
        return vectorize_body(self.d.root, values, n)

    def _to_output_flat(self, value: ir.Value, local: dict, glob: dict) -> None:
        write_vector(value, self.flat_views[-1], [glob[d] for d in self.p.output.dims[:-2]] + [glob[FLAT]],
                     self._aligned(self.flat_views[-1], self.plan.flat))
