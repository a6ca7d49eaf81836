"""ldsopt-preload-transposed: pointwise dispatches with transposed operands, through LDS.

Contract.
- Matches a dispatch whose root is an all-parallel `linalg.generic` with an elementwise body
  (arith, math), projected-permutation input maps and a permutation output map, in which
  some input that varies along the output's fastest dim (`a`) is fastest along another dim
  (its `b`): NHWC + NCHW -> NCHW, 2-D transposes, N-D permutations, several inputs
  transposed alike or differently, broadcasts mixed in. Element types are any the body
  takes (f32, f16, bf16, i8, i32, ...); ranks are not limited.
- Leaves alone dispatches without such an input (no transpose, or a permutation that
  keeps the fastest dim): they are lower_elementwise's.
- Needs a GPU target (#iree_gpu.target around the dispatch or lds-opt --target); a matched
  dispatch without one is an error.

The kernel (after seed 000 and MIGraphX's tiled pointwise kernels, anchors/transpose-promotion.md):
- dims that stay contiguous and in order in every operand are collapsed first (NHWC ->
  NCHW over 7x7 becomes (n, hw, c) -> (n, c, hw)), so `a` is as long as memory allows;
- each workgroup owns a tile spanning `a` (`row-bytes` of output, or all of a short `a`)
  and every `b`; the `b` extents (then, for small tiles, other dims') double round robin
  while the tile holds at most `tile-bytes` of output and its LDS fits
  `1/workgroups-per-cu` of the target's. A short `a` (HW = 49) thus gives a tile of all of
  HW and several channels. Extents need not divide the tile: each vector
  access is guarded (vector widths divide the extents, so a vector is all in or all out);
- workgroups walk the tiles in a grid-stride loop (a barrier first when a workgroup may
  take several), so any size fits the target's max workgroup count;
- load side (the default): each transposed input's tile is read from global memory with
  vectors along its own contiguous dim and written to a padded LDS buffer in its own order;
  barrier; threads then walk the tile in the output's order with vectors along `a`, read
  the staged inputs as columns from LDS and the others straight from global memory,
  apply the body to whole vectors and store vectors along `a`;
- store side (permutation normalization): when two or more inputs share one `b` and every
  input varying along `a` is among them, the output is the odd one out: the body runs in
  the inputs' order (vectors along `b`, global reads), results go to one padded LDS
  buffer, barrier, and the output is stored from LDS columns with vectors along `a`;
- in the column walk (LDS columns read, output stored) `g` neighbouring lanes take
  neighbouring vectors along `a`, the next lanes step along `b` (where all LDS buffers
  share one `b`): `g` lanes store one contiguous segment of an output row (at least
  `store-segment-bytes`), and lanes reading different LDS rows at once spread over banks;
- `g` and the padding of each LDS row (up to two row vectors) are chosen with the bank
  model (ldsopt/banks.py) for the target's banks and wave: those that make the first
  wave's row writes and column reads cheapest (ties: the larger `g`, the smaller pad).

Measured on an H200 (lds-bench, NHWC + NCHW -> NCHW, fraction of copy bandwidth; IREE
3.13's default in brackets): 64x56x56x128 f32 90% (69%), f16 81% (50%); 256x7x7x2048 f32
88% (13%), f16 68% (7.4%); 32x49x7x1009 f32 58% (9.9%). With all lanes along `a` (no
`g`) 64x56x56x128 f16 took 84 us instead of 45. Reading two or four row neighbours at
once and transposing them in registers was slower there (130-220 us) and was dropped.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt import target as target_model
from ldsopt.banks import BankModel
from ldsopt.dispatch import Binding, Dispatch, analyze, dispatch_funcs
from ldsopt.elementwise import (body_is_elementwise, collapse_groups, collapsed_view, element_bits, map_dims,
                                vectorize_body)
from ldsopt.kernel import LOWERED_BY, Kernel, read_vector, write_vector
from ldsopt.registry import ModulePass, PassError, option

OUTPUT = -1  # the stage key of the output (inputs are keyed by position)


@dataclasses.dataclass
class Operand:
    binding: Binding
    dims: list[int]  # collapsed iteration dims in the operand's memory order (last: contiguous)

    @property
    def fastest(self) -> int | None:
        return self.dims[-1] if self.dims else None

    @property
    def elem_bytes(self) -> int:
        return max(1, element_bits(self.binding.tensor_type.element_type) // 8)


@dataclasses.dataclass
class Problem:
    """The dispatch after collapsing, in the output's dim order (the output is the identity)."""

    shape: list[int]
    groups: list[list[int]]  # original (output-order) dims of each collapsed dim
    inputs: list[Operand]
    output: Operand

    @property
    def a(self) -> int:
        return len(self.shape) - 1

    def transposed(self) -> list[int]:
        """Inputs that vary along `a` but are contiguous along another dim."""
        return [i for i, x in enumerate(self.inputs) if self.a in x.dims and x.fastest != self.a]


Walk = list[tuple[int, int, int]]
"""How threads step through a tile: levels (dim, count, step), the fastest first; block
index i is split over the counts, and a dim's coordinate sums its levels' index * step."""


@dataclasses.dataclass
class Plan:
    """The tile, the LDS buffers and the walks of one dispatch. The tile spans the core dims
    (`a` and every `b`, vectors along them) and, when those are whole and the tile still
    small, dims next to them; its extent is 1 along the others."""

    a: int
    core: list[int]              # `a` and every `b`
    vec: dict[int, int]          # vector width along each core dim
    tile: list[int]              # tile extent per dim
    sources: dict[int, list[int]]  # input position or OUTPUT -> the memory order its LDS buffer follows
    store_side: bool             # the output goes through LDS (else the transposed inputs do)
    col_b: int | None            # the `b` all LDS buffers share, if they do
    col_g: int = 1               # column walk: lanes along `a` before stepping along col_b
    pads: dict[int, int] = dataclasses.field(default_factory=dict)  # LDS row padding, in elements
    workgroup_size: int = 0

    @property
    def tiled(self) -> list[int]:
        """The dims the tile spans, in output order."""
        return sorted(set(self.core) | {x for x, t in enumerate(self.tile) if t > 1})

    def stage(self, key: int) -> list[int]:
        """The dims of an LDS buffer, in its memory order (rows along the last, a `b`)."""
        return [x for x in self.sources[key] if x in self.tiled]

    def row_walk(self, key: int) -> Walk:
        """Row accesses of an LDS buffer (and the global ones of its source): vectors along
        its `b`, then its other dims, innermost first."""
        dims = self.stage(key)
        b = dims[-1]
        return [(b, self.tile[b] // self.vec[b], self.vec[b])] + [(x, self.tile[x], 1) for x in reversed(dims[:-1])]

    @property
    def column_walk(self) -> Walk:
        """Column accesses (the output's order), vectors along `a`: `col_g` lanes side by side
        along `a`, then along col_b, then the rest of `a`, then the other dims."""
        a, va = self.a, self.vec[self.a]
        walk = [(a, self.col_g, va)]
        if self.col_b is not None:
            walk.append((self.col_b, self.tile[self.col_b], 1))
        walk.append((a, self.tile[a] // va // self.col_g, va * self.col_g))
        return walk + [(x, self.tile[x], 1) for x in reversed(self.tiled) if x not in (a, self.col_b)]

    def pad_choices(self, key: int) -> range:
        """Row paddings tried: up to two row vectors."""
        return range(2 * self.vec[self.sources[key][-1]] + 1)

    def lds_shape(self, key: int, pad: int | None = None) -> list[int]:
        dims = self.stage(key)
        return [self.tile[d] for d in dims[:-1]] + [self.tile[dims[-1]] + (self.pads[key] if pad is None else pad)]


def analyze_problem(d: Dispatch) -> Problem | None:
    """The collapsed problem if `d` is a pointwise generic with a transposed input, else None."""
    root = d.root
    if any("parallel" not in str(it) for it in root.attributes["iterator_types"]) or not body_is_elementwise(root):
        return None
    dims = [map_dims(ir.AffineMapAttr(m).value) for m in root.attributes["indexing_maps"]]
    if any(x is None or len(set(x)) != len(x) for x in dims):
        return None
    out = dims[-1]
    rank = len(root.attributes["iterator_types"])
    if sorted(out) != list(range(rank)):
        return None
    # Renumber loops in the output's order: the output becomes the identity.
    renamed = [[out.index(x) for x in od] for od in dims]
    shape = list(d.output.tensor_type.shape)
    groups = collapse_groups(shape, renamed)
    group_of = {x: g for g, grp in enumerate(groups) for x in grp}

    def collapse(od: list[int]) -> list[int]:
        return list(dict.fromkeys(group_of[x] for x in od))

    p = Problem([math.prod(shape[x] for x in g) for g in groups], groups,
                [Operand(b, collapse(od)) for b, od in zip(d.inputs, renamed)],
                Operand(d.output, collapse(renamed[-1])))
    return p if p.transposed() else None


def stores_through_lds(p: Problem) -> bool:
    """The output is the odd one out: two or more inputs share one contiguous dim `b`, and
    every input that varies along `a` is among them (one LDS buffer instead of several)."""
    t = p.transposed()
    return len(t) >= 2 and len({p.inputs[i].fastest for i in t}) == 1 and \
        all(i in t for i, x in enumerate(p.inputs) if p.a in x.dims)


def _widest_pow2_dividing(n: int, limit: int) -> int:
    return math.gcd(n, 1 << (limit.bit_length() - 1))


def _walk_coords(walk: Walk, i: int) -> dict[int, int]:
    """Tile-local coords of block `i` of `walk`."""
    coords: dict[int, int] = {}
    for dim, count, step in walk:
        coords[dim] = coords.get(dim, 0) + i % count * step
        i //= count
    return coords


def _row_major(coords: list[int], shape: list[int]) -> int:
    off = 0
    for c, s in zip(coords, shape):
        off = off * s + c
    return off


@dataclasses.dataclass(frozen=True)
class PreloadTransposed(ModulePass):
    NAME = "ldsopt-preload-transposed"
    SUMMARY = "Stage transposed operands of pointwise dispatches through padded LDS tiles"

    workgroup_size: int = option(256, "threads per workgroup at most")
    max_workgroups: int = option(65535, "workgroups at most (a grid-stride loop covers the rest)")
    tile_bytes: int = option(16384, "output bytes a workgroup's tile holds at most")
    row_bytes: int = option(256, "output bytes a tile spans along the output's contiguous dim")
    workgroups_per_cu: int = option(2, "workgroups that must fit the target's LDS together")
    store_segment_bytes: int = option(128, "contiguous output bytes neighbouring lanes store at least")

    def run(self, module: ir.Operation) -> None:
        for func in dispatch_funcs(module):
            if LOWERED_BY in func.attributes:
                continue
            d = analyze(func, ("linalg.generic",))
            p = analyze_problem(d) if d is not None else None
            if p is None:
                continue
            tgt = target_model.of_op(func)
            if tgt is None:
                raise PassError(func.location, f"{self.NAME}: no GPU target for this dispatch "
                                "(no #iree_gpu.target around it; lds-opt --target names one)")
            _Emitter(d, p, self.plan(p, tgt), tgt, self.max_workgroups).emit(self.NAME)

    # --- planning (pure Python) ---------------------------------------------------------

    def plan(self, p: Problem, tgt: target_model.Target) -> Plan:
        t = p.transposed()
        core = sorted({p.a} | {p.inputs[i].fastest for i in t})
        vmax = min(tgt.vector_elems(element_bits(x.binding.tensor_type.element_type)) for x in p.inputs + [p.output])
        vec = {x: _widest_pow2_dividing(p.shape[x], vmax) for x in core}
        store_side = stores_through_lds(p)
        sources = {OUTPUT: p.inputs[t[0]].dims} if store_side else {i: p.inputs[i].dims for i in t}
        rows = {dims[-1] for dims in sources.values()}
        col_b = rows.pop() if len(rows) == 1 else None
        plan = Plan(p.a, core, vec, [vec.get(x, 1) for x in range(len(p.shape))], sources, store_side, col_b)
        self._grow_tile(p, plan, tgt)
        self._choose_lds_layout(p, plan, tgt)
        blocks = [math.prod(c for _, c, _ in plan.row_walk(k)) for k in sources] + \
            [math.prod(c for _, c, _ in plan.column_walk)]
        sg = tgt.subgroup_size
        plan.workgroup_size = min(self.workgroup_size, tgt.max_threads, math.ceil(max(blocks) / sg) * sg)
        return plan

    def _stage_elem_bytes(self, p: Problem, key: int) -> int:
        return (p.output if key == OUTPUT else p.inputs[key]).elem_bytes

    def _grow_tile(self, p: Problem, plan: Plan, tgt: target_model.Target) -> None:
        """`a` first: `row-bytes` of output, or whole when shorter than two such rows (HW = 49
        stays one row and the tile takes several channels instead). Then the tile doubles
        round robin, the other core dims first, then the rest innermost first (more work for
        small `a` and `b`), while it holds at most `tile-bytes` of output and its LDS (with the
        largest pad tried) fits the budget."""
        budget = tgt.lds_bytes // self.workgroups_per_cu
        max_elems = max(1, self.tile_bytes // p.output.elem_bytes)
        va = plan.vec[p.a]
        row = max(va, self.row_bytes // p.output.elem_bytes // va * va)
        plan.tile[p.a] = p.shape[p.a] if p.shape[p.a] < 2 * row else row

        def lds_bytes() -> int:
            return sum(math.prod(plan.lds_shape(k, plan.pad_choices(k)[-1])) * self._stage_elem_bytes(p, k)
                       for k in plan.sources)

        cores = [x for x in plan.core if x != p.a]
        others = [x for x in reversed(range(len(p.shape))) if x not in plan.core]
        for growing in (cores, others):
            while growing:
                for x in list(growing):
                    old = plan.tile[x]
                    plan.tile[x] = min(2 * old, p.shape[x])
                    if plan.tile[x] == old or math.prod(plan.tile) > max_elems or lds_bytes() > budget:
                        plan.tile[x] = old
                        growing.remove(x)

    def _choose_lds_layout(self, p: Problem, plan: Plan, tgt: target_model.Target) -> None:
        """Sets the column walk's lanes along `a` (col_g) and each buffer's row padding to what
        makes the first wave's LDS accesses cheapest in the bank model. col_g ranges over the
        divisors of the tile's vectors along `a` that give each output row at least
        `store-segment-bytes` from neighbouring lanes; ties: the larger col_g (longer
        segments), then the smaller pad."""
        va = plan.vec[p.a]
        n_a = plan.tile[p.a] // va
        segment = max(1, math.ceil(self.store_segment_bytes / (va * p.output.elem_bytes)))
        groups = [g for g in range(1, n_a + 1) if n_a % g == 0 and (g >= segment or g == n_a)]
        best = None
        for g in groups:
            plan.col_g = g
            choices = {k: min((self._lds_cycles(p, plan, k, pad, tgt), pad) for pad in plan.pad_choices(k))
                       for k in plan.sources}
            cost = (sum(c for c, _ in choices.values()), -g)
            if best is None or cost < best[0]:
                best = (cost, g, {k: pad for k, (_, pad) in choices.items()})
        _, plan.col_g, plan.pads = best

    def _lds_cycles(self, p: Problem, plan: Plan, key: int, pad: int, tgt: target_model.Target) -> int:
        """Bank-model cycles (phases plus conflicts) of the first wave's LDS accesses to buffer
        `key` with rows padded by `pad`: its row writes, then its column reads (one access
        per `a` position)."""
        model = BankModel(tgt.lds_banks, tgt.lds_bank_bytes, tgt.subgroup_size)
        eb = self._stage_elem_bytes(p, key)
        dims = plan.stage(key)
        shape = plan.lds_shape(key, pad)

        def first_wave(walk: Walk) -> list[dict[int, int] | None]:
            n = math.prod(c for _, c, _ in walk)
            return [_walk_coords(walk, lane) if lane < n else None for lane in range(tgt.subgroup_size)]

        def addr(c: dict[int, int] | None, j: int = 0) -> int | None:
            return None if c is None else _row_major([c[x] + (j if x == p.a else 0) for x in dims], shape) * eb

        row_walk = plan.row_walk(key)
        writers, readers = first_wave(row_walk), first_wave(plan.column_walk)
        accesses = [([addr(c) for c in writers], row_walk[0][2] * eb)] + \
            [([addr(c, j) for c in readers], eb) for j in range(plan.vec[p.a])]
        return sum(math.ceil(tgt.subgroup_size / model.lanes_per_phase(nbytes)) + model.conflicts(lanes, nbytes)
                   for lanes, nbytes in accesses)


class _Emitter:
    """Builds the kernel of one planned dispatch."""

    def __init__(self, d: Dispatch, p: Problem, plan: Plan, tgt: target_model.Target, max_workgroups: int):
        self.d, self.p, self.plan = d, p, plan
        counts = [math.ceil(s / t) for s, t in zip(p.shape, plan.tile)]
        self.tile_counts = counts
        self.n_tiles = math.prod(counts)
        n_wg = max(1, min(self.n_tiles, max_workgroups, tgt.max_workgroup_counts[0]))
        self.k = Kernel(d, tgt, (plan.workgroup_size, 1, 1), (n_wg, 1, 1))

    def emit(self, pass_name: str) -> None:
        k, p, plan = self.k, self.p, self.plan
        with k.ip, self.d.location:
            self.views = [self._view(x) for x in p.inputs + [p.output]]
            self.lds = {key: self._alloc(key) for key in plan.sources}
            loop = scf.ForOp(k.block_id(), k.const(self.n_tiles), k.const(k.grid[0]))
        with ir.InsertionPoint(loop.body), self.d.location:
            if self.n_tiles > k.grid[0]:
                gpu.barrier()  # the previous tile's LDS reads are done before it is overwritten
            origin = self._tile_origin(loop.induction_variable)
            if plan.store_side:
                self._each_block(plan.row_walk(OUTPUT), origin, self._compute_to_lds)
                gpu.barrier()
                self._each_block(plan.column_walk, origin, self._store_from_lds)
            else:
                for i in plan.sources:
                    self._each_block(plan.row_walk(i), origin, lambda loc, glob, i=i: self._preload(i, loc, glob))
                gpu.barrier()
                self._each_block(plan.column_walk, origin, self._compute_to_global)
            scf.yield_([])
        k.finish(pass_name)

    # --- setup ---

    def _view(self, x: Operand) -> ir.Value:
        """The operand's binding over its collapsed dims (groups of output-order dims)."""
        return collapsed_view(x.binding.memref(), [self.p.groups[g] for g in x.dims],
                              list(self.p.output.binding.tensor_type.shape))

    def _alloc(self, key: int) -> ir.Value:
        x = self.p.output if key == OUTPUT else self.p.inputs[key]
        mtype = ir.MemRefType.get(self.plan.lds_shape(key), x.binding.tensor_type.element_type,
                                  memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>"))
        return memref.alloc(mtype, [], [])

    def _tile_origin(self, t: ir.Value) -> dict[int, ir.Value]:
        """The first element of tile `t` along every dim (tiles walked with the last dim fastest)."""
        k, tile, counts = self.k, self.plan.tile, self.tile_counts
        idx = k.delinearize(t, counts)
        return {x: k.const(0) if counts[x] == 1 else i if tile[x] == 1 else arith.muli(i, k.const(tile[x]))
                for x, i in enumerate(idx)}

    # --- walking a tile ---

    def _each_block(self, walk: Walk, origin: dict[int, ir.Value], body) -> None:
        """Each thread takes every workgroup-size-th block of `walk` and calls body(local
        coords, global coords) for it when the block lies inside the tensor."""
        k, plan = self.k, self.plan
        counts = [c for _, c, _ in walk]
        loop = scf.ForOp(k.thread_id(), k.const(math.prod(counts)), k.const(plan.workgroup_size))
        with ir.InsertionPoint(loop.body):
            index = k.delinearize(loop.induction_variable, counts[::-1])[::-1]  # the fastest level first
            local: dict[int, ir.Value] = {}
            for (dim, count, step), i in zip(walk, index):
                if count == 1:
                    continue
                term = i if step == 1 else arith.muli(i, k.const(step))
                local[dim] = arith.addi(local[dim], term) if dim in local else term
            for dim, _, _ in walk:
                local.setdefault(dim, k.const(0))
            glob = dict(origin)
            for x in local:
                glob[x] = arith.addi(origin[x], local[x])
            ragged = [x for x in local if self.p.shape[x] % plan.tile[x]]
            if ragged:
                inside = [arith.cmpi(arith.CmpIPredicate.ult, glob[x], k.const(self.p.shape[x])) for x in ragged]
                cond = inside[0]
                for c in inside[1:]:
                    cond = arith.andi(cond, c)
                guard = scf.IfOp(cond)
                with ir.InsertionPoint(guard.then_block):
                    body(local, glob)
                    scf.yield_([])
            else:
                body(local, glob)
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
            return read_vector(vtype, buf, idx)
        if along not in dims:
            return vector.broadcast(vtype, memref.load(buf, idx))
        pos = dims.index(along)
        elems = [memref.load(buf, idx[:pos] + [arith.addi(idx[pos], self.k.const(j)) if j else idx[pos]]
                             + idx[pos + 1:]) for j in range(v)]
        return vector.from_elements(vtype, elems)

    def _column(self, key: int, local: dict) -> ir.Value:
        """vec[a] elements of an LDS buffer along `a` from `local` (a column: one read each)."""
        plan, a = self.plan, self.p.a
        buf = self.lds[key]
        vtype = ir.VectorType.get([plan.vec[a]], ir.MemRefType(buf.type).element_type)
        return vector.from_elements(vtype, [
            memref.load(buf, [arith.addi(local[x], self.k.const(j)) if x == a and j else local[x]
                              for x in plan.stage(key)]) for j in range(plan.vec[a])])

    def _preload(self, i: int, local: dict, glob: dict) -> None:
        x, dims = self.p.inputs[i], self.plan.stage(i)
        value = self._read_along(self.views[i], x.dims, glob, x.fastest, self.plan.vec[x.fastest])
        write_vector(value, self.lds[i], [local[d] for d in dims])

    def _body(self, staged: dict[int, ir.Value], glob: dict, along: int) -> ir.Value:
        """The body on vectors along `along`: `staged` inputs as given, others from global."""
        v = self.plan.vec[along]
        values = [staged[i] if i in staged else self._read_along(view, x.dims, glob, along, v)
                  for i, (x, view) in enumerate(zip(self.p.inputs, self.views))]
        return vectorize_body(self.d.root, values, v)

    def _compute_to_global(self, local: dict, glob: dict) -> None:
        result = self._body({i: self._column(i, local) for i in self.lds}, glob, self.p.a)
        write_vector(result, self.views[-1], [glob[d] for d in self.p.output.dims])

    def _compute_to_lds(self, local: dict, glob: dict) -> None:
        dims = self.plan.stage(OUTPUT)
        write_vector(self._body({}, glob, dims[-1]), self.lds[OUTPUT], [local[d] for d in dims])

    def _store_from_lds(self, local: dict, glob: dict) -> None:
        write_vector(self._column(OUTPUT, local), self.views[-1], [glob[d] for d in self.p.output.dims])
