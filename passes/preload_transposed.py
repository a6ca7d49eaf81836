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

The kernel (after seed 000 and MIGraphX's tiled pointwise kernels):
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
- within a tile each thread takes every workgroup-size-th block of a walk, `unroll` blocks at
  once: all their loads first, then all their stores (only the loads of ragged blocks and
  the stores sit under guards), so a thread keeps several loads in flight;
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
- a tile that holds all of a short `a` (HW = 49) whose `b` is the output's next dim covers
  one contiguous output range per other coordinate: the column walk then runs over that
  range as one flat dim with vectors as wide as the range's extents allow (`flat`), reading
  each element's column from LDS and the inputs laid out like the output as vectors, so
  HW = 49 no longer means scalar global accesses;
- `g` and the padding of each LDS row (up to two row vectors) are chosen with the bank
  model (ldsopt/layout/banks.py) for the target's banks and wave: those that make the first
  wave's row writes and column reads cheapest (ties: the larger `g`, the smaller pad). A
  row vector costs as many writes as the padded rows' alignment splits it into (f16 rows
  of 64 + 1 halves: 8 two-byte writes; of 64 + 2: 4 four-byte ones).

Measurements (the H200, the tile and unroll sizes tried, the variants dropped):
bench/results/cuda/README.md.
"""

from __future__ import annotations

import dataclasses
import enum
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt.layout import index_expr
from ldsopt.layout import maps as layout
from ldsopt import target as target_model
from ldsopt.codegen.dispatch import Binding, Dispatch
from ldsopt.codegen.elementwise import body_is_elementwise, collapse_groups, collapsed_view, map_dims, vectorize_body
from ldsopt.ir_types import element_bits
from ldsopt.codegen.kernel import Kernel, matched_dispatches, read_vector, write_vector
from ldsopt.registry import ModulePass, option
from ldsopt.remarks import Unmatched



class Marker(enum.Enum):
    """Keys that are neither an input's position nor a dim."""

    OUTPUT = "output"  # the stage key of the output, beside the inputs' positions
    FLAT = "flat"  # a walk's dim, beside the dims: the output's (col_b, a) tile as one range


OUTPUT, FLAT = Marker.OUTPUT, Marker.FLAT
# An LDS buffer's key: the position of the input it stages, or OUTPUT.
StageKey = int | Marker


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
class PreloadProblem:
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


Walk = list[tuple[int | Marker, int, int]]
"""How threads step through a tile: the levels (dim, count, step) of a `layout.Walk`, the
fastest first."""


@dataclasses.dataclass
class PreloadPlan:
    """The tile, the LDS buffers and the walks of one dispatch. The tile spans the core dims
    (`a` and every `b`, vectors along them) and, when those are whole and the tile still
    small, dims next to them; its extent is 1 along the others."""

    a: int
    core: list[int]              # `a` and every `b`
    vec: dict[int, int]          # vector width along each core dim
    tile: list[int]              # tile extent per dim
    sources: dict[StageKey, list[int]]  # the memory order each LDS buffer follows
    store_side: bool             # the output goes through LDS (else the transposed inputs do)
    col_b: int | None            # the `b` all LDS buffers share, if they do
    col_g: int = 1               # column walk: lanes along `a` before stepping along col_b
    pads: dict[StageKey, int] = dataclasses.field(default_factory=dict)  # LDS row padding, in elements
    workgroup_size: int = 0
    flat: int = 0                # column walk over the output's (col_b, a) tile as one range: its vector width

    @property
    def tiled(self) -> list[int]:
        """The dims the tile spans, in output order."""
        return sorted(set(self.core) | {x for x, t in enumerate(self.tile) if t > 1})

    def stage(self, key: StageKey) -> list[int]:
        """The dims of an LDS buffer, in its memory order (rows along the last, a `b`)."""
        return [x for x in self.sources[key] if x in self.tiled]

    def row_walk(self, key: StageKey) -> Walk:
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
        if self.flat:
            return [(FLAT, self.tile[self.col_b] * self.tile[a] // self.flat, self.flat)] + \
                [(x, self.tile[x], 1) for x in reversed(self.tiled) if x not in (a, self.col_b)]
        walk = [(a, self.col_g, va)]
        if self.col_b is not None:
            walk.append((self.col_b, self.tile[self.col_b], 1))
        walk.append((a, self.tile[a] // va // self.col_g, va * self.col_g))
        return walk + [(x, self.tile[x], 1) for x in reversed(self.tiled) if x not in (a, self.col_b)]

    def pad_choices(self, key: StageKey) -> range:
        """Row paddings tried: up to two row vectors."""
        return range(2 * self.vec[self.sources[key][-1]] + 1)

    def lds_shape(self, key: StageKey, pad: int | None = None) -> list[int]:
        dims = self.stage(key)
        return [self.tile[d] for d in dims[:-1]] + [self.tile[dims[-1]] + (self.pads[key] if pad is None else pad)]


def analyze_problem(d: Dispatch) -> PreloadProblem | Unmatched:
    """The collapsed problem if `d` is a pointwise generic with a transposed input."""
    root = d.root
    if any("parallel" not in str(it) for it in root.attributes["iterator_types"]):
        return Unmatched("not pointwise: it has reduced loops")
    if not body_is_elementwise(root):
        return Unmatched("its body is not elementwise arith/math ops")
    dims = [map_dims(ir.AffineMapAttr(m).value) for m in root.attributes["indexing_maps"]]
    if any(x is None or len(set(x)) != len(x) for x in dims):
        return Unmatched("an indexing map is not a permutation or projection of the loops")
    out = dims[-1]
    rank = len(root.attributes["iterator_types"])
    if sorted(out) != list(range(rank)):
        return Unmatched("the output does not cover every loop")
    # Renumber loops in the output's order: the output becomes the identity.
    renamed = [[out.index(x) for x in od] for od in dims]
    shape = list(d.output.tensor_type.shape)
    groups = collapse_groups(shape, renamed)
    group_of = {x: g for g, grp in enumerate(groups) for x in grp}

    def collapse(od: list[int]) -> list[int]:
        return list(dict.fromkeys(group_of[x] for x in od))

    p = PreloadProblem([math.prod(shape[x] for x in g) for g in groups], groups,
                       [Operand(b, collapse(od)) for b, od in zip(d.inputs, renamed)],
                       Operand(d.output, collapse(renamed[-1])))
    return p if p.transposed() else Unmatched("no input is transposed: none varies along the output's "
                                                      "fastest dim while contiguous along another")


def stores_through_lds(p: PreloadProblem) -> bool:
    """The output is the odd one out: two or more inputs share one contiguous dim `b`, and
    every input that varies along `a` is among them (one LDS buffer instead of several)."""
    t = p.transposed()
    return len(t) >= 2 and len({p.inputs[i].fastest for i in t}) == 1 and \
        all(i in t for i, x in enumerate(p.inputs) if p.a in x.dims)


def _widest_pow2_dividing(n: int, limit: int) -> int:
    return math.gcd(n, 1 << (limit.bit_length() - 1))


def _zeros(vtype: ir.VectorType) -> ir.Value:
    etype = vtype.element_type
    zero = ir.FloatAttr.get(etype, 0.0) if isinstance(etype, ir.FloatType) else ir.IntegerAttr.get(etype, 0)
    return arith.constant(vtype, ir.DenseElementsAttr.get_splat(vtype, zero))


def _row_major(coords: list[int], shape: list[int]) -> int:
    off = 0
    for c, s in zip(coords, shape):
        off = off * s + c
    return off


@dataclasses.dataclass(frozen=True)
class PreloadTransposed(ModulePass):
    NAME = "ldsopt-preload-transposed"
    SUMMARY = "Stage transposed operands of pointwise dispatches through padded LDS tiles"

    workgroup_size: int = option(256, "threads per workgroup at most", min=1, at_most="max_threads")
    max_workgroups: int = option(65535, "workgroups at most (a grid-stride loop covers the rest)", min=1)
    tile_bytes: int = option(16384, "output bytes a workgroup's tile holds at most", min=1)
    row_bytes: int = option(256, "output bytes a tile spans along the output's contiguous dim", min=1)
    workgroups_per_cu: int = option(2, "workgroups that must fit the target's LDS together", min=1)
    store_segment_bytes: int = option(128, "contiguous output bytes neighbouring lanes store at least", min=1)
    unroll: int = option(16, "blocks a thread loads at once before storing any (0: one block per loop "
                         "iteration, loads and stores guarded together)", min=0)
    flat: bool = option(True, "when the tile holds all of a short `a`, walk the output's (b, a) tile as "
                        "one contiguous range with full-width vectors")

    def run(self, module: ir.Operation) -> None:
        for d, p, tgt in matched_dispatches(module, ("linalg.generic",), analyze_problem, self):
            _Emitter(d, p, self.plan(p, tgt), tgt, self.max_workgroups, self.unroll).emit(self.NAME)

    # --- planning (pure Python) ---------------------------------------------------------

    def plan(self, p: PreloadProblem, tgt: target_model.Target) -> PreloadPlan:
        t = p.transposed()
        core = sorted({p.a} | {p.inputs[i].fastest for i in t})
        vmax = min(tgt.vector_elems(element_bits(x.binding.tensor_type.element_type)) for x in p.inputs + [p.output])
        vec = {x: _widest_pow2_dividing(p.shape[x], vmax) for x in core}
        store_side = stores_through_lds(p)
        sources = {OUTPUT: p.inputs[t[0]].dims} if store_side else {i: p.inputs[i].dims for i in t}
        rows = {dims[-1] for dims in sources.values()}
        col_b = rows.pop() if len(rows) == 1 else None
        plan = PreloadPlan(p.a, core, vec, [vec.get(x, 1) for x in range(len(p.shape))], sources, store_side, col_b)
        self._grow_tile(p, plan, tgt)
        if self.flat and not store_side:
            plan.flat = self._flat_width(p, plan, vmax)
        self._choose_lds_layout(p, plan, tgt)
        blocks = [math.prod(c for _, c, _ in plan.row_walk(k)) for k in sources] + \
            [math.prod(c for _, c, _ in plan.column_walk)]
        sg = tgt.subgroup_size
        plan.workgroup_size = min(self.workgroup_size, tgt.max_threads, math.ceil(max(blocks) / sg) * sg)
        return plan

    @staticmethod
    def _flat_width(p: PreloadProblem, plan: PreloadPlan, vmax: int) -> int:
        """The vector width of a flat column walk, or 0: when the tile holds all of `a` and
        col_b is the output's next dim, the tile's output is one contiguous range per other
        coordinate, walked with vectors wider than `a` allows (HW = 49: 1) that still divide
        the tile's and the tensor's (col_b, a) extents (so a vector is all in or all out)."""
        a, b = p.a, plan.col_b
        if b != a - 1 or plan.tile[a] != p.shape[a] or plan.tile[b] == 1:
            return 0
        width = _widest_pow2_dividing(math.gcd(plan.tile[b] * p.shape[a], p.shape[b] * p.shape[a]), vmax)
        return width if width > plan.vec[a] else 0

    def _stage_elem_bytes(self, p: PreloadProblem, key: StageKey) -> int:
        return (p.output if key == OUTPUT else p.inputs[key]).elem_bytes

    def _grow_tile(self, p: PreloadProblem, plan: PreloadPlan, tgt: target_model.Target) -> None:
        """`a` first: `row-bytes` of output, or whole when shorter than two such rows (HW = 49
        stays one row and the tile takes several channels instead). Then the tile doubles
        round robin, the other core dims first, then the rest innermost first (more work for
        small `a` and `b`), while it holds at most `tile-bytes` of output and its LDS (with the
        largest pad tried) fits the budget."""
        budget = tgt.lds_budget(self.workgroups_per_cu)
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

    def _choose_lds_layout(self, p: PreloadProblem, plan: PreloadPlan, tgt: target_model.Target) -> None:
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

    def _lds_cycles(self, p: PreloadProblem, plan: PreloadPlan, key: StageKey, pad: int,
                    tgt: target_model.Target) -> int:
        """Bank-model cycles (phases plus conflicts) of the first wave's LDS accesses to buffer
        `key` with rows padded by `pad`: its row writes, then its column reads (one access
        per `a` position)."""
        model = tgt.bank_model()
        eb = self._stage_elem_bytes(p, key)
        dims = plan.stage(key)
        shape = plan.lds_shape(key, pad)

        def first_wave(walk: Walk) -> list[dict[int, int] | None]:
            n = math.prod(c for _, c, _ in walk)
            return [layout.Walk(tuple(walk))(lane) if lane < n else None for lane in range(tgt.subgroup_size)]

        def addr(c: dict[int, int] | None, j: int = 0) -> int | None:
            if c is None:
                return None
            if FLAT in c:  # a flat column walk: element j of the range's block
                c = dict(c)
                c[plan.col_b], c[p.a] = divmod(c.pop(FLAT) + j, p.shape[p.a])
                return _row_major([c.get(x, 0) for x in dims], shape) * eb
            return _row_major([c[x] + (j if x == p.a else 0) for x in dims], shape) * eb

        row_walk = plan.row_walk(key)
        writers, readers = first_wave(row_walk), first_wave(plan.column_walk)
        # a row vector splits into accesses as wide as the padded rows keep it aligned
        row_bytes = row_walk[0][2] * eb
        width = math.gcd(row_bytes, shape[-1] * eb)
        accesses = [([None if c is None else addr(c) + j * width for c in writers], width)
                    for j in range(row_bytes // width)] + \
            [([addr(c, j) for c in readers], eb) for j in range(plan.flat or plan.vec[p.a])]
        return sum(math.ceil(tgt.subgroup_size / model.lanes_per_phase(nbytes)) + model.conflicts(lanes, nbytes)
                   for lanes, nbytes in accesses)


class _Emitter:
    """Builds the kernel of one planned dispatch."""

    def __init__(self, d: Dispatch, p: PreloadProblem, plan: PreloadPlan, tgt: target_model.Target, max_workgroups: int,
                 unroll: int = 0):
        self.d, self.p, self.plan, self.unroll = d, p, plan, unroll
        counts = [math.ceil(s / t) for s, t in zip(p.shape, plan.tile)]
        self.tile_counts = counts
        self.n_tiles = math.prod(counts)
        n_wg = max(1, min(self.n_tiles, max_workgroups, tgt.max_workgroup_counts[0]))
        self.k = Kernel(d, tgt, (plan.workgroup_size, 1, 1), (n_wg, 1, 1))

    def emit(self, pass_name: str) -> None:
        k, p, plan = self.k, self.p, self.plan
        with k.ip, self.d.location:
            self.views = [self._view(x) for x in p.inputs + [p.output]]
            if plan.flat:
                self.flat_views = {i: self._flat_view(x) for i, x in enumerate(p.inputs + [p.output])
                                   if x.dims[-2:] == [plan.col_b, p.a]}
                self.flat_views[-1] = self.flat_views.pop(len(p.inputs))
            self.lds = {key: self._alloc(key) for key in plan.sources}
            loop = scf.ForOp(k.block_id(), k.const(self.n_tiles), k.const(k.grid[0]))
        with ir.InsertionPoint(loop.body), self.d.location:
            if self.n_tiles > k.grid[0]:
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
                inside = [arith.cmpi(arith.CmpIPredicate.ult, glob[x], k.const(self._extent(x)))
                          for x in local if self._extent(x) % self._tile(x)]
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

    def _extent(self, x: int) -> int:
        return self.p.shape[self.plan.col_b] * self.p.shape[self.p.a] if x == FLAT else self.p.shape[x]

    def _tile(self, x: int) -> int:
        return self.plan.tile[self.plan.col_b] * self.plan.tile[self.p.a] if x == FLAT else self.plan.tile[x]

    def _each_block_looped(self, walk: Walk, origin: dict[int, ir.Value], vtype, load, sink) -> None:
        """One block per loop iteration, loads and stores under one guard (unroll=0)."""
        k, plan = self.k, self.plan
        counts = [c for _, c, _ in walk]
        loop = scf.ForOp(k.thread_id(), k.const(math.prod(counts)), k.const(plan.workgroup_size))
        with ir.InsertionPoint(loop.body):
            local, glob = self._block_coords(walk, loop.induction_variable, origin)
            ragged = [x for x in local if self._extent(x) % self._tile(x)]
            if ragged:
                inside = [arith.cmpi(arith.CmpIPredicate.ult, glob[x], k.const(self._extent(x))) for x in ragged]
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
            return read_vector(vtype, buf, idx)
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
        write_vector(value, self.views[-1], [glob[d] for d in self.p.output.dims])

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
                values.append(read_vector(vtype, self.flat_views[i], [glob[d] for d in x.dims[:-2]] + [glob[FLAT]]))
            elif a not in x.dims and b not in x.dims:
                values.append(self._read_along(self.views[i], x.dims, glob, a, n))
            else:
                values.append(vector.from_elements(vtype, [
                    memref.load(self.views[i], [glo[d] for d in x.dims]) for _, glo in coords]))
        return vectorize_body(self.d.root, values, n)

    def _to_output_flat(self, value: ir.Value, local: dict, glob: dict) -> None:
        write_vector(value, self.flat_views[-1], [glob[d] for d in self.p.output.dims[:-2]] + [glob[FLAT]])
