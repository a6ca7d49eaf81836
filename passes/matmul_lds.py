"""ldsopt-matmul-lds: matmul dispatches to a tiled kernel that stages both operands through LDS.

Contract.
- Matches a dispatch whose root is a `linalg.generic` contraction (IREE generalizes
  `linalg.matmul`, `linalg.batch_matmul` and their transposed-operand forms to one by
  `executable-configurations`; the named ops are taken too, `linalg.contract` and
  `indexing_maps` included): one reduction loop k, an output over the other loops, which
  names them (b?, m, n) in its memory order whatever order the loops run in, one input over
  {m, k} and one over {n, k} in either order (NN, NT, TN, TT), plus an optional batch dim b
  that leads every operand; inputs of one type among f32,
  f16, bf16, result f32; body `out + ext?(a) * ext?(b)`; the output starts as a
  `linalg.fill` of a constant or as a loaded tensor.
- The contraction is stored, or feeds one elementwise consumer that IREE fused into the
  dispatch (bias add, GELU, residual add, scaling, truncf to f16): an all-parallel
  `linalg.generic` over the contraction's output space (b?, m, n), arith/math body ops only,
  reading the contraction's result through the identity map and loaded bindings through
  ascending projections of (b?, m, n) (a bias over n or m, a residual over (m, n)), whose one
  result (any float type) is stored, in (b?, m, n) order or permuted with n last (attention's
  head merge). The contraction's result is then never stored: each output piece goes through
  the consumer's body on vectors (`_Emitter._epilogue`). Anything else (two consumers, a
  stored contraction result, more fused ops) is left alone, with the reason as a remark.
- Needs a GPU target (#iree_gpu.target around the dispatch or lds-opt --target); a matched
  dispatch without one is an error.

The kernel. Workgroup (x, y, z) computes the BM x BN tile (y, x) of batch z: the tiling of
TILINGS (128x128 to 32x32 in 256 threads, 16-wide ones in 64 for skinny products) that the
target's threads, vector width and LDS take and that `plan_cost`, a model of how the tiles
spread over the target's compute units, finds fastest; the `tiles` option gives the tilings
to choose from, BMxBNxTMxTN, any sizes (96, 160, 192, 320, ...) whose BM/TM * BN/TN threads
split both tiles evenly and are whole subgroups. Per K step of BK (64 bytes of K: 16 f32, 32 f16/bf16):
- each operand's tile is staged global -> registers -> LDS as its `StagingLayout`
  (ldsopt/staging.py) says. Planned here: vector reads in the operand's own memory order (no
  transpose), rows padded by the pad the bank model (ldsopt/banks.py) finds cheapest for the
  first wave's stores and fragment reads. A pass before this one (inthread_transpose) may
  record a rewritten layout for an operand on the root op (`ldsopt.staging = {B = {...}}`,
  `record_staging`): it must stage the tile this plan stages (same tile, threads, fragment),
  and is emitted as it says: raked reads of several rows, a `vector.transpose` of each
  register tile, K-contiguous LDS with its row XOR and rotating swizzle applied to every LDS
  index; the passes that recorded one are named before this one in `ldsopt.lowered_by`. The
  emitted layout is recorded as `ldsopt.staging` on the operand's `memref.alloc`;
- the pipeline of S = `stages` LDS tiles (2 by default: double buffering). Step kt reads the
  global tile kt+1 of the operands staged through registers first (its latency hides behind
  the math), multiplies the LDS tile kt % S, stores the registers into LDS tile (kt+1) % S,
  then one barrier: it both publishes tile kt+1 and tells every thread that tile kt % S is no
  longer read before a later step overwrites it. Operands copied without registers (cp.async,
  gather_to_lds: dtl_layout's `copy = direct`, inthread_transpose's raked rows) run S - 1 tiles
  ahead: step kt starts the copies of tile kt+S-1 into LDS tile (kt-1) % S (free since the
  barrier ending step kt-1; a raked tile into its own slot kt % (S-1) of the staging buffer),
  one group per tile, and after the math waits only for tile kt+1's, leaving the S-2 newer
  groups in flight across the barrier. Tile indices past the last tile are clamped to it (the
  copy re-reads it into a tile no step reads) instead of branching. A register-staged
  operand whose staging says `prefetch = P` (inthread_transpose on CUDA) first prefetches,
  each step, the L1 lines of its global reads of tile kt+P (`prefetch.global.L1`, under the
  reads' guards);
- the product, by scheme:
  FMA (every target; f32 on CUDA, where mma.sync would round to tf32; lavapipe): thread
  (ty, tx) owns the TM x TN micro-tile at (ty*TM, tx*TN), reads TM x KU of A and KU x TN of
  B per sub-step (vector reads along the LDS rows, converted to f32) and does TM x KU
  `vector.fma`s on vectors of TN (at most 4 on SPIR-V);
  matrix cores (gfx942 `amdgpu.mfma` 16x16x16 f16/bf16 and 16x16x4 f32; CUDA sm_80+
  `nvgpu.mma.sync` m16n8k16 f16/bf16; ldsopt/mma.py has their lane layouts): the waves tile
  the workgroup tile, each wave RM x RN intrinsic tiles; each lane reads its A and B operand
  registers from LDS in the longest runs the staging order allows (a K-contiguous A fragment
  of MFMA is one 4-element read, a K-strided one four scalar reads). When both operands are
  K-contiguous in LDS (`packing`), a read group covers k_pack K steps whose K slots are fed in
  mma.k_order, the same order for A and B, so that a lane's slots are consecutive K: one
  16-byte read (mma.sync f16: 8 K for four 4-byte reads; MFMA: ds_read_b128 for two
  ds_read_b64). B's fragments of a group are read first and kept, A's one repetition at a
  time, each followed by its products.
Output: each thread stores its accumulators in vectors along N, adding a loaded init, then
applying the consumer if there is one: its other operands are read at the same (b?, m, n) (a
vector along n where n is the operand's last dim, else a scalar broadcast).
Tails: global reads past M, N or K (tiles that do not divide the extents) are guarded and
read zeros, so they add nothing; stores (and reads of a loaded init or of the consumer's
operands) past M or N are guarded.
Vector widths divide the extents they run along, so a vector is all in or all out.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, gpu, memref, scf, vector

from ldsopt import index_expr, mma
from ldsopt import target as target_model
from ldsopt.banks import BankModel
from ldsopt.dispatch import Binding, Dispatch, Graph, analyze, analyze_graph, load_binding
from ldsopt.elementwise import body_is_elementwise, map_dims, vectorize_body
from ldsopt.ir_types import element_bits
from ldsopt.kernel import LOWERED_BY, Kernel, L1Prefetch, matched_dispatches, read_vector, write_vector
from ldsopt.mma import Intrinsic, OperandLayout
from ldsopt.registry import ModulePass, PassError, option
from ldsopt.remarks import Unmatched
from ldsopt.staging import ATTR, StagingLayout
from ldsopt.passes import dtl_emit
from ldsopt.passes.dtl_emit import uses_dtl, with_dtl

# Named matmuls carry `indexing_maps` (defaults included; transposed operands are maps, as
# IREE 3.13's MLIR spells `matmul_transpose_b`) and a generic-like body too; so does
# `linalg.contract`.
ROOTS = ("linalg.generic", "linalg.matmul", "linalg.batch_matmul", "linalg.contract")
_INPUT_TYPES = ("f32", "f16", "bf16")
# On the root op: the passes that recorded a staging layout there (see `record_staging`).
STAGED_BY = "ldsopt.staged_by"


@dataclasses.dataclass
class Epilogue:
    """The elementwise linalg.generic fused after the contraction, over its output space
    (b?, m, n): applied to each output piece before the store."""

    op: ir.Operation
    # Per input of `op`: None for the contraction's result (read through the identity map),
    # else a loaded binding and the loops (positions in (b?, m, n), ascending) it reads.
    inputs: list[tuple[Binding, tuple[int, ...]] | None]
    # The loops of the stored result's dims, in its memory order: a permutation of (b?, m, n)
    # with n last (attention's head merge writes (b, m, n) as (m, b, n)).
    out_dims: tuple[int, ...]


@dataclasses.dataclass
class MatmulDispatch(Dispatch):
    """A dispatch whose root is the contraction; `output` is where the epilogue's result is
    stored when it has one."""

    epilogue: Epilogue | None = None


@dataclasses.dataclass
class Problem:
    """A matched contraction: sizes, each operand's dims in memory order, its init."""

    sizes: dict[str, int]               # "b" (1 without batch), "m", "n", "k"
    operands: dict[str, Binding]        # "A" (over m, k), "B" (over n, k)
    dims: dict[str, tuple[str, ...]]    # memory order per operand, batch dropped: ("m", "k") ...
    batched: bool
    init: float | Binding               # a fill constant or the loaded initial output
    output: Binding                     # the contraction's result, or the epilogue's
    epilogue: Epilogue | None = None

    @property
    def elem_type(self) -> ir.Type:
        return self.operands["A"].tensor_type.element_type


@dataclasses.dataclass(frozen=True)
class Tiling:
    bm: int
    bn: int
    tm: int  # FMA: the thread's micro-tile, TM x TN; the thread count of both schemes
    tn: int
    ku: int = 4  # FMA: K elements of one fragment read, per LDS row or as rows

    @property
    def threads(self) -> int:
        return (self.bm // self.tm) * (self.bn // self.tn)


# The tilings `plan` chooses from by `plan_cost`: 256 threads from 128x128 down to 32x32, and
# 64-thread ones for skinny products (M or N up to 16, GEMV-like: a 16-row tile rather than a
# 64-row one, the grid along the long side, B read once).
TILINGS = (Tiling(128, 128, 8, 8), Tiling(128, 64, 8, 4), Tiling(64, 128, 4, 8), Tiling(64, 64, 4, 4),
           Tiling(64, 32, 4, 2), Tiling(32, 64, 2, 4), Tiling(32, 32, 2, 2),
           Tiling(16, 64, 4, 4), Tiling(64, 16, 4, 4), Tiling(16, 32, 2, 4), Tiling(32, 16, 4, 2))


def check_tilings(text: str) -> None:
    """BMxBNxTMxTN,... with TM dividing BM and TN dividing BN."""
    parse_tilings(text)


def parse_tilings(text: str) -> tuple[Tiling, ...]:
    """The `tiles` option: comma-separated `BMxBNxTMxTN` (TM, TN: the FMA micro-tile, which
    also sets the thread count), to choose from; "" for TILINGS. ValueError if malformed."""
    if not text:
        return TILINGS
    out = []
    for item in text.split(","):
        try:
            bm, bn, tm, tn = (int(x) for x in item.strip().split("x"))
        except ValueError:
            raise ValueError(f"tile '{item}' is not BMxBNxTMxTN") from None
        if min(bm, bn, tm, tn) < 1 or bm % tm or bn % tn:
            raise ValueError(f"tile '{item}': TM must divide BM and TN divide BN")
        out.append(Tiling(bm, bn, tm, tn))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class FmaScheme:
    """Thread (ty, tx) owns the TM x TN micro-tile at (ty*TM, tx*TN); per K element, TM x TN
    FMAs on vectors of TN. Fragments: TM (A) or TN (B) by KU per K sub-step of KU."""

    tiling: Tiling

    @property
    def k_step(self) -> int:
        return self.tiling.ku

    def extent(self, role: str) -> int:
        return self.tiling.tm if role == "A" else self.tiling.tn

    def fragment(self, role: str) -> str:
        return f"fma {self.extent(role)}x{self.tiling.ku}"

    def reads(self, role: str, k_contiguous: bool, lane: int, k_pack: int = 0) -> list[tuple[int, int, int]]:
        """(row, col, width) in the LDS tile of each fragment read of `lane`, K sub-step 0
        (`k_pack`: matrix cores only)."""
        per_row = self.tiling.bn // self.tiling.tn
        x0 = (lane // per_row) * self.tiling.tm if role == "A" else (lane % per_row) * self.tiling.tn
        if k_contiguous:
            return [(x0 + i, 0, self.tiling.ku) for i in range(self.extent(role))]
        return [(u, x0, self.extent(role)) for u in range(self.tiling.ku)]


@dataclasses.dataclass(frozen=True)
class MmaScheme:
    """The waves form a WGM x WGN grid over the workgroup tile; each wave owns RM x RN
    intrinsic tiles of its (BM/WGM) x (BN/WGN) part and accumulates them in the intrinsic's
    C layout. Fragments are the intrinsic's A and B operand layouts."""

    tiling: Tiling
    intrinsic: Intrinsic

    @property
    def waves(self) -> tuple[int, int]:
        n = self.tiling.threads // self.intrinsic.subgroup
        wgm = 1 << (n.bit_length() - 1) // 2
        return wgm, n // wgm

    @property
    def reps(self) -> tuple[int, int]:
        wgm, wgn = self.waves
        return self.tiling.bm // wgm // self.intrinsic.m, self.tiling.bn // wgn // self.intrinsic.n

    @property
    def k_step(self) -> int:
        return self.intrinsic.k

    def fits(self) -> bool:
        wgm, wgn = self.waves
        return all(r >= 1 for r in self.reps) and self.tiling.bm % (wgm * self.intrinsic.m) == 0 and \
            self.tiling.bn % (wgn * self.intrinsic.n) == 0

    def layout(self, role: str) -> OperandLayout:
        return self.intrinsic.a if role == "A" else self.intrinsic.b

    def fragment(self, role: str) -> str:
        return self.intrinsic.name

    def k_pack(self, bk: int, bits: int, tgt: target_model.Target, most: int = -1) -> int:
        """K steps per fragment read group, their K slots fed in mma.k_order: the most (at most
        `most` unless -1) whose order exists and is the same for A and B (the product pairs
        their slots), divides the K step `bk` and puts a lane's elements in one read of the
        target's widest vector; 0 for the natural order."""
        k = self.intrinsic.k
        orders = {g: [mma.k_order(self.layout(r), k, g) for r in ("A", "B")] for g in (8, 4, 2, 1)}
        fits = [g for g, (a, b) in orders.items() if (most < 0 or g <= most) and bk % (k * g) == 0 and a is not None
                and a == b and max(len(set(self.layout(r).d_second)) for r in ("A", "B")) * g <= tgt.vector_elems(bits)]
        return fits[0] if fits else 0

    def lane_maps(self, role: str, k_pack: int) -> tuple[mma.LaneMap, mma.LaneMap]:
        """The lane's offsets along M/N and K (of its first K slot's K index when packed)."""
        lay = self.layout(role)
        return lay.first, mma.packed_lane_map(lay, k_pack) if k_pack else lay.second

    def element_coords(self, role: str, k_contiguous: bool, k_pack: int) -> list[list[tuple[int, int]]]:
        """Per K step of one fragment read (k_pack of them, else one), each register element's
        (row, col) offset in the LDS tile from the lane's base."""
        lay = self.layout(role)
        steps = mma.packed_elements(lay, k_pack) if k_pack else [list(zip(lay.d_first, lay.d_second))]
        return [[(x, k) if k_contiguous else (k, x) for x, k in step] for step in steps]

    def reads(self, role: str, k_contiguous: bool, lane: int, k_pack: int = 0) -> list[tuple[int, int, int]]:
        first, second = self.lane_maps(role, k_pack)
        x, k = first(lane), second(lane)
        row, col = (x, k) if k_contiguous else (k, x)
        coords = [c for step in self.element_coords(role, k_contiguous, k_pack) for c in step]
        return [(row + r, col + c, n) for r, c, n in row_runs(coords)]


def row_runs(coords: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(row, col, elements) of the runs of consecutive columns in one row that cover `coords`,
    in row then column order: the LDS reads that fetch them."""
    out: list[list[int]] = []
    for r, c in sorted(set(coords)):
        if out and out[-1][0] == r and out[-1][1] + out[-1][2] == c:
            out[-1][2] += 1
        else:
            out.append([r, c, 1])
    return [tuple(x) for x in out]


@dataclasses.dataclass(frozen=True)
class Plan:
    scheme: FmaScheme | MmaScheme
    bk: int
    staging: dict[str, StagingLayout]

    @property
    def tiling(self) -> Tiling:
        return self.scheme.tiling

    @property
    def stages(self) -> int:
        """LDS tiles of each operand in the K pipeline."""
        return self.staging["A"].buffers

    def lds_bytes(self, elem_bytes: int) -> int:
        return sum(math.prod(s.lds_shape) + s.raw_elems for s in self.staging.values()) * elem_bytes


# --- matching ------------------------------------------------------------------------------

def _producer(value: ir.Value) -> ir.Operation | None:
    return value.owner.operation if isinstance(value, ir.OpResult) else None


def _is_mul_add_body(root: ir.Operation) -> bool:
    """The body is `yield out + ext?(in0) * ext?(in1)` (either order of add and mul operands)."""
    block = root.regions[0].blocks[0]
    in0, in1, out = list(block.arguments)
    ops = [op.operation for op in block.operations]
    add = _producer(ops[-1].operands[0])
    if add is None or add.name != "arith.addf":
        return False
    add_args = list(add.operands)
    if out not in add_args:
        return False
    mul = _producer(add_args[1] if add_args[0] == out else add_args[0])
    if mul is None or mul.name != "arith.mulf":
        return False

    def source(v: ir.Value) -> ir.Value:
        op = _producer(v)
        return op.operands[0] if op is not None and op.name == "arith.extf" else v

    x, y = (source(v) for v in mul.operands)
    exts = sum(1 for v in mul.operands if source(v) != v)
    return ((x == in0 and y == in1) or (x == in1 and y == in0)) and len(ops) == 3 + exts


def _init_of(root: ir.Operation) -> float | Binding | None:
    init = root.operands[len(root.operands) - 1]
    fill = _producer(init)
    if fill is not None and fill.name == "linalg.fill":
        cst = _producer(fill.operands[0])
        if cst is not None and cst.name == "arith.constant" and isinstance(cst.attributes["value"], ir.FloatAttr):
            return ir.FloatAttr(cst.attributes["value"]).value
        return None
    return load_binding(init)


def match(d: MatmulDispatch) -> Problem | Unmatched:
    p = _match_contraction(d)
    if not p and d.epilogue:
        return Unmatched(f"{d.root.name} with a fused elementwise consumer: {p.reason}")
    return p


def _match_contraction(d: MatmulDispatch) -> Problem | Unmatched:
    root = d.root
    if len(d.inputs) != 2 or len(root.regions) != 1:
        return Unmatched(f"{root.name} with {len(d.inputs)} inputs is not a contraction of two operands")
    types = [str(b.tensor_type.element_type) for b in d.inputs]
    result_type = ir.RankedTensorType(root.results[0].type)
    out_type = str(result_type.element_type)
    if types[0] != types[1] or types[0] not in _INPUT_TYPES or out_type != "f32":
        return Unmatched(f"operands {types[0]} x {types[1]} -> {out_type}: takes two operands of one of "
                         f"{', '.join(_INPUT_TYPES)} into f32")
    maps = [ir.AffineMapAttr(a).value for a in root.attributes["indexing_maps"]]
    dims = [map_dims(m) for m in maps]
    if any(x is None for x in dims):
        return Unmatched("an indexing map is not a projection of the loops")
    n_loops = maps[2].n_dims
    out = dims[2]
    # The output names the loops: its dims are (b?, m, n) in memory order, in whatever order
    # the loops run (a generic's loops may be permuted); k is the one loop it does not index.
    if n_loops not in (3, 4) or len(set(out)) != n_loops - 1:
        return Unmatched("not a (batch) matmul: the output is not (b?, m, n) with one reduced loop k")
    (k,) = set(range(n_loops)) - set(out)
    if "iterator_types" in root.attributes and \
            ["reduction" in str(it) for it in root.attributes["iterator_types"]] != [x == k for x in range(n_loops)]:
        return Unmatched("not a (batch) matmul: the loops are not (b?, m, n) parallel and k reduced")
    batched = n_loops == 4
    names = {out[-2]: "m", out[-1]: "n", k: "k"}
    if batched:
        names[out[0]] = "b"
    roles = {}
    for pos, ds in enumerate(dims[:2]):
        if batched and (not ds or ds[0] != out[0]):
            return Unmatched("an operand does not have the batch dim first")
        mem = tuple(names[x] for x in (ds[1:] if batched else ds))
        if len(mem) != 2 or "k" not in mem or len(set(mem)) != 2 or "b" in mem:
            return Unmatched("an operand is not an (m, k) or (k, n) matrix in some order")
        roles["A" if "m" in mem else "B"] = (pos, mem)
    if set(roles) != {"A", "B"}:
        return Unmatched("the operands are not one (m, k) and one (k, n) matrix")
    if not _is_mul_add_body(root):
        return Unmatched("the body is not a multiply-add (of operands extended to f32)")
    init = _init_of(root)
    if init is None:
        return Unmatched("the accumulator starts neither from a constant fill nor from a loaded tensor")
    shape = list(result_type.shape)
    a_pos, a_mem = roles["A"]
    k_size = list(d.inputs[a_pos].tensor_type.shape)[(1 if batched else 0) + a_mem.index("k")]
    sizes = {"b": shape[0] if batched else 1, "m": shape[-2], "n": shape[-1], "k": k_size}
    return Problem(sizes, {r: d.inputs[pos] for r, (pos, _) in roles.items()},
                   {r: mem for r, (_, mem) in roles.items()}, batched, init, d.output, d.epilogue)


def analyze_matmul(func: ir.Operation, roots: tuple[str, ...]) -> MatmulDispatch | Unmatched:
    """The dispatch of one root op (ldsopt.dispatch.analyze), or of two fused ops: a root
    followed by its elementwise epilogue (`_with_epilogue`)."""
    single = analyze(func, roots)
    if single:
        return MatmulDispatch(**{f.name: getattr(single, f.name) for f in dataclasses.fields(Dispatch)})
    g = analyze_graph(func, roots)
    if not g or len(g.ops) == 1:
        return single
    if len(g.ops) > 2:
        return Unmatched(f"{len(g.ops)} ops fused in one dispatch ({', '.join(op.name for op in g.ops)}); "
                         "this pass takes a matmul and at most one elementwise consumer")
    return _with_epilogue(g)


def _with_epilogue(g: Graph) -> MatmulDispatch | Unmatched:
    """A root op whose one result feeds only an all-parallel elementwise linalg.generic over
    its output space, which reads it through the identity map and loaded bindings through
    ascending projections of the loops (a bias, a residual), and whose result alone is stored,
    in the loops' order or permuted with n last."""
    root, epi = g.ops
    fused = f"a {root.name} with a fused {epi.name}"
    if len(root.results) != 1 or len(epi.results) != 1 or epi.name != "linalg.generic":
        return Unmatched(f"{fused}: takes a matmul followed by one elementwise linalg.generic")
    result = root.results[0]
    users = [u.owner for u in result.uses]
    if len(users) != 1 or users[0] != epi:
        return Unmatched(f"{fused}: the matmul's result has {len(users)} uses; takes one elementwise consumer")
    if len(g.stores) != 1 or g.stores[0][0] != epi.results[0]:
        return Unmatched(f"{fused}: stores {len(g.stores)} results; takes the consumer's one result stored")
    rank = ir.RankedTensorType(result.type).rank
    identity = ir.AffineMap.get_identity(rank)
    maps = [ir.AffineMapAttr(a).value for a in epi.attributes["indexing_maps"]]
    if any("reduction" in str(it) for it in epi.attributes["iterator_types"]) or maps[0].n_dims != rank:
        return Unmatched(f"{fused}: the consumer is not all-parallel over the matmul's output")
    out_dims = map_dims(maps[-1])
    if out_dims is None or sorted(out_dims) != list(range(rank)) or out_dims[-1] != rank - 1:
        return Unmatched(f"{fused}: the consumer writes its result through {maps[-1]}; takes permutations "
                         "that keep n last")
    if not isinstance(ir.RankedTensorType(epi.results[0].type).element_type, ir.FloatType):
        return Unmatched(f"{fused}: the consumer's result is not of a float type")
    if not body_is_elementwise(epi):
        return Unmatched(f"{fused}: the consumer's body is not arith/math ops on its inputs")
    inputs = []
    for v, m in zip(list(epi.operands)[:len(maps) - 1], maps):
        if v == result:
            if m != identity:
                return Unmatched(f"{fused}: the consumer reads the matmul's result through a non-identity map")
            inputs.append(None)
            continue
        b, dims = g.binding_of(v), map_dims(m)
        if b is None:
            return Unmatched(f"{fused}: an input of the consumer is not a whole-tensor load of a binding")
        if dims is None or dims != sorted(set(dims)):
            return Unmatched(f"{fused}: the consumer reads a binding through {m}; takes ascending projections")
        inputs.append((b, tuple(dims)))
    operands = []
    for v in list(root.operands)[:len(root.operands) - 1]:
        b = g.binding_of(v)
        if b is None:
            return Unmatched(f"{fused}: an input of {root.name} is not a whole-tensor load of a binding")
        operands.append(b)
    return MatmulDispatch(g.func, root, operands, g.stores[0][1], g.body_ops, Epilogue(epi, inputs, tuple(out_dims)))


# --- planning (pure Python) ----------------------------------------------------------------

def _pow2_dividing(n: int, cap: int) -> int:
    return math.gcd(n, 1 << (cap.bit_length() - 1))


def _staging(p: Problem, role: str, scheme, bk: int, tgt: target_model.Target,
             model: BankModel, stages: int) -> StagingLayout | None:
    """The operand's staging: global order kept, the widest vectors that divide the
    contiguous extent (and split evenly over the threads), fragment reads of one K step, the
    row pad of fewest bank conflicts (`with_k_pack`); None when not even single elements split
    evenly over the threads (a given tiling)."""
    t = scheme.tiling
    dims = p.dims[role]
    extent = {"m": t.bm, "n": t.bn, "k": bk}
    tile = (extent[dims[0]], extent[dims[1]])
    bits = element_bits(p.elem_type)
    vec = _pow2_dividing(math.gcd(p.sizes[dims[1]], tile[1]), tgt.vector_elems(bits))
    while vec and (tile[0] * tile[1] // vec) % t.threads:
        vec //= 2
    if not vec:
        return None
    base = StagingLayout(role, dims, tile, vec, t.threads, 0, scheme.fragment(role), 1, buffers=stages)
    return with_k_pack(base, scheme, 0, bits // 8, model)


def with_k_pack(s: StagingLayout, scheme, k_pack: int, elem_bytes: int, model: BankModel) -> StagingLayout:
    """Untransposed `s` read in groups of `k_pack` K steps (MmaScheme.k_pack; 0: one, in the
    natural order): its widest fragment read, and the row pad of fewest bank conflicts for its
    writes and those reads. No swizzle: on the H200 the rotating swizzle that the model
    preferred for A's K-contiguous tile was slower than the pad, its reads no longer at
    immediate offsets (bench/results/cuda-matmul/README.md, "Measured choices")."""
    read = max(n for _, _, n in scheme.reads(s.operand, s.k_contiguous, 0, k_pack))
    base = dataclasses.replace(s, k_pack=k_pack, read_vector=read, pad=0, swizzle=())
    return cheapest(address_maps(base, swizzles=False), scheme, elem_bytes, model)


def address_maps(base: StagingLayout, lanes: tuple[str, ...] = ("cols",), row_xors: tuple[int, ...] = (0,),
                 forced_pad: int = -1, swizzles: bool = True, lane_rows: tuple[int, ...] = (1,)) -> list[StagingLayout]:
    """`base` with threads along the contiguous dim (lanes cols, with each of `lane_rows` that
    divides the row chunks) or down the rows (lanes rows), each row XOR of `row_xors`, and row
    pads of 0, 1 and 2 units (and `forced_pad` if it is a multiple of the unit) or
    (`swizzles`) rotating swizzles of 1 and 2 units (perPhase 1..8 rows, maxPhase 2..units per
    row). The unit is the wider of the LDS writes and the fragment reads, so that both stay
    whole, aligned vectors."""
    unit = max(base.write_vector, base.read_vector)
    cols = base.lds_tile[1]
    pads = sorted({0, unit, 2 * unit} | ({forced_pad} if forced_pad > 0 and forced_pad % unit == 0 else set()))
    out = []
    orders = [(lane_order, r) for lane_order in lanes
              for r in (lane_rows if lane_order == "cols" else (1,)) if (base.tile[0] // base.rake) % r == 0]
    for lane_order, rows_first in orders:
        for row_xor in row_xors:
            b = dataclasses.replace(base, lanes=lane_order, row_xor=row_xor, lane_rows=rows_first)
            out += [dataclasses.replace(b, pad=pad) for pad in pads]
            out += [dataclasses.replace(b, swizzle=(u, per_phase, max_phase))
                    for u in (unit, 2 * unit) if swizzles and u <= cols
                    for max_phase in _powers_of_two(2, cols // u) for per_phase in _powers_of_two(1, 8)]
    return out


def cheapest(candidates: list[StagingLayout], scheme, elem_bytes: int, model: BankModel) -> StagingLayout:
    """The candidate of fewest bank conflicts (LDS writes and fragment reads of the first wave),
    then of the fewest non-affine address maps (a row XOR, a swizzle: each makes every fragment
    read compute its address, where a padded layout reads at immediate offsets from one base),
    then least LDS, then first listed."""
    cost = [(bank_conflicts(c, scheme, elem_bytes, model), bool(c.row_xor) + bool(c.swizzle),
             math.prod(c.lds_shape), i) for i, c in enumerate(candidates)]
    return candidates[min(cost)[-1]]


def _powers_of_two(lo: int, hi: int) -> list[int]:
    return [1 << e for e in range(lo.bit_length() - 1, hi.bit_length())] if hi >= lo else []


def packing(scheme, staging: dict[str, StagingLayout], bk: int, bits: int, tgt: target_model.Target,
            most: int = -1) -> int:
    """K steps per fragment read group (MmaScheme.k_pack, at most `most` unless -1) when every
    operand is K-contiguous in LDS, else 0. The group's K slots are fed in mma.k_order for both
    operands; a K-strided one would read its slots' K rows 8 apart, one scalar at a time, all
    in one bank (measured on the H200: bench/results/cuda-matmul/README.md, "Measured
    choices")."""
    if not isinstance(scheme, MmaScheme) or not all(s.k_contiguous for s in staging.values()):
        return 0
    return scheme.k_pack(bk, bits, tgt, most)


def bank_conflicts(s: StagingLayout, scheme, elem_bytes: int, model: BankModel) -> int:
    """Extra LDS cycles of the first wave: each of its tile stores, then each of its fragment reads."""
    return sum(lds_conflicts(s, scheme, elem_bytes, model))


def lds_conflicts(s: StagingLayout, scheme, elem_bytes: int, model: BankModel) -> tuple[int, int]:
    """(stores, fragment reads): extra LDS cycles of the first wave's stores of its first chunk
    and of its fragment reads of K sub-step 0."""
    lanes = range(model.wave_size)
    cols = s.lds_tile[1]

    def addr(row: int, col: int) -> int:
        return s.address_map(row * cols + col) * elem_bytes

    writes = [s.lds_writes(lane) for lane in lanes]
    stores = sum(model.conflicts([addr(*lane_writes[w][:2]) for lane_writes in writes], width * elem_bytes)
                 for w, (_, _, width) in enumerate(writes[0]))
    reads = [scheme.reads(s.operand, s.k_contiguous, lane, s.k_pack) for lane in lanes]
    loads = sum(model.conflicts([addr(*lane_reads[r][:2]) for lane_reads in reads], width * elem_bytes)
                for r, (_, _, width) in enumerate(reads[0]))
    return stores, loads


def _scheme(p: Problem, t: Tiling, tgt: target_model.Target, use_mma: bool) -> FmaScheme | MmaScheme | None:
    """The target's matrix-core scheme for the input type if there is one (and it is wanted),
    else FMA; None when the FMA micro-tile is too wide for the target's vectors."""
    intrinsic = mma.INTRINSICS.get((mma.family(tgt.backend, tgt.arch), str(p.elem_type))) if use_mma else None
    if intrinsic is not None and intrinsic.subgroup == tgt.subgroup_size:
        scheme = MmaScheme(t, intrinsic)
        if scheme.fits():
            return scheme
    # Vector widths are powers of two (SPIR-V has no vector<3xf16> loads); TM is one only for the
    # reads of an A whose rows run along M.
    widths = (t.tn, t.ku) + ((t.tm,) if p.dims["A"][1] != "k" else ())
    if any(w & (w - 1) for w in widths) or (tgt.max_vector_elems and max(widths) > tgt.max_vector_elems):
        return None
    return FmaScheme(t)


# The cost model of `plan_cost`, in multiply-adds, fitted to the ldsopt matmul kernels of
# the BERT-base layer's five shapes, f16, at seven tilings (128x128 to 32x32) on the H200
# (bench/results/cuda-bert): per K element, a tile costs its BM x BN multiply-adds, LOAD per
# element of A and B it loads and STEP whatever its size (the latency a K step waits for
# that no tile size hides); the consumer's body EPILOGUE per op and output; each tile that
# shares a CU with another adds SHARE of its time (a second workgroup on an SM hides some
# of the first one's latency, so two took about 1.8 times one, three 2.6 times).
LOAD_COST = 9
STEP_COST = 4096
EPILOGUE_OP_COST = 64
SHARE = 0.8


def plan_cost(p: Problem, pl: Plan, tgt: target_model.Target) -> tuple[float, int]:
    """(time, work) of the plan in multiply-adds, by a simple model of the machine. The grid's
    T = ceil(M/BM) * ceil(N/BN) * B tiles go round-robin over the target's CUs (SMs); the
    busiest CU takes n = ceil(T / CUs) of them and takes 1 + (n - 1) * SHARE times one tile's
    time (the CUs left idle cost nothing). A tile's time: K x (BM x BN + LOAD_COST x (BM + BN)
    + STEP_COST), the rows and columns past M and N included, plus BM x BN x EPILOGUE_OP_COST
    per op of the fused consumer's body but its constants (the cast to f16 is one). work = T
    tiles' time.
    So a small product takes a tiling whose tiles spread over more CUs (512 x 768 on the
    H200's 132 SMs: 96 tiles of 64x64 rather than 24 of 128x128), a large one the tiling of
    most reuse (4096^2: 128x128), and a skinny one (M or N up to 16, GEMV-like) a 16-row
    (column) tile whose grid runs along the long side."""
    t = pl.tiling
    tiles = math.ceil(p.sizes["m"] / t.bm) * math.ceil(p.sizes["n"] / t.bn) * p.sizes["b"]
    per_cu = math.ceil(tiles / (tgt.compute_units or 1))
    k = math.ceil(p.sizes["k"] / pl.bk) * pl.bk
    epilogue_ops = sum(op.name not in ("arith.constant", "linalg.yield")
                       for op in p.epilogue.op.regions[0].blocks[0].operations) if p.epilogue else 0
    tile = k * (t.bm * t.bn + LOAD_COST * (t.bm + t.bn) + STEP_COST) + t.bm * t.bn * EPILOGUE_OP_COST * epilogue_ops
    return tile * (1 + (per_cu - 1) * SHARE), tiles * tile


def plan(p: Problem, tgt: target_model.Target, lds_budget: int, use_mma: bool,
         tilings: tuple[Tiling, ...] = TILINGS, k_pack: int = -1, stages: int = 2) -> Plan | None:
    """The plan of least `plan_cost` (time, then work, then the first listed) among those of
    `tilings` that fit the target (threads, vector width, LDS), of the target's matrix-core
    scheme when one of them has it (a tiling its intrinsic does not tile falls back to FMA);
    None if none fits. `k_pack`: K steps per fragment read group of matrix-core schemes, at
    most (-1: the most; see `packing`); `stages`: LDS tiles per operand."""
    elem_bytes = element_bits(p.elem_type) // 8
    bk = 64 // elem_bytes  # 64 bytes of K per row: 16 f32, 32 f16/bf16
    model = BankModel(tgt.lds_banks, tgt.lds_bank_bytes, tgt.subgroup_size)
    fitting = []
    for t in tilings:
        whole_subgroups = t.threads % tgt.subgroup_size == 0  # a wave's lanes are all in the tile
        scheme = _scheme(p, t, tgt, use_mma) if t.threads <= tgt.max_threads and whole_subgroups else None
        if scheme is None:
            continue
        staging = {r: _staging(p, r, scheme, bk, tgt, model, stages) for r in ("A", "B")}
        if None in staging.values():
            continue
        pack = packing(scheme, staging, bk, element_bits(p.elem_type), tgt, k_pack)
        staging = {r: with_k_pack(s, scheme, pack, elem_bytes, model) for r, s in staging.items()} if pack else staging
        pl = Plan(scheme, bk, staging)
        if pl.lds_bytes(elem_bytes) <= lds_budget:
            fitting.append(pl)
    if any(isinstance(pl.scheme, MmaScheme) for pl in fitting):
        fitting = [pl for pl in fitting if isinstance(pl.scheme, MmaScheme)]
    return min(fitting, key=lambda pl: plan_cost(p, pl, tgt), default=None)


# --- staging layouts recorded by a pass before this one (inthread_transpose) ----------------

def recorded_staging(root: ir.Operation) -> dict[str, StagingLayout]:
    """The staging layouts recorded on the root op as `ldsopt.staging = {B = {...}}`, by operand."""
    if ATTR not in root.attributes:
        return {}
    recorded = ir.DictAttr(root.attributes[ATTR])
    return {r: StagingLayout.from_attr(recorded[r]) for r in ("A", "B") if r in recorded}


def record_staging(root: ir.Operation, staging: dict[str, StagingLayout], pass_name: str) -> None:
    """Records `staging` on the root op (over what was recorded) for the kernel builder to emit,
    and `pass_name` in `ldsopt.staged_by`, which the kernel reports in `ldsopt.lowered_by`."""
    merged = {**recorded_staging(root), **staging}
    root.attributes[ATTR] = ir.DictAttr.get({r: s.attr() for r, s in sorted(merged.items())})
    names = _staged_by(root)
    names += [pass_name] if pass_name not in names else []
    root.attributes[STAGED_BY] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])


def _staged_by(root: ir.Operation) -> list[str]:
    return [ir.StringAttr(a).value for a in root.attributes[STAGED_BY]] if STAGED_BY in root.attributes else []


def with_recorded(pl: Plan, recorded: dict[str, StagingLayout]) -> Plan:
    """`pl` staging each operand as recorded. A recorded layout was made from this planner's
    layout, so it stages the same tile, for the same threads and fragment; both operands read
    K in one order (k_pack); else ValueError."""
    def key(s: StagingLayout):
        return s.dims, s.tile, s.threads, s.fragment, s.buffers

    for r, s in recorded.items():
        if key(s) != key(pl.staging[r]):
            ours = pl.staging[r]
            raise ValueError(f"the staging recorded for {r} ({s.tile} by {s.threads} threads for {s.fragment}, "
                             f"{s.buffers} LDS tiles) is not of this plan ({ours.tile} by {ours.threads} threads "
                             f"for {ours.fragment}, {ours.buffers} LDS tiles); were the passes run with other "
                             "options?")
    staging = {**pl.staging, **recorded}
    if len({s.k_pack for s in staging.values()}) > 1:
        raise ValueError("the operands' fragment reads group K steps differently (k_pack "
                         + ", ".join(f"{r} {s.k_pack}" for r, s in sorted(staging.items()))
                         + "): the product pairs their K slots; were the passes run with other k-pack options?")
    return dataclasses.replace(pl, staging=staging)


# --- the pass ------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class PlanOptions(ModulePass):
    """The options that choose ldsopt-matmul-lds's plan. The passes that record a staging for
    it to emit (ldsopt-dtl-layout, ldsopt-inthread-transpose) rewrite that plan, so they take
    the same options and must be given the same values; a recorded staging of another plan is
    a located error when ldsopt-matmul-lds runs (`with_recorded`)."""

    workgroups_per_cu: int = option(0, "workgroups that must fit an SM/CU together: in its LDS, and on CUDA in its "
                                       "registers (nvvm.minctasm); 0: the target's (2 on CUDA, 1 elsewhere)", min=0)
    mma: bool = option(True, "use the target's matrix-core intrinsic (gfx942 MFMA, CUDA mma.sync) where it has one")
    tiles: str = option("", "tilings to choose from by the plan's cost rule, as BMxBNxTMxTN,... (TMxTN: the FMA "
                            "micro-tile; threads = BM/TM * BN/TN, whole subgroups; any sizes, e.g. 96x96x3x4); "
                            "default 128x128x8x8 down to 32x32x2x2 and skinny ones (16x64x4x4, 64x16x4x4, "
                            "16x32x2x4, 32x16x4x2)", check=check_tilings)
    k_pack: int = option(-1, "K steps of the matrix-core intrinsic per fragment read group, their K slots fed "
                             "in mma.k_order so that a lane's are consecutive K: -1 as many as a 16-byte read "
                             "takes, 0 the natural order, N at most N", min=-1)
    stages: int = option(2, "LDS tiles of each operand in the K pipeline (2: double buffering); operands copied "
                            "without registers run stages - 1 tiles ahead", min=2)

    def planner(self) -> "MatmulLds":
        """ldsopt-matmul-lds with these plan options."""
        return MatmulLds(**{f.name: getattr(self, f.name) for f in dataclasses.fields(PlanOptions)})


@dataclasses.dataclass(frozen=True)
class MatmulLds(PlanOptions):
    NAME = "ldsopt-matmul-lds"
    SUMMARY = "Lower matmul dispatches to tiled kernels staging through LDS in a K pipeline (double-buffered by default)"

    def run(self, module: ir.Operation) -> None:
        for d, p, tgt in matches(module, self):
            pl = self.plan_dispatch(d, p, tgt)
            if STAGED_BY in d.root.attributes:  # they are named before this pass in lowered_by
                d.func.attributes[LOWERED_BY] = d.root.attributes[STAGED_BY]
            emitter = _MmaEmitter if isinstance(pl.scheme, MmaScheme) else _FmaEmitter
            if any(uses_dtl(s) for s in pl.staging.values()):  # laid out by ldsopt-dtl-layout
                emitter = with_dtl(emitter)
            emitter(d, p, pl, tgt).emit(self.NAME, self.occupancy(tgt))

    def occupancy(self, tgt: target_model.Target) -> int:
        """Workgroups per SM/CU the kernel is planned for. CUDA's default is 2: at one (ptxas
        free to take 255 registers) the inthread-transposed kernels took 163-220 registers and
        ran one workgroup per SM, slower than at 2 on the H200 (bench/results/cuda-matmul/
        README.md, "Measured choices")."""
        return self.workgroups_per_cu or (2 if tgt.backend == "cuda" else 1)

    def lds_budget(self, tgt: target_model.Target) -> int:
        """LDS bytes one workgroup may take: its share of a CU's / SM's, `occupancy` workgroups
        sharing it (target.Target.lds_budget)."""
        return tgt.lds_budget(self.occupancy(tgt))

    def plan_dispatch(self, d: Dispatch, p: Problem, tgt: target_model.Target) -> Plan:
        """The plan of this pass's options, staging each operand as recorded on the root op if it is."""
        budget = self.lds_budget(tgt)
        pl = plan(p, tgt, budget, self.mma, parse_tilings(self.tiles), self.k_pack, self.stages)
        if pl is None:
            which = f" of tiles={self.tiles}" if self.tiles else ""
            raise PassError(d.location, f"{self.NAME}: no tiling{which} fits the target's threads (whole subgroups "
                                        f"of {tgt.subgroup_size}, at most {tgt.max_threads}), vectors and LDS")
        try:
            pl = with_recorded(pl, recorded_staging(d.root))
        except ValueError as e:
            raise PassError(d.location, f"{self.NAME}: {e}") from None
        if self.k_pack >= 0 and pl.staging["A"].k_pack > self.k_pack:
            raise PassError(d.location, f"{self.NAME}: the recorded staging reads {pl.staging['A'].k_pack} K steps "
                                        f"at once, more than k-pack={self.k_pack}; give the passes the same k-pack")
        if pl.lds_bytes(element_bits(p.elem_type) // 8) > budget:
            raise PassError(d.location, f"{self.NAME}: the recorded staging needs more LDS than the target has")
        return pl


def matches(module: ir.Operation, by: ModulePass | str):
    """(dispatch, problem, target) of each matmul dispatch not lowered yet (kernel.matched_dispatches)."""
    return matched_dispatches(module, ROOTS, match, by, analyzer=analyze_matmul)


class _Emitter:
    """Builds the kernel of one planned dispatch: staging and the K loop here; the product
    and the output store in the scheme's subclass."""

    def __init__(self, d: Dispatch, p: Problem, pl: Plan, tgt: target_model.Target):
        self.d, self.p, self.pl = d, p, pl
        t = pl.tiling
        grid = (math.ceil(p.sizes["n"] / t.bn), math.ceil(p.sizes["m"] / t.bm), p.sizes["b"])
        self.k = Kernel(d, tgt, (t.threads, 1, 1), grid)
        self.f32 = ir.F32Type.get()
        self.n_steps = math.ceil(p.sizes["k"] / pl.bk)

    def emit(self, pass_name: str, workgroups_per_cu: int = 1) -> None:
        k, p, pl, t = self.k, self.p, self.pl, self.pl.tiling
        with k.ip, self.d.location:
            loaded = isinstance(p.init, Binding)
            init_is_output = loaded and p.init.source == p.output.source  # before memref() rebinds it
            self.out = p.output.memref()
            self.init = None if not loaded else self.out if init_is_output else p.init.memref()
            self.mem = {r: b.memref() for r, b in p.operands.items()}
            self.epilogue_mem = [None if x is None else x[0].memref() for x in p.epilogue.inputs] if p.epilogue else []
            self.lds = {r: self._alloc(s) for r, s in pl.staging.items()}
            self.tid = k.thread_id()
            self.raw = {r: self._raw_staging(s) for r, s in pl.staging.items() if s.raw_elems}
            self.batch = k.block_id("z") if p.batched else None
            self.origin = {"m": arith.muli(k.block_id("y"), k.const(t.bm)),
                           "n": arith.muli(k.block_id("x"), k.const(t.bn))}
            self._thread_origins()
            self.chunks = {r: self._chunk_coords(s) for r, s in pl.staging.items()}
            self.prefetchers = {r: L1Prefetch(self.mem[r]) for r, s in pl.staging.items() if s.prefetch}
            self.group = None  # the cp.async group of the newest tile's copies (CUDA)
            if self._any_copied():  # the copied operands run stages - 1 tiles ahead
                for tile in range(pl.stages - 1):
                    self._start_copies(k.const(min(tile, self.n_steps - 1) * pl.bk), k.const(tile),
                                       self._slot(k.const(tile)))
            self._land(self._read_tiles(k.const(0)), k.const(0), self._slot(k.const(0)))
            gpu.barrier()
            acc0 = self._acc_init(k.const(p.init if isinstance(p.init, float) else 0.0, self.f32))
            loop = scf.ForOp(k.const(0), k.const(self.n_steps), k.const(1), acc0)
        with ir.InsertionPoint(loop.body), self.d.location:
            self._k_step(loop.induction_variable, list(loop.inner_iter_args))
        with k.ip, self.d.location:
            self._store_output(list(loop.results))
        k.finish(pass_name, workgroups_per_cu)

    # --- what a scheme provides ---

    def _thread_origins(self) -> None:
        """Sets `frag_origin[role]`: where this thread's fragments start in the tile, along M (A)
        or N (B)."""
        raise NotImplementedError

    def _acc_init(self, value: ir.Value) -> list[ir.Value]:
        raise NotImplementedError

    def _multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value]) -> list[ir.Value]:
        """The accumulators after the K sub-steps of `_k_group` elements at `kk` of LDS buffer `buf`."""
        raise NotImplementedError

    def _store_output(self, acc: list[ir.Value]) -> None:
        raise NotImplementedError

    # --- staging ---

    def _alloc(self, s: StagingLayout) -> ir.Value:
        mtype = ir.MemRefType.get(list(s.lds_shape), self.p.elem_type,
                                  memory_space=ir.Attribute.parse("#gpu.address_space<workgroup>"))
        buf = memref.alloc(mtype, [], [])
        buf.owner.attributes[ATTR] = s.attr()
        return buf

    def _raw_staging(self, s: StagingLayout) -> tuple[ir.Value, ir.Value, ir.Value]:
        """(staging buffer, the operand as cp.async's source, this thread's first element) of a
        transposed tile copied directly: the buffer holds stages - 1 tiles in flight (its
        slots); raked row i of chunk j of thread t lands at element ((j * rake + i) * threads +
        t) * vector of its slot, so a warp's copies (and its reads back) of one row are
        consecutive vectors, free of bank conflicts."""
        space = ir.Attribute.parse("#gpu.address_space<workgroup>")
        shape = [s.buffers - 1, s.tile[0] * s.tile[1]]
        buf = memref.alloc(ir.MemRefType.get(shape, self.p.elem_type, memory_space=space), [], [])
        return buf, dtl_emit.dma_source(self, self.mem[s.operand]), self._scaled(self.tid, s.vector)

    def _chunk_coords(self, s: StagingLayout) -> list[tuple[ir.Value, ir.Value]]:
        """Tile (row, col) of each chunk this thread moves (`StagingLayout.chunk_coords_expr`
        of chunk tid + threads * j); the same every K step, so computed once."""
        tid = index_expr.var("tid")
        return [tuple(self.k.index(list(s.chunk_coords_expr(index_expr.offset(tid, s.threads * j))), tid=self.tid))
                for j in range(s.chunks_per_thread)]

    def _scaled(self, v: ir.Value, factor: int) -> ir.Value:
        return arith.muli(v, self.k.const(factor)) if factor > 1 else v

    def _row_reads(self, role: str, k0: ir.Value) -> list[list[tuple[list[tuple[ir.Value, int]], list[ir.Value]]]]:
        """Per chunk this thread reads of the operand's tile at K offset `k0`, per raked row:
        (its global indices past a tile-ragged end, as `_inside` takes them; its global index)."""
        s = self.pl.staging[role]
        origin = {**self.origin, "k": k0}
        tile_extent = dict(zip(s.dims, s.tile))
        out = []
        for row0, col in self.chunks[role]:
            rows = []
            for i in range(s.rake):
                glob = [arith.addi(origin[dim], x) for dim, x in zip(s.dims, (self._offset(row0, i), col))]
                ragged = [(g, self.p.sizes[dim]) for dim, g in zip(s.dims, glob)
                          if self.p.sizes[dim] % tile_extent[dim]]
                rows.append((ragged, ([self.batch] if self.batch is not None else []) + glob))
            out.append(rows)
        return out

    def _read_tile(self, role: str, k0: ir.Value) -> list[list[ir.Value]]:
        """This thread's chunks of the operand's tile at K offset `k0`, zeros past the ends:
        per chunk, the vectors its LDS writes store (`StagingLayout.lds_writes` order)."""
        s = self.pl.staging[role]
        vtype = ir.VectorType.get([s.vector], self.p.elem_type)
        regs = []
        for chunk in self._row_reads(role, k0):
            rows = [self._read_or_zero(ragged, vtype, self.mem[role], idx) for ragged, idx in chunk]
            regs.append(self._transposed(rows) if s.register_transpose else rows)
        return regs

    def _prefetch_tile(self, role: str, k0: ir.Value) -> None:
        """Prefetches into L1 each line this thread's reads of the operand's tile at K offset `k0`
        touch (StagingLayout.prefetch), under the reads' guards."""
        for chunk in self._row_reads(role, k0):
            for ragged, idx in chunk:
                with self._guard(ragged):
                    self.prefetchers[role](idx)

    def _raw_index(self, s: StagingLayout, slot: ir.Value, j: int, i: int) -> list[ir.Value]:
        return [slot, self._offset(self.raw[s.operand][2], (j * s.rake + i) * s.threads * s.vector)]

    def _copy_tile(self, role: str, k0: ir.Value, buf: ir.Value, slot: ir.Value | None) -> list[ir.Value]:
        """Starts the copies of the operand's tile at K offset `k0` that need no registers
        (`_copied`), into LDS tile `buf` or staging slot `slot`; returns their cp.async tokens.
        Here the raked rows of a transposed tile, into this thread's part of the slot (rows past
        K zero-filled, indices past M/N clamped: they only feed outputs never stored, as
        dtl_emit's copies)."""
        s = self.pl.staging[role]
        raw, src, _ = self.raw[role]
        tokens = []
        for j, (row0, col) in enumerate(self.chunks[role]):
            for i in range(s.rake):
                idx, k_tail = dtl_emit.global_index(self, role, k0, (self._offset(row0, i), col))
                tokens.append(dtl_emit.async_copy(raw, self._raw_index(s, slot, j, i), src, idx, s.vector,
                                                  self._inside(k_tail) if k_tail else None))
        return tokens

    def _raked_from_staging(self, role: str, slot: ir.Value) -> list[list[ir.Value]]:
        """This thread's raked rows read back from staging slot `slot` (landed: `_land`): per
        chunk, the columns of its transposed register tile."""
        s = self.pl.staging[role]
        vtype = ir.VectorType.get([s.vector], self.p.elem_type)
        elem_bytes = element_bits(self.p.elem_type) // 8
        return [self._transposed([read_vector(vtype, self.raw[role][0], self._raw_index(s, slot, j, i),
                                              s.vector * elem_bytes)
                                  for i in range(s.rake)]) for j in range(s.chunks_per_thread)]

    def _transposed(self, rows: list[ir.Value]) -> list[ir.Value]:
        """The columns of the register tile whose rows are `rows`: one `vector.transpose` of the
        tile (for 16-bit elements gfx942 packs the columns with v_perm_b32)."""
        width = ir.VectorType(rows[0].type).shape[0]
        elem = ir.VectorType(rows[0].type).element_type
        tile = vector.broadcast(ir.VectorType.get([len(rows), width], elem), self.k.const(0.0, elem))
        for i, row in enumerate(rows):
            tile = vector.insert(row, tile, [], [i])
        columns = vector.transpose(ir.VectorType.get([width, len(rows)], elem), tile, [1, 0])
        return [vector.extract(columns, [], [j]) for j in range(width)]

    def _store_tile(self, role: str, regs: list[list[ir.Value]], buf: ir.Value) -> None:
        s = self.pl.staging[role]
        for values, (row, col) in zip(regs, self.chunks[role]):
            # Transposed: column j of the register tile goes to LDS row col + j, at K = row.
            row, col = (col, row) if s.register_transpose else (row, col)
            for reg, dr, n in s.write_slices():
                write_vector(values[reg], self.lds[role], [buf, *self._lds_index(s, self._offset(row, dr), col)],
                             self._align(s, n))

    def _align(self, s: StagingLayout, n: int) -> int:
        """Bytes of alignment of an LDS access of n elements (0: none stated; SPIR-V, scalars):
        every layout starts an access at a multiple of its elements (pads and swizzle units
        are multiples of the widest access; unit-tested), so a row's and a buffer's stride
        bound it."""
        if self.k.target.backend == "vulkan" or n == 1:
            return 0
        elem_bytes = element_bits(self.p.elem_type) // 8
        return math.gcd(n * elem_bytes, s.lds_shape[-1] * elem_bytes, math.prod(s.lds_shape[1:]) * elem_bytes)

    def _lds_index(self, s: StagingLayout, row: ir.Value, col: ir.Value) -> tuple[ir.Value, ir.Value]:
        """The LDS (row, col) of tile element (row, col), as `s.address_map` places it."""
        placed = s.address_map.place(index_expr.var("row"), index_expr.var("col"))
        return tuple(self.k.index(list(placed), row=row, col=col))

    # --- the K loop ---

    def _k_step(self, kt: ir.Value, acc: list[ir.Value]) -> None:
        k, stages = self.k, self.pl.stages
        if self._any_copied():
            ahead = self._offset(kt, stages - 1)
            self._start_copies(self._k0(ahead), arith.remui(ahead, k.const(stages)), self._slot(ahead))
        cur = arith.remui(kt, k.const(stages))
        following = self._offset(kt, 1)
        for r in self.prefetchers:
            self._prefetch_tile(r, self._k0(self._offset(kt, self.pl.staging[r].prefetch)))
        loaded = self._read_tiles(self._k0(following))
        for kk in range(0, self.pl.bk, self._k_group()):
            acc = self._multiply(cur, kk, acc)
        self._land(loaded, arith.remui(following, k.const(stages)), self._slot(following))
        gpu.barrier()
        scf.yield_(acc)

    def _slot(self, tile: ir.Value) -> ir.Value | None:
        """The staging slot of K tile `tile` (tile % (stages - 1)); None without a raked tile
        copied directly."""
        if not self.raw:
            return None
        slots = self.pl.stages - 1
        return arith.remui(tile, self.k.const(slots)) if slots > 1 else self.k.const(0)

    def _k0(self, tile: ir.Value) -> ir.Value:
        """K offset of K tile `tile`, clamped to the last tile."""
        return arith.minui(arith.muli(tile, self.k.const(self.pl.bk)), self.k.const((self.n_steps - 1) * self.pl.bk))

    def _copied(self, role: str) -> bool:
        """Whether the operand's tiles travel by copies that hold no registers (`_copy_tile`)."""
        return role in self.raw

    def _any_copied(self) -> bool:
        return any(self._copied(r) for r in self.pl.staging)

    def _read_tiles(self, k0: ir.Value) -> dict[str, list[list[ir.Value]]]:
        """The register-staged operands' chunks of the tiles at K offset `k0`."""
        return {r: self._read_tile(r, k0) for r in self.pl.staging if not self._copied(r)}

    def _start_copies(self, k0: ir.Value, buf: ir.Value, slot: ir.Value | None) -> None:
        """Starts the copied operands' copies of the tiles at K offset `k0` (into LDS tile
        `buf`, staging slot `slot`); on CUDA closes them into one cp.async group."""
        tokens = [t for r in self.pl.staging if self._copied(r) for t in self._copy_tile(r, k0, buf, slot)]
        if tokens:
            self.group = ir.Operation.create("nvgpu.device_async_create_group", results=[dtl_emit.async_token()],
                                             operands=tokens).result

    def _wait_copies(self) -> None:
        """Waits for this thread's copies of the next tile: the stages - 2 newer groups stay
        in flight (cp.async.wait_group)."""
        i32 = ir.IntegerType.get_signless(32)
        ir.Operation.create("nvgpu.device_async_wait", operands=[self.group],
                            attributes={"numGroups": ir.IntegerAttr.get(i32, self.pl.stages - 2)})

    def _land(self, regs: dict[str, list[list[ir.Value]]], buf: ir.Value, slot: ir.Value | None) -> None:
        """Puts the next tile into LDS tile `buf`, before the barrier that publishes it: waits
        for its copies, transposes a raked tile from its staging slot `slot`, stores `regs`."""
        if self._any_copied():
            self._wait_copies()
        for r in self.pl.staging:
            if r in self.raw:
                self._store_tile(r, self._raked_from_staging(r, slot), buf)
            elif r in regs:
                self._store_tile(r, regs[r], buf)

    def _k_group(self) -> int:
        """K elements each `_multiply` covers."""
        return self.pl.scheme.k_step

    def _lds_read(self, role: str, buf: ir.Value, row: ir.Value, col: ir.Value, n: int) -> ir.Value:
        s = self.pl.staging[role]
        return read_vector(ir.VectorType.get([n], self.p.elem_type), self.lds[role],
                           [buf, *self._lds_index(s, row, col)], self._align(s, n))

    def _offset(self, base: ir.Value, off: int) -> ir.Value:
        return arith.addi(base, self.k.const(off)) if off else base

    # --- output ---

    def _store_piece(self, piece: ir.Value, m: ir.Value, n: ir.Value) -> None:
        """Stores a vector of the output along N at (m, n), adding the loaded init if any and
        applying the epilogue if any (stored in its result's dim order); guarded where the
        tiles do not divide M or N (vector widths divide N)."""
        p, t = self.p, self.pl.tiling
        ragged = [(x, p.sizes[dim]) for dim, x, tile in (("m", m, t.bm), ("n", n, t.bn)) if p.sizes[dim] % tile]
        idx = ([self.batch] if self.batch is not None else []) + [m, n]
        with self._guard(ragged):
            value = piece if self.init is None else arith.addf(piece, read_vector(piece.type, self.init, idx))
            if p.epilogue:
                write_vector(self._epilogue(value, idx), self.out, [idx[i] for i in p.epilogue.out_dims])
            else:
                write_vector(value, self.out, idx)

    def _epilogue(self, value: ir.Value, idx: list[ir.Value]) -> ir.Value:
        """The epilogue's body on vectors along N at `idx` (b?, m, n), `value` standing for the
        contraction's result: an operand with n as its last dim read as a vector there, any
        other as the scalar at its dims of `idx`, broadcast."""
        width = ir.VectorType(value.type).shape[0]
        last = len(idx) - 1
        args = []
        for x, buf in zip(self.p.epilogue.inputs, self.epilogue_mem):
            if x is None:
                args.append(value)
                continue
            at = [idx[i] for i in x[1]]
            vtype = ir.VectorType.get([width], x[0].tensor_type.element_type)
            args.append(read_vector(vtype, buf, at) if x[1] and x[1][-1] == last
                        else vector.broadcast(vtype, memref.load(buf, at)))
        return vectorize_body(self.p.epilogue.op, args, width)

    # --- guards ---

    def _inside(self, ragged: list[tuple[ir.Value, int]]) -> ir.Value:
        conds = [arith.cmpi(arith.CmpIPredicate.ult, x, self.k.const(n)) for x, n in ragged]
        cond = conds[0]
        for c in conds[1:]:
            cond = arith.andi(cond, c)
        return cond

    def _read_or_zero(self, ragged: list[tuple[ir.Value, int]], vtype: ir.VectorType, buf: ir.Value,
                      idx: list[ir.Value]) -> ir.Value:
        if not ragged:
            return read_vector(vtype, buf, idx)
        guard = scf.IfOp(self._inside(ragged), [vtype], has_else=True)
        with ir.InsertionPoint(guard.then_block):
            scf.yield_([read_vector(vtype, buf, idx)])
        with ir.InsertionPoint(guard.else_block):
            scf.yield_([vector.broadcast(vtype, self.k.const(0.0, vtype.element_type))])
        return guard.result

    @contextlib.contextmanager
    def _guard(self, ragged: list[tuple[ir.Value, int]]):
        """Emits the body of the `with` under `scf.if` all of `ragged` inside (directly if empty)."""
        if not ragged:
            yield
            return
        guard = scf.IfOp(self._inside(ragged))
        with ir.InsertionPoint(guard.then_block):
            yield
            scf.yield_([])


class _FmaEmitter(_Emitter):
    """FMA on f32 vectors of TN: correct on every target, vectors of at most 4 on SPIR-V."""

    def _thread_origins(self) -> None:
        k, t = self.k, self.pl.tiling
        ty, tx = k.delinearize(self.tid, [t.bm // t.tm, t.bn // t.tn])
        self.frag_origin = {"A": arith.muli(ty, k.const(t.tm)), "B": arith.muli(tx, k.const(t.tn))}

    def _acc_init(self, value: ir.Value) -> list[ir.Value]:
        t = self.pl.tiling
        return [vector.broadcast(ir.VectorType.get([t.tn], self.f32), value)] * t.tm

    def _multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value]) -> list[ir.Value]:
        t = self.pl.tiling
        a, b = self._fragment_reads("A", buf, kk), self._fragment_reads("B", buf, kk)
        acc = list(acc)
        for u in range(t.ku):
            b_u = self._fragment_vector("B", b, u)
            for i in range(t.tm):
                a_iu = vector.broadcast(b_u.type, self._fragment_elem("A", a, i, u))
                acc[i] = vector.fma(a_iu, b_u, acc[i])
        return acc

    def _fragment_reads(self, role: str, buf: ir.Value, kk: int) -> list[ir.Value]:
        """This thread's fragment for the K sub-step at `kk`, as f32 vectors read along the LDS
        rows: one per M/N element when the rows run along K, else one per K element."""
        s, k = self.pl.staging[role], self.k
        x0 = self.frag_origin[role]
        reads = self.pl.scheme.reads(role, s.k_contiguous, 0)  # static offsets: lane 0's origin is 0
        return [self._to_f32(self._lds_read(role, buf, self._offset(x0, row) if s.k_contiguous else k.const(kk + row),
                                            k.const(kk + col) if s.k_contiguous else self._offset(x0, col), n))
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
        return vector.from_elements(ir.VectorType.get([n], self.f32),
                                    [self._fragment_elem(role, reads, x, u) for x in range(n)])

    def _to_f32(self, v: ir.Value) -> ir.Value:
        vtype = ir.VectorType(v.type)
        if vtype.element_type == self.f32:
            return v
        return arith.extf(ir.VectorType.get(vtype.shape, self.f32), v)

    def _store_output(self, acc: list[ir.Value]) -> None:
        """Each accumulator row in the widest vectors that divide N."""
        p, t = self.p, self.pl.tiling
        width = _pow2_dividing(math.gcd(t.tn, p.sizes["n"]), t.tn)
        m0 = arith.addi(self.origin["m"], self.frag_origin["A"])
        n0 = arith.addi(self.origin["n"], self.frag_origin["B"])
        for i, row in enumerate(acc):
            for q in range(0, t.tn, width):
                piece = row if width == t.tn else \
                    vector.extract_strided_slice(ir.VectorType.get([width], self.f32), row, [q], [width], [1])
                self._store_piece(piece, self._offset(m0, i), self._offset(n0, q))


class _MmaEmitter(_Emitter):
    """Matrix-core intrinsics (amdgpu.mfma, nvgpu.mma.sync) on fragments in their operand
    layouts, read from LDS in the longest runs the staging order allows."""

    def _thread_origins(self) -> None:
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

    def _acc_init(self, value: ir.Value) -> list[ir.Value]:
        rm, rn = self.pl.scheme.reps
        return [vector.broadcast(self.pl.scheme.intrinsic.c.register_type(self.f32), value)] * (rm * rn)

    def _k_group(self) -> int:
        """The intrinsic's K times the K steps of one fragment read group (`k_pack`, the same
        for both operands)."""
        return self.pl.scheme.k_step * max(self.pl.staging["A"].k_pack, 1)

    def _multiply(self, buf: ir.Value, kk: int, acc: list[ir.Value]) -> list[ir.Value]:
        sch = self.pl.scheme
        rm, rn = sch.reps
        # B's fragments (2 registers a step for mma.sync, 4 MFMA) stay in registers while A's
        # (4) are read one repetition at a time: with two K steps a read group, all of both
        # took more than the 128 registers of 2 workgroups per SM on CUDA (ncu: 12.7 M spill
        # requests on NT f16 4096^3).
        b = [self._fragments("B", buf, kk, c * sch.intrinsic.n) for c in range(rn)]
        acc = list(acc)
        for r in range(rm):
            a = self._fragments("A", buf, kk, r * sch.intrinsic.m)
            for st, a_st in enumerate(a):
                for c in range(rn):
                    acc[r * rn + c] = sch.intrinsic.emit(a_st, b[c][st], acc[r * rn + c])
        return acc

    def _fragments(self, role: str, buf: ir.Value, kk: int, x_off: int) -> list[ir.Value]:
        """This lane's registers of the intrinsic tiles at M/N offset `x_off` (from the wave's
        origin) for the K steps of the read group at `kk` (k_pack of them, else one), read from
        LDS in the runs of consecutive columns (`row_runs`) and assembled in the intrinsic's
        register layout; packed, K slot j of the group is K index kk + k_order(j)."""
        s, sch, k = self.pl.staging[role], self.pl.scheme, self.k
        first, second = sch.lane_maps(role, s.k_pack)
        x = arith.addi(self._offset(self.frag_origin[role], x_off), self._lane_offset(first))
        kv = arith.addi(k.const(kk), self._lane_offset(second))
        row, col = (x, kv) if s.k_contiguous else (kv, x)
        steps = sch.element_coords(role, s.k_contiguous, s.k_pack)
        where = {}
        for r, c, n in row_runs([e for st in steps for e in st]):
            piece = self._lds_read(role, buf, self._offset(row, r), self._offset(col, c), n)
            where.update({(r, c + i): (piece, i) for i in range(n)})
        return [self._register(sch.layout(role), [where[e] for e in st]) for st in steps]

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

    def _store_output(self, acc: list[ir.Value]) -> None:
        """Each intrinsic tile's C elements in runs along N, as long as the runs and N allow."""
        sch = self.pl.scheme
        c = sch.intrinsic.c
        rm, rn = sch.reps
        coords = list(zip(c.d_first, c.d_second))
        m_lane = arith.addi(arith.addi(self.origin["m"], self.frag_origin["A"]), self._lane_offset(c.first))
        n_lane = arith.addi(arith.addi(self.origin["n"], self.frag_origin["B"]), self._lane_offset(c.second))
        for r in range(rm):
            for q in range(rn):
                value = acc[r * rn + q]
                flat = value if len(c.shape) == 1 else \
                    vector.shape_cast(ir.VectorType.get([c.elems], self.f32), value)
                for e, n in mma.runs(coords):
                    width = _pow2_dividing(math.gcd(n, self.p.sizes["n"]), n)
                    for j in range(e, e + n, width):
                        piece = flat if width == c.elems else vector.extract_strided_slice(
                            ir.VectorType.get([width], self.f32), flat, [j], [width], [1])
                        dm, dn = coords[j]
                        self._store_piece(piece, self._offset(m_lane, r * sch.intrinsic.m + dm),
                                          self._offset(n_lane, q * sch.intrinsic.n + dn))
