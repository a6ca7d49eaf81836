"""How a reduction is distributed over a workgroup: the plan behind ldsopt-vector-distribute.

The iteration space of a reduction splits into its parallel dims P (the outputs) and its
reduced dims R. Both are linearized row-major: an output index `o` in [0, N_out) and a
reduction index in [0, K). The innermost iteration dim is the contiguous one in memory;
each thread reads vectors of `vector` elements along it, so the *vector side* is the
reduction (innermost dim reduced: row sums, full reductions) or the outputs (innermost dim
parallel: sums over an outer or middle dim).

A workgroup of `lanes_p * lanes_r` lanes times `subgroups_p * subgroups_r` subgroups works
on a tile of `outputs_per_tile` consecutive outputs at a time:
- thread coordinate p = subgroup_p * lanes_p + lane_p owns `vec_p` consecutive outputs
  (vec_p = vector on the output side, else 1);
- thread coordinate r = subgroup_r * lanes_r + lane_r reads reduction chunks r, r + TR, ...
  (TR = lanes_r * subgroups_r threads, each chunk `vec_r` elements);
- `reduction_fastest` says which of lane_p / lane_r varies fastest with the lane id (the same
  order is used for the subgroup id);
- `unroll` U: a thread loads U of its chunks (r, r + TR, ..., r + (U-1) TR) before combining
  them, so that U loads are in flight per thread; the default (`choose_unroll`) aims at
  IN_FLIGHT_BYTES per thread, capped by the chunks a thread has.
The default plan has WORKGROUP_SIZE (256) threads, more (x2 steps up to the target's maximum)
when the grid has fewer workgroups than the target has compute units and the threads would
still have work (`_grown`); the pass's workgroup-size option overrides it.
Lanes that share an output (same lane_p) meet through shuffles; if subgroups_r > 1, the
subgroups that share an output meet through an LDS buffer of subgroups_r x outputs_per_tile
partials (a subgroup's partials are one contiguous row, and reading back, consecutive lanes
read consecutive outputs of a row; rows are padded where the bank model of ldsopt.banks still
sees read-back conflicts, i.e. when lanes of one phase read several rows).

A user's lowering_config is honoured when it states a layout (a `lane_basis` / `thread_basis`
or `subgroup_basis`): seed 001's keys (`workgroup`, `reduction`, `thread_basis`,
`subgroup_basis`) and IREE 3.13's (`workgroup`, `partial_reduction`, `thread`, `lane_basis`,
`subgroup_basis`). A basis is `[[counts], [mapping]]`: the lane (subgroup) id is delinearized
by `counts`, iteration dim d takes position `mapping[d]`. Tiling-only configs (IREE's own
TileAndFuse choices) carry no layout and are ignored. A layout config that this scheme cannot
express raises PlanError. Only a user's config reaches config_plan: IREE's own configs are
ignored by ldsopt-vector-distribute (see its docstring).

Plain Python: nothing here needs MLIR.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import re
from typing import Callable

from ldsopt.layout import index_expr
from ldsopt.layout.banks import BankModel
from ldsopt.layout.index_expr import Expr


class PlanError(ValueError):
    """A user lowering_config that cannot be honoured."""


# A dynamic count of outputs is planned for as many as this: the grid fills the machine (no
# subgroups added for idle compute units); the kernel reads the real count at run time.
DYNAMIC_OUTPUTS_BOUND = 1 << 16
# A dynamic reduced extent is planned for as a long row (a whole workgroup on it): of a
# length vectors divide (`aligned`), or odd (vectors of one element).
DYNAMIC_ROW_BOUND = 1 << 12


def planning_shape(shape: tuple[int, ...], reduced: tuple[int, ...], aligned: bool = False) -> tuple[int, ...]:
    """`shape` with each dynamic extent replaced by its bound: DYNAMIC_ROW_BOUND (+ 1 unless
    `aligned`) for a reduced dim, DYNAMIC_OUTPUTS_BOUND for the others."""
    row = DYNAMIC_ROW_BOUND if aligned else DYNAMIC_ROW_BOUND + 1
    return tuple((row if d in reduced else DYNAMIC_OUTPUTS_BOUND) if n < 0 else n for d, n in enumerate(shape))


@dataclasses.dataclass(frozen=True)
class ReductionProblem:
    shape: tuple[int, ...]          # the iteration space
    reduced: tuple[int, ...]        # reduced dims, ascending
    vector_limit: int               # widest vector the inputs allow (target and element widths)
    subgroup_size: int
    max_threads: int
    max_workgroups: int
    element_bytes: int = 4          # bytes the inputs hold per element of the iteration space
    compute_units: int | None = None  # the target's CUs / SMs; None: unknown (never grow)

    @property
    def parallel(self) -> tuple[int, ...]:
        return tuple(d for d in range(len(self.shape)) if d not in self.reduced)

    @property
    def vector_on_reduction(self) -> bool:
        return len(self.shape) - 1 in self.reduced

    @property
    def n_outputs(self) -> int:
        return math.prod(self.shape[d] for d in self.parallel)

    @property
    def n_reduced(self) -> int:
        return math.prod(self.shape[d] for d in self.reduced)


@dataclasses.dataclass(frozen=True)
class ReductionPlan:
    problem: ReductionProblem
    vector: int
    lanes_p: int
    lanes_r: int
    subgroups_p: int
    subgroups_r: int
    reduction_fastest: bool
    source: str  # "default" or "lowering_config"
    unroll: int = 1  # chunks a thread loads before combining them

    @property
    def chunks_per_thread(self) -> tuple[int, int]:
        """(fewest, most) chunks a thread on the reduction gets."""
        return self.chunks // self.threads_r, math.ceil(self.chunks / self.threads_r)

    @property
    def remainder_loads(self) -> int:
        """Loads after the whole groups of `unroll`: the most a thread has left over."""
        return max(n % self.unroll for n in self.chunks_per_thread)

    @property
    def remainder_guarded(self) -> bool:
        """Whether threads differ in their leftover chunks (each leftover load then checks
        its chunk exists)."""
        return self.chunks % self.threads_r != 0

    @property
    def subgroup_size(self) -> int:
        return self.lanes_p * self.lanes_r

    @property
    def workgroup_size(self) -> int:
        return self.subgroup_size * self.subgroups_p * self.subgroups_r

    @property
    def vec_p(self) -> int:
        return 1 if self.problem.vector_on_reduction else self.vector

    @property
    def vec_r(self) -> int:
        return self.vector if self.problem.vector_on_reduction else 1

    @property
    def threads_p(self) -> int:
        return self.lanes_p * self.subgroups_p

    @property
    def threads_r(self) -> int:
        return self.lanes_r * self.subgroups_r

    @property
    def outputs_per_tile(self) -> int:
        return self.threads_p * self.vec_p

    @property
    def n_tiles(self) -> int:
        return self.problem.n_outputs // self.outputs_per_tile

    @property
    def grid(self) -> int:
        return min(self.n_tiles, self.problem.max_workgroups)

    @property
    def chunks(self) -> int:
        """Reduction chunks (of vec_r elements) per output."""
        return self.problem.n_reduced // self.vec_r

    def shuffle_offsets(self) -> list[int]:
        """xor offsets of the butterfly over the lanes that share an output, widest first."""
        stride = 1 if self.reduction_fastest else self.lanes_p
        return [stride << i for i in reversed(range(self.lanes_r.bit_length() - 1))]

    def readback_group(self) -> int:
        """Lanes that reduce one output's LDS partials together (the rest is serial per lane)."""
        return min(_pow2_ceil(self.subgroups_r), self.subgroup_size)

    def readback_offsets(self) -> list[int]:
        """xor offsets of the read-back butterfly: the readback_group lanes of one output are
        subgroup_size / group apart (the lanes in between read other outputs), widest first."""
        group = self.readback_group()
        spread = self.subgroup_size // group
        return [spread << i for i in reversed(range(group.bit_length() - 1))]

    def readback_lane(self, tid: Expr) -> tuple[Expr, Expr]:
        """(kk, out0) of thread `tid` in the read-back: its first partial (row of the partials
        buffer) and its first output of a round. G = readback_group lanes per output combine
        the subgroups' partials, each serially over every G-th one; the G lanes are xor
        partners `spread` apart, so that the lanes in between read consecutive outputs of one
        row: lane = tid % subgroup, kk = lane // spread, out0 = tid // subgroup * spread +
        lane % spread."""
        spread = self.subgroup_size // self.readback_group()
        lane = tid % self.subgroup_size
        kk = lane // spread if spread > 1 else lane
        subgroup = tid // self.subgroup_size
        within = lane % spread if spread > 1 else None
        out0 = index_expr.scaled(subgroup, spread)
        return kk, out0 + within if within is not None else out0

    def readback_round(self, out0: Expr, rnd: int) -> tuple[Expr, Expr]:
        """(output, column read) of read-back round `rnd` for a thread whose first output is
        `out0`: rounds of workgroup_size / readback_group outputs; in a round that is not
        whole, the surplus lanes read the last column (and store nothing)."""
        per_round = self.workgroup_size // self.readback_group()
        o = index_expr.offset(out0, rnd * per_round)
        exact = (rnd + 1) * per_round <= self.outputs_per_tile
        return o, o if exact else o.minu(self.outputs_per_tile - 1)

    def readback_addresses(self, row_stride: int) -> list[int | None]:
        """LDS element offsets that the lanes of subgroup 0 read in the first read-back step
        (row kk, column of round 0; lanes past the partials read nothing)."""
        tid = index_expr.var("tid")
        kk, out0 = self.readback_lane(tid)
        f = index_expr.Function(("tid",), (kk, self.readback_round(out0, 0)[1]))
        return [kk * row_stride + col if kk < self.subgroups_r else None
                for kk, col in map(f, range(self.subgroup_size))]

    def lds_row_pad(self, banks: BankModel, elem_bytes: int) -> int:
        """Elements to pad each row of the partials buffer with so that the read-back has no
        bank conflicts: the first such multiple of vec_p (vector writes stay aligned) below a
        full set of banks; 0 if none helps. The writes need none: a subgroup writes one
        contiguous row."""
        pads = range(0, banks.num_banks * banks.bank_bytes // elem_bytes, self.vec_p)
        return next((pad for pad in pads if self.readback_conflicts(banks, elem_bytes, pad) == 0), 0)

    def readback_conflicts(self, banks: BankModel, elem_bytes: int, pad: int) -> int:
        """The bank model's extra cycles of the first read-back step of the partials buffer
        whose rows are padded by `pad` elements."""
        addrs = [a * elem_bytes if a is not None else None
                 for a in self.readback_addresses(self.outputs_per_tile + pad)]
        return banks.conflicts(addrs, elem_bytes)

    def tiles(self) -> dict[str, list[int]]:
        """[subgroup, batch, thread, element] tiles of the output and reduction spaces."""
        return {"parallel": [self.subgroups_p, math.ceil(self.n_tiles / self.grid), self.lanes_p, self.vec_p],
                "reduction": [self.subgroups_r, math.ceil(self.chunks / self.threads_r), self.lanes_r, self.vec_r]}

    def check(self) -> None:
        p = self.problem
        if self.unroll < 1:
            raise PlanError(f"unroll {self.unroll} is not positive")
        for what, n in (("lanes", self.lanes_p), ("lanes", self.lanes_r), ("vector", self.vector)):
            if not _is_pow2(n):
                raise PlanError(f"{what} count {n} is not a power of two")
        if self.subgroup_size != p.subgroup_size:
            raise PlanError(f"{self.subgroup_size} lanes per subgroup, the target has {p.subgroup_size}")
        if self.workgroup_size > p.max_threads:
            raise PlanError(f"workgroup of {self.workgroup_size} threads exceeds the target's {p.max_threads}")
        if self.vector > p.vector_limit:
            raise PlanError(f"vectors of {self.vector} elements exceed the target's widest load ({p.vector_limit})")
        inner = p.shape[-1]
        if inner % self.vector:
            raise PlanError(f"vectors of {self.vector} elements do not divide the innermost dim ({inner})")
        if p.n_outputs % self.outputs_per_tile:
            raise PlanError(f"a tile of {self.outputs_per_tile} outputs does not divide the {p.n_outputs} outputs")


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _pow2_ceil(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def _pow2_dividing(n: int, cap: int) -> int:
    """The largest power of two that divides n and is at most cap."""
    return min(n & -n, 1 << (cap.bit_length() - 1))


# Bytes of loads a thread should have in flight (one group of `unroll` chunks): four 128-bit
# loads, as good as or better than other unrolls on the H200 (bench/results/cuda/README.md).
IN_FLIGHT_BYTES = 64


def _in_flight_chunks(plan: ReductionPlan) -> int:
    """The largest power of two of chunks within IN_FLIGHT_BYTES (at least 1)."""
    goal = max(1, IN_FLIGHT_BYTES // (plan.vector * plan.problem.element_bytes))
    return 1 << (goal.bit_length() - 1)


def choose_unroll(plan: ReductionPlan) -> int:
    """The largest power of two U with U chunks of the thread's loads within IN_FLIGHT_BYTES
    (at least 1), and no more than the chunks a thread has."""
    return 1 << (min(_in_flight_chunks(plan), max(1, plan.chunks_per_thread[1])).bit_length() - 1)


def with_unroll(plan: ReductionPlan, unroll: int = 0) -> ReductionPlan:
    """The plan loading `unroll` chunks at once (0: choose_unroll's choice)."""
    plan = dataclasses.replace(plan, unroll=unroll or choose_unroll(plan))
    plan.check()
    return plan


# Threads per workgroup of the default plan before _grown: more were slower on the H200 where
# the grid fills the GPU, faster only with few workgroups, which _grown covers
# (bench/results/cuda/README.md).
WORKGROUP_SIZE = 256


def default_plan(p: ReductionProblem, workgroup_size: int = 0) -> ReductionPlan:
    """Vectors along the contiguous dim; every lane and subgroup on the reduction, except on
    the output side where the innermost dim is parallel: there lanes take consecutive
    vectors of outputs (coalesced reads) and the rest of the subgroup takes the reduction.
    Threads: no more than one output's chunks need (whole subgroups), at most WORKGROUP_SIZE
    then grown by _grown; a nonzero `workgroup_size` overrides that: at most that many,
    never grown."""
    L = p.subgroup_size
    vector = _pow2_dividing(p.shape[-1], p.vector_limit)
    if p.vector_on_reduction:
        lanes_p = 1
        chunks = p.n_reduced // vector
    else:
        lanes_p = _pow2_dividing(p.shape[-1] // vector, L)
        chunks = p.n_reduced
    lanes_r = L // lanes_p
    # Enough threads for the chunks of one output, a whole number of subgroups.
    threads = min(workgroup_size or WORKGROUP_SIZE, p.max_threads, max(L, lanes_p * _pow2_ceil(chunks)))
    plan = ReductionPlan(p, vector, lanes_p, lanes_r, 1, max(1, threads // L), reduction_fastest=lanes_p == 1,
                         source="default")
    plan.check()
    return plan if workgroup_size else _grown(plan)


def _grown(plan: ReductionPlan) -> ReductionPlan:
    """The plan with its subgroups on the reduction doubled while the grid has fewer
    workgroups than the target has compute units (some units idle, each busy one holding a
    single workgroup, whose threads alone keep loads in flight), the doubled workgroup fits
    the target, and every reduction thread still gets at least two groups of the unroll
    goal (2 U chunks), so that the extra threads have loads to overlap."""
    p = plan.problem
    in_flight = _in_flight_chunks(plan)
    while (p.compute_units is not None and plan.grid < p.compute_units
           and 2 * plan.workgroup_size <= p.max_threads
           and plan.chunks // (2 * plan.threads_r) >= 2 * in_flight):
        plan = dataclasses.replace(plan, subgroups_r=2 * plan.subgroups_r)
    plan.check()
    return plan


# Elements of a strided row each of its lanes aims to reduce before they meet, and the bytes
# the lanes on consecutive rows read together at least (a sector of the GPUs' caches).
STRIDED_ROW_ELEMENTS = 8
SECTOR_BYTES = 32


def strided_rows(p: ReductionProblem, workgroup_size: int = 0, one_row: bool = False) -> ReductionPlan:
    """A fused row kernel's plan for rows whose elements lie strided in memory (a reduction
    over an outer dim: softmax over channels, a channels-first LayerNorm): scalars, and
    consecutive lanes on consecutive rows, which are consecutive in memory, so the lanes'
    reads coalesce, enough of them to read SECTOR_BYTES together (by the problem's bytes an
    element; a power of two, at most that many); the rest of the subgroup on the row, at most
    as many lanes as give each about STRIDED_ROW_ELEMENTS. Subgroups (up to WORKGROUP_SIZE
    threads, or `workgroup_size`) take more rows, fewer while the grid would leave compute
    units idle; where it still does (few rows), or `workgroup_size` asks for them, the
    subgroups the rows leave take the row too (their partials meet through LDS) while each
    thread keeps STRIDED_ROW_ELEMENTS. Tiles of rows divide the row count (a power of two that
    does: an odd count gets a subgroup a row); `one_row` (extents read at run time) makes every
    tile one row."""
    L = p.subgroup_size
    sector_lanes = min(L, 1 << (max(1, SECTOR_BYTES // p.element_bytes).bit_length() - 1))
    row_lanes = min(L // sector_lanes, 1 << (max(1, p.n_reduced // STRIDED_ROW_ELEMENTS).bit_length() - 1))
    lanes_p = 1 if one_row else min(L // row_lanes, _pow2_dividing(p.n_outputs, L))
    lanes_r = L // lanes_p  # the lanes the rows leave are on the row too
    subgroups = max(1, min(workgroup_size or WORKGROUP_SIZE, p.max_threads) // L)
    plan = ReductionPlan(p, 1, lanes_p, lanes_r, 1 if one_row else _pow2_dividing(p.n_outputs // lanes_p, subgroups),
                         1, reduction_fastest=False, source="default")
    while plan.subgroups_p > 1 and p.compute_units is not None and plan.grid < p.compute_units:
        plan = dataclasses.replace(plan, subgroups_p=plan.subgroups_p // 2)
    idle = p.compute_units is not None and plan.grid < p.compute_units
    while (idle or workgroup_size) and 2 * plan.subgroups_p * plan.subgroups_r <= subgroups and \
            p.n_reduced // (2 * plan.threads_r) >= STRIDED_ROW_ELEMENTS:
        plan = dataclasses.replace(plan, subgroups_r=2 * plan.subgroups_r)
    plan.check()
    return plan


# Chunks a thread of a fused row kernel aims to hold (see for_kept_row).
KEPT_ROW_CHUNKS = 4


def for_kept_row(plan: ReductionPlan, fits: Callable[[ReductionPlan], bool]) -> ReductionPlan:
    """A default plan for a fused row kept in registers: its subgroups halved while a thread
    holds fewer than KEPT_ROW_CHUNKS chunks of the row, the grid keeps every compute unit
    busy, and the thread's share of the row still `fits` its registers. A row's exchanges
    (shuffles, barriers, the LDS round trip) cost the same whatever its length, and the
    kernel runs compute-bound on 16-bit rows: fewer threads a row spread that cost over more
    elements each."""
    p = plan.problem
    while (plan.subgroups_r > 1 and plan.chunks_per_thread[1] < KEPT_ROW_CHUNKS
           and (p.compute_units is None or plan.grid >= p.compute_units)):
        fewer = dataclasses.replace(plan, subgroups_r=plan.subgroups_r // 2)
        if not fits(fewer):
            break
        plan = fewer
    plan.check()
    return plan


# --- user lowering configs -----------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class LoweringConfig:
    workgroup: tuple[int, ...] | None = None
    reduction: tuple[int, ...] | None = None
    thread: tuple[int, ...] | None = None
    lane_basis: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    subgroup_basis: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    workgroup_size: tuple[int, ...] | None = None
    subgroup_size: int | None = None

    @property
    def has_layout(self) -> bool:
        return self.lane_basis is not None or self.subgroup_basis is not None

    def permuted(self, perm: list[int]) -> "LoweringConfig":
        """The config with its per-dim entries renumbered: new dim j is old dim perm[j] (a
        ReductionProblem numbers dims as the inputs do, a config as the op's iterators do)."""
        def tiles(t):
            return tuple(t[i] if i < len(t) else 0 for i in perm) if t is not None else None

        def basis(b):
            return (b[0], tuple(b[1][i] for i in perm)) if b is not None else None

        return dataclasses.replace(self, workgroup=tiles(self.workgroup), reduction=tiles(self.reduction),
                                   thread=tiles(self.thread), lane_basis=basis(self.lane_basis),
                                   subgroup_basis=basis(self.subgroup_basis))


_KEYS = {"workgroup": "workgroup", "reduction": "reduction", "partial_reduction": "reduction",
         "thread": "thread", "thread_basis": "lane_basis", "lane_basis": "lane_basis",
         "subgroup_basis": "subgroup_basis"}


def _bracketed(text: str, start: int) -> str:
    """The balanced [...] starting at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"[": 1, "]": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
    raise PlanError(f"unbalanced brackets in '{text[start:]}'")


def _as_tuple(value):
    return tuple(_as_tuple(v) for v in value) if isinstance(value, list) else value


def parse_lowering_config(config_text: str, translation_text: str = "") -> LoweringConfig:
    """Reads the keys of an `#iree_gpu.lowering_config<{...}>` (either generation of names)
    and workgroup_size / subgroup_size of a translation_info."""
    values: dict[str, object] = {}
    for m in re.finditer(r"\b(\w+)\s*=\s*\[", config_text):
        if m.group(1) in _KEYS:
            values[_KEYS[m.group(1)]] = _as_tuple(ast.literal_eval(_bracketed(config_text, m.end() - 1)))
    wg = re.search(r"workgroup_size\s*=\s*(\[[^\]]*\])", translation_text)
    sg = re.search(r"subgroup_size\s*=\s*(\d+)", translation_text)
    return LoweringConfig(**values, workgroup_size=_as_tuple(ast.literal_eval(wg.group(1))) if wg else None,
                          subgroup_size=int(sg.group(1)) if sg else None)


def _basis_split(basis, p: ReductionProblem, what: str) -> tuple[int, int, bool | None]:
    """(count on the outputs, count on the reduction, reduction fastest?) of a basis.
    The order is None when one side has a single lane or subgroup."""
    counts, mapping = basis
    if len(mapping) != len(p.shape):
        raise PlanError(f"{what} maps {len(mapping)} dims, the op has {len(p.shape)}")
    per_dim = [counts[m] for m in mapping]
    n_p = math.prod(per_dim[d] for d in p.parallel)
    n_r = math.prod(per_dim[d] for d in p.reduced)
    pos_p = [mapping[d] for d in p.parallel if per_dim[d] > 1]
    pos_r = [mapping[d] for d in p.reduced if per_dim[d] > 1]
    if not pos_p or not pos_r:
        return n_p, n_r, None
    if min(pos_r) > max(pos_p):
        return n_p, n_r, True
    if min(pos_p) > max(pos_r):
        return n_p, n_r, False
    raise PlanError(f"{what} interleaves parallel and reduced dims")


def _tile_outputs(tiles: tuple[int, ...], p: ReductionProblem) -> int:
    """Outputs in a workgroup tile; the tile must be a run of consecutive (row-major) outputs."""
    sizes = [(tiles[d] if d < len(tiles) else 0) or p.shape[d] for d in p.parallel]
    full = [s == p.shape[d] for s, d in zip(sizes, p.parallel)]
    partial = [i for i, f in enumerate(full) if not f]
    if partial and any(s != 1 for s in sizes[:partial[-1]]):
        raise PlanError(f"workgroup tile {list(tiles)} is not a run of consecutive outputs")
    return math.prod(sizes)


def config_plan(p: ReductionProblem, cfg: LoweringConfig, scale_to_target: bool) -> ReductionPlan:
    """The plan a layout config states. With scale_to_target, a config written for another
    subgroup size keeps its workgroup size and its lanes on the outputs, and moves the
    difference between lanes and subgroups on the reduction."""
    lanes_p, lanes_r, order_l = _basis_split(cfg.lane_basis, p, "lane basis") if cfg.lane_basis \
        else (1, p.subgroup_size, None)
    sgs_p, sgs_r, order_s = _basis_split(cfg.subgroup_basis, p, "subgroup basis") if cfg.subgroup_basis \
        else (1, 1, None)
    if order_l is not None and order_s is not None and order_l != order_s:
        raise PlanError("lane and subgroup bases order parallel and reduced dims differently")
    reduction_fastest = order_l if order_l is not None else order_s if order_s is not None else True
    cfg_lanes = lanes_p * lanes_r
    if cfg.subgroup_size is not None and cfg.subgroup_size != cfg_lanes:
        raise PlanError(f"lane basis covers {cfg_lanes} lanes, subgroup_size is {cfg.subgroup_size}")
    threads = cfg_lanes * sgs_p * sgs_r
    if cfg.workgroup_size is not None and math.prod(cfg.workgroup_size) != threads:
        raise PlanError(f"bases cover {threads} threads, workgroup_size is {list(cfg.workgroup_size)}")
    L = p.subgroup_size
    if cfg_lanes != L:
        if not scale_to_target:
            raise PlanError(f"lowering_config is written for subgroups of {cfg_lanes} lanes, the target has {L} "
                            "(set scale-config-to-target=true to rescale it)")
        if L % lanes_p or threads % (L * sgs_p):
            raise PlanError(f"cannot rescale the lowering_config from {cfg_lanes} to {L} lanes per subgroup")
        lanes_r, sgs_r = L // lanes_p, threads // (L * sgs_p)
    threads_p, threads_r = lanes_p * sgs_p, lanes_r * sgs_r
    inner = len(p.shape) - 1
    if cfg.thread and inner < len(cfg.thread) and cfg.thread[inner]:
        vector = cfg.thread[inner]
    elif p.vector_on_reduction and cfg.reduction:
        vector = max(1, math.prod(t for t in cfg.reduction if t) // threads_r)
    elif not p.vector_on_reduction and cfg.workgroup:
        vector = max(1, _tile_outputs(cfg.workgroup, p) // threads_p)
    else:
        vector = _pow2_dividing(p.shape[-1], p.vector_limit)
    plan = ReductionPlan(p, vector, lanes_p, lanes_r, sgs_p, sgs_r, reduction_fastest, source="lowering_config")
    if cfg.workgroup is not None and _tile_outputs(cfg.workgroup, p) != plan.outputs_per_tile:
        raise PlanError(f"workgroup tile {list(cfg.workgroup)} covers {_tile_outputs(cfg.workgroup, p)} outputs, "
                        f"the bases and vectors give {plan.outputs_per_tile}")
    plan.check()
    return plan


# Splitting a long reduction into partials over workgroups (ldsopt-split-reduction's partial
# sums, ldsopt-split-attention's key chunks): how many.
def choose_splits(extent: int, outputs: int, target_outputs: int, max_splits: int, min_chunk: int) -> int | None:
    """S, the number of partials per output: a divisor of `extent` in [2, max_splits] whose
    chunks keep at least `min_chunk` elements, nearest to target_outputs / outputs on a log
    scale; among those within a factor of two of it, powers of two first. None if none."""
    goal = math.ceil(target_outputs / outputs)
    candidates = [s for s in range(2, min(max_splits, extent // min_chunk) + 1) if extent % s == 0]
    if not candidates:
        return None

    def key(s: int):
        distance = abs(math.log2(s / goal))
        near = distance <= 1
        return not near, near and s & (s - 1) != 0, distance

    return min(candidates, key=key)
