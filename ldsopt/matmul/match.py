"""Which dispatches are matmuls: a contraction (`MatmulProblem`), optionally fed by a fused
elementwise producer per operand (`Prologue`), its init broadcast from a loaded tensor by a
fused producer (`BroadcastInit`), and followed by one fused elementwise consumer (`Epilogue`)
and statistics of its result (chunk_stats.py); the contract is ldsopt-matmul-lds's.
`matches` yields (dispatch, problem, target) for each dispatch not lowered yet; `match`
returns an `Unmatched` reason (a remark) for the others.

Dynamic M, N and K (extents read at run time: a sequence's length, as the rows of a projection,
the keys of Q K^T, the reduced keys of P V), in any combination with the batch static, are taken
(`MatmulProblem.dynamic`), each planned as NOMINAL_EXTENT; a dynamic batch, a dynamic extent
with a fused producer, and a dynamic convolution are refused with which it is."""

from __future__ import annotations

import dataclasses
import functools
import math

from iree.compiler import ir

from ldsopt.codegen.dispatch import (Binding, Dispatch, Graph, Strided, analyze, analyze_graph, dynamic_extent,
                                     load_binding)
from ldsopt.codegen.elementwise import body_is_elementwise, map_dims
from ldsopt.codegen.epilogue import Epilogue, loaded_projections, match_epilogue
from ldsopt.codegen.kernel import matched_dispatches
from ldsopt.ir_types import element_bits, producer
from ldsopt.codegen.padding import PAD, Padded, padded_inputs, split_pads
from ldsopt.matmul import chunk_stats, row_stats
from ldsopt.matmul.implicit_gemm import GemmView, gemm_view
from ldsopt.matmul.row_stats import RowStats, RowValue
from ldsopt.registry import ModulePass
from ldsopt.remarks import Unmatched

# Named matmuls carry `indexing_maps` (defaults included; transposed operands are maps, as
# IREE 3.13's MLIR spells `matmul_transpose_b`) and a generic-like body too; so does
# `linalg.contract`.
ROOTS = ("linalg.generic", "linalg.matmul", "linalg.batch_matmul", "linalg.contract")
# Input type -> the accumulator's (and the contraction's result) type. i8 products are
# exact in i32 (as `linalg.matmul`'s default signed cast says: both operands sign-extended).
ACCUMULATORS = {"f32": "f32", "f16": "f32", "bf16": "f32", "i8": "i32"}
# 16-bit float products whose result is of the operands' type (as some importers write an f16
# model's matmuls): accumulated in f32 like the others, rounded to the result's type once, at
# the store, instead of after every add as the program states it (a result at least as close
# to the exact sum, within the type's rounding of it).
ROUNDED_RESULTS = ("f16", "bf16")
# The multiply-add body's ops, per accumulator type: (add, multiply, extension of an input).
_BODY_OPS = {"f32": ("arith.addf", "arith.mulf", "arith.extf"), "i32": ("arith.addi", "arith.muli", "arith.extsi")}
NOT_PROJECTION = "an indexing map is not a projection of the loops"
NO_BATCH = "an operand does not have the batch dim"
NOT_MATRIX = "an operand is not an (m, k) or (k, n) matrix in some order"
# The size a dynamic M, N or K is planned for (the planner's cost model and tile choice want a
# size; the kernel reads the real one at run time and treats such a dim as ragged): a sequence
# of 512 tokens, the longest BERT-like encoders take, so that the tile is chosen for the long
# sequences where the kernel's time is, not for the short ones that one wave covers anyway.
NOMINAL_EXTENT = 512
DYNAMIC = "dynamic shapes (extents read at run time)"
_NAMES = {"b": "batch", "m": "M", "n": "N", "k": "K"}  # ContractionForm.dynamic's, in remarks


@dataclasses.dataclass
class Prologue:
    """An elementwise linalg.generic fused before the contraction that computes one of its
    operands (IREE fuses a dequantization: `extf`/`sitofp` of narrower weights times a
    per-channel scale, broadcast along the batch or not): applied to the loaded values of each operand tile before they are
    stored into LDS."""

    op: ir.Operation
    # Per input of `op`: a loaded binding and the loops (positions in the operand's dims
    # (b?, r0, r1), ascending) it reads.
    inputs: list[tuple[Binding, tuple[int, ...]]]

    @property
    def source(self) -> Binding:
        """The input over the most loops (the weights, not their scale), which stands for the
        operand's binding."""
        return max(self.inputs, key=lambda x: len(x[1]))[0]


@dataclasses.dataclass
class BroadcastInit(Binding):
    """An init that a fused linalg.generic broadcasts from a loaded binding (a convolution's
    bias, as torch-mlir starts a convolution's accumulator from it): the binding, read at the
    output's dims `reads` (positions in the contraction's output, ascending)."""

    reads: tuple[int, ...] = ()


@dataclasses.dataclass
class MatmulDispatch(Dispatch):
    """A dispatch whose root is the contraction; `output` is where the epilogue's result is
    stored when it has one. An input of the root computed by a prologue has as its binding
    the prologue's `source`."""

    epilogue: Epilogue | None = None
    prologues: dict[int, Prologue] = dataclasses.field(default_factory=dict)  # per root input position
    row_stats: RowStats | None = None  # row sums of A that the epilogue reads (row_stats.py)
    init: BroadcastInit | None = None  # the root's init where a fused producer broadcasts it
    chunk_stats: chunk_stats.ChunkStats | None = None  # statistics of the epilogue's result (chunk_stats.py)


@dataclasses.dataclass
class MatmulProblem:
    """A matched contraction: sizes, each operand's dims in memory order, its init."""

    sizes: dict[str, int]               # "b" (1 without batch; the batch dims' product), "m", "n", "k"
    operands: dict[str, Binding]        # "A" (over m, k), "B" (over n, k); a prologue's source
    dims: dict[str, tuple[str, ...]]    # memory order per operand, batch dropped: ("m", "k") ...
    batched: bool
    init: float | int | Binding         # a fill constant, the loaded initial output or a BroadcastInit
    output: Binding                     # the contraction's result, or the epilogue's
    epilogue: Epilogue | None = None
    prologues: dict[str, Prologue] = dataclasses.field(default_factory=dict)  # per operand role
    rounded: bool = False               # the result is of the operands' 16-bit type (ROUNDED_RESULTS)
    # The extents of the batch dims in the output's order where there are several (a K split
    # into chunks, ldsopt-split-matmul, of a batch matmul: the chunk, then the batch); () for
    # one or none.
    batch_shape: tuple[int, ...] = ()
    # Per operand role, where each batch dim (in the output's order) sits in its memory order
    # (absent: the leading dims). The chunks of a K split read A [m, k] as [m, chunk, k'].
    batch_at: dict[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # A convolution read as an implicit GEMM (ldsopt/matmul/implicit_gemm.py): its operands are
    # gathered from their tensors, its output written at its own dims.
    view: GemmView | None = None
    # The dynamic dims' extents ("m", "n", "k": values of the dispatch computed from its
    # workload ordinals; sizes[dim] is then NOMINAL_EXTENT, what the plan is made for).
    dynamic: dict[str, ir.Value] = dataclasses.field(default_factory=dict)
    row_stats: RowStats | None = None  # row sums of A that the epilogue reads (row_stats.py)
    chunk_stats: chunk_stats.ChunkStats | None = None  # statistics of the epilogue's result (chunk_stats.py)

    def extent(self, dim: str) -> int | ir.Value:
        """The extent of matrix dim `dim` ("m", "n" or "k") as the kernel bounds its indices
        by: its size, or a dynamic dim's run-time value."""
        return self.dynamic.get(dim, self.sizes[dim])

    def ragged(self, dim: str, tile: int) -> bool:
        """Whether tiles of `tile` along matrix dim `dim` may end past its extent (their
        indices then guarded or clamped): they do not divide its size, or it is dynamic."""
        return dim in self.dynamic or self.sizes[dim] % tile != 0

    def run(self, role: str, copied: bool = False) -> int:
        """Elements of the operand contiguous in memory along its last matrix dim (the plan's
        vectors along it divide this): that dim's extent, or a convolution's innermost loop's;
        1 along a dynamic dim (a vector could run past its end); no longer than the rows' starts
        are aligned to (`Binding.aligned_run`: a binding at an odd offset, an odd row length).
        `copied`: what a copy of whole aligned lanes (cp.async, wgmma's) moves at once, no longer
        than every run's start is aligned to, a convolution's loops outside it included
        (`GemmView.start_steps`: an NCHW image's `ow + kw`); a register's read need not be
        (LLVM splits it on CUDA, HIP reads it whole; SPIR-V: `GemmView.aligned_vectors`)."""
        if self.view:
            steps = functools.partial(self.view.start_steps, role) if copied else None
            return self.operands[role].aligned_run(self.view.runs(role), steps)
        last = self.dims[role][1]
        return 1 if last in self.dynamic else self.operands[role].aligned_run(self.sizes[last])

    def run_stride(self, role: str) -> int:
        """The stride in memory between the consecutive elements of the operand's run: 1, or a
        convolution's strided run's (GemmView.strides: a vector is read n * s wide)."""
        return self.view.strides.get(role, 1) if self.view else 1

    @property
    def out_run(self) -> int:
        """Outputs contiguous along n from any multiple of a divisor of this (the output's vectors
        divide it): N, or a convolution's innermost output loop's extent (NCHW's output
        columns: a vector does not cross into the next row); 1 for a dynamic N (`run`); as `run`,
        no longer than the rows' starts are aligned to (the interior of a padded tensor)."""
        return self.output.aligned_run(self.view.extents[self.view.groups["n"][-1]] if self.view else
                                       1 if "n" in self.dynamic else self.sizes["n"])

    def operand_index(self, role: str, batch: list[ir.Value], idx: list[ir.Value]) -> list[ir.Value]:
        """The operand's full index: `idx` over its two matrix dims, each of the batch dims'
        indices `batch` at its place."""
        out = list(idx)
        for at, b in sorted(zip(self.batch_at.get(role, range(len(batch))), batch), key=lambda x: x[0]):
            out.insert(at, b)
        return out

    @property
    def elem_type(self) -> ir.Type:
        """The contraction's operand type (what LDS holds): a prologue's result type where one
        computes A."""
        if "A" in self.prologues:
            return ir.RankedTensorType(self.prologues["A"].op.results[0].type).element_type
        return self.operands["A"].tensor_type.element_type

    @property
    def acc_type(self) -> ir.Type:
        """The accumulator's type: f32 for float inputs, i32 for i8 (ACCUMULATORS)."""
        return ir.Type.parse(ACCUMULATORS[str(self.elem_type)])


def _is_mul_add_body(root: ir.Operation, acc_type: str) -> bool:
    """The body is `yield out + ext?(in0) * ext?(in1)` (either order of add and mul operands),
    in the accumulator's arithmetic: addf, mulf, extf for f32; addi, muli, extsi for i32 (an
    i8 operand's extension must be there, a signed one: `arith.extui`, unsigned i8, is not
    taken)."""
    add_name, mul_name, ext_name = _BODY_OPS[acc_type]
    block = root.regions[0].blocks[0]
    in0, in1, out = list(block.arguments)
    ops = [op.operation for op in block.operations]
    add = producer(ops[-1].operands[0])
    if add is None or add.name != add_name or out not in list(add.operands):
        return False
    add_args = list(add.operands)
    mul = producer(add_args[1] if add_args[0] == out else add_args[0])
    if mul is None or mul.name != mul_name or any(v.type != out.type for v in mul.operands):
        return False

    def source(v: ir.Value) -> ir.Value:
        op = producer(v)
        return op.operands[0] if op is not None and op.name == ext_name else v

    x, y = (source(v) for v in mul.operands)
    exts = sum(1 for v in mul.operands if source(v) != v)
    return ((x == in0 and y == in1) or (x == in1 and y == in0)) and len(ops) == 3 + exts


def _init_of(d: MatmulDispatch, integer: bool) -> float | int | Binding | None:
    """The accumulator's start: a loaded tensor (or one broadcast, `d.init`), or the constant a
    `linalg.fill` writes, an integer one for an integer accumulator (`integer`), else a float one."""
    if d.init is not None:
        return d.init
    root = d.root
    init = root.operands[len(root.operands) - 1]
    fill = producer(init)
    if fill is not None and fill.name == "linalg.fill":
        cst = producer(fill.operands[0])
        kind = ir.IntegerAttr if integer else ir.FloatAttr
        value = cst.attributes["value"] if cst is not None and cst.name == "arith.constant" else None
        return kind(value).value if isinstance(value, kind) else None
    return load_binding(init)


STRIDED = ("reads a strided slice of a binding; ldsopt-matmul-lds takes one as a convolution's image "
           "(implicit GEMM)")
SLICED = ("reads part of a binding (a tensor slice) as an operand or init of the product; ldsopt-matmul-lds "
          "takes slices in its fused consumer's inputs")
PADDED = ("reads an operand through a tensor.pad; ldsopt-matmul-lds takes one as a convolution's image "
          "(implicit GEMM)")


def match(d: MatmulDispatch) -> MatmulProblem | Unmatched:
    producers = [b for pro in d.prologues.values() for b, _ in pro.inputs]
    fused = producers + [x[0] for x in (d.epilogue.inputs if d.epilogue else []) if x is not None]
    if any(isinstance(b, Strided) for b in fused):
        return Unmatched(f"a fused producer or consumer {STRIDED}")
    # The operand copies, TMA's maps and a loaded init read whole tensors; a slice is read only
    # by the fused consumer, whose reads go through the slice's view.
    if any(isinstance(b, Binding) and b.is_slice for b in [*d.inputs, *producers, d.init]):
        return Unmatched(SLICED)
    p = _match_contraction(d)
    if not p and d.epilogue:
        return Unmatched(f"{d.root.name} with a fused elementwise consumer: {p.reason}")
    if not p and d.prologues:
        return Unmatched(f"{d.root.name} with a fused elementwise producer: {p.reason}")
    return p


@dataclasses.dataclass
class ContractionForm:
    """A contraction's loops and operands as the dispatch matcher (`match`) and the program-level
    split of K (ldsopt/matmul/split.py) both read them."""

    dims: list[list[int]]                        # per operand (inputs, output) its loops, memory order
    k: int                                       # the reduced loop
    batches: tuple[int, ...]                     # the batch loops (the output's leading dims)
    roles: dict[str, tuple[int, tuple[str, ...]]]  # "A" / "B": (input position, its dims but b, memory order)
    batch_at: dict[str, tuple[int, ...]]         # an input's batch dims' positions where not leading
    sizes: dict[str, int]                        # "b" (1 without batch), "m", "n", "k"
    out_type: str                                # the result's element type
    shape: tuple[int, ...]                       # the result's

    @property
    def rounded(self) -> bool:
        return self.out_type in ROUNDED_RESULTS

    @property
    def batch_shape(self) -> tuple[int, ...]:
        """MatmulProblem.batch_shape."""
        return tuple(self.shape[:len(self.batches)]) if len(self.batches) > 1 else ()

    @property
    def dynamic(self) -> tuple[str, ...]:
        """The extents read at run time, among "b" (any batch dim), "m", "n" and "k"."""
        extents = {"b": self.shape[:-2], "m": self.shape[-2:-1], "n": self.shape[-1:], "k": (self.sizes["k"],)}
        return tuple(x for x, ns in extents.items() if any(map(ir.ShapedType.is_dynamic_size, ns)))


def contraction_form(root: ir.Operation) -> ContractionForm | Unmatched:
    """`root` read as a (batch) matmul (passes/matmul_lds.py's contract, its init aside)."""
    if len(root.operands) != 3 or len(root.regions) != 1:
        return Unmatched(f"{root.name} with {len(root.operands) - 1} inputs is not a contraction of two operands")
    # The contraction's own operand types (a prologue's result, not what it loads).
    types = [str(ir.RankedTensorType(v.type).element_type) for v in list(root.operands)[:2]]
    result_type = ir.RankedTensorType(root.results[0].type)
    out_type = str(result_type.element_type)
    if types[0] != types[1] or (ACCUMULATORS.get(types[0]) != out_type and
                                not (types[0] == out_type and out_type in ROUNDED_RESULTS)):
        return Unmatched(f"operands {types[0]} x {types[1]} -> {out_type}: takes two operands of one type into "
                         f"its accumulator ({', '.join(f'{i} -> {o}' for i, o in ACCUMULATORS.items())}), "
                         f"or {' and '.join(ROUNDED_RESULTS)} into themselves")
    maps = [ir.AffineMapAttr(a).value for a in root.attributes["indexing_maps"]]
    dims = [map_dims(m) for m in maps]
    if any(x is None for x in dims):
        return Unmatched(NOT_PROJECTION)
    n_loops = maps[2].n_dims
    out = dims[2]
    # The output names the loops: its dims are (b?, m, n) in memory order, in whatever order
    # the loops run (a generic's loops may be permuted); k is the one loop it does not index.
    if n_loops not in (3, 4, 5) or len(set(out)) != n_loops - 1:
        return Unmatched("not a (batch) matmul: the output is not (b?, m, n) with one reduced loop k")
    (k,) = set(range(n_loops)) - set(out)
    if "iterator_types" in root.attributes and \
            ["reduction" in str(it) for it in root.attributes["iterator_types"]] != [x == k for x in range(n_loops)]:
        return Unmatched("not a (batch) matmul: the loops are not (b?, m, n) parallel and k reduced")
    batches = tuple(out[:-2])
    names = {out[-2]: "m", out[-1]: "n", k: "k"}
    roles, batch_at = {}, {}
    for pos, ds in enumerate(dims[:2]):
        if any(b not in ds for b in batches):
            return Unmatched(NO_BATCH)
        mem = tuple(names.get(x, "b") for x in ds if x not in batches)
        if len(mem) != 2 or "k" not in mem or len(set(mem)) != 2 or "b" in mem:
            return Unmatched(NOT_MATRIX)
        role = "A" if "m" in mem else "B"
        roles[role] = (pos, mem)
        at = tuple(ds.index(b) for b in batches)
        if at != tuple(range(len(batches))):
            batch_at[role] = at
    if set(roles) != {"A", "B"}:
        return Unmatched("the operands are not one (m, k) and one (k, n) matrix")
    if not _is_mul_add_body(root, "f32" if out_type in ROUNDED_RESULTS else out_type):
        return Unmatched("the body is not a multiply-add (of operands extended to f32)" if out_type == "f32" else
                         "the body is not a multiply-add of operands sign-extended to i32 (extsi, muli, addi)")
    shape = list(result_type.shape)
    a_pos = roles["A"][0]
    k_size = list(ir.RankedTensorType(root.operands[a_pos].type).shape)[dims[a_pos].index(k)]
    sizes = {"b": math.prod(shape[:-2]), "m": shape[-2], "n": shape[-1], "k": k_size}
    return ContractionForm(dims, k, batches, roles, batch_at, sizes, out_type, tuple(shape))


def program_problem(op: ir.Operation, f: ContractionForm) -> MatmulProblem:
    """The planner's view of the program's contraction `op` (read as `f`), before IREE forms
    its dispatch: no epilogue or prologue, a zero init."""
    operands = {role: Binding(ir.RankedTensorType(op.operands[pos].type), op.operands[pos])
                for role, (pos, _) in f.roles.items()}
    init = 0 if isinstance(ir.RankedTensorType(op.results[0].type).element_type, ir.IntegerType) else 0.0
    return MatmulProblem(dict(f.sizes), operands, {role: mem for role, (_, mem) in f.roles.items()}, bool(f.batches),
                         init, Binding(ir.RankedTensorType(op.results[0].type), op.results[0]))


def _match_contraction(d: MatmulDispatch) -> MatmulProblem | Unmatched:
    root = d.root
    if len(d.inputs) != 2:
        return Unmatched(f"{root.name} with {len(d.inputs)} inputs is not a contraction of two operands")
    f = contraction_form(root)
    if not f:
        if f.reason not in (NOT_PROJECTION, NO_BATCH, NOT_MATRIX):
            return f
        # A convolution (sums of loops), or a 1x1 one whose filters have no batch dim or
        # several image dims: an implicit GEMM, or the plain form's reason where it is none.
        conv = _match_convolution(d)
        return conv if conv or f.reason == NOT_PROJECTION else f
    if any(isinstance(b, Strided) for b in d.inputs):
        return Unmatched(STRIDED)
    if any(isinstance(b, Padded) for b in d.inputs):
        return Unmatched(PADDED)
    init = _init_of(d, f.out_type == "i32")
    if init is None:
        return Unmatched("the accumulator starts neither from a constant fill nor from a loaded tensor")
    sizes, dynamic = f.sizes, {}
    if f.dynamic:
        named = " and ".join(_NAMES[x] for x in f.dynamic)
        if "b" in f.dynamic:
            return Unmatched(f"{DYNAMIC}: a dynamic {named}; this pass takes a dynamic M, N and K, with the batch "
                             "static")
        if d.prologues:
            return Unmatched(f"{DYNAMIC}: a dynamic {named}, which this pass takes without fused producers")
        # Each dynamic dim's value where an operand is bound with it: M and K by A, N by B.
        loops = {"m": ("A", f.dims[2][-2]), "n": ("B", f.dims[2][-1]), "k": ("A", f.k)}
        for dim in f.dynamic:
            pos = f.roles[loops[dim][0]][0]
            dynamic[dim] = dynamic_extent(d.inputs[pos], f.dims[pos].index(loops[dim][1]))
        sizes = {**sizes, **dict.fromkeys(dynamic, NOMINAL_EXTENT)}
    if d.row_stats and d.row_stats.loaded is None and d.row_stats.op.operands[0] != root.operands[f.roles["A"][0]]:
        return Unmatched("row sums of A fused into the matmul's dispatch: a reduction beside the matmul reads "
                         "another tensor than its A operand")
    return MatmulProblem(sizes, {r: d.inputs[pos] for r, (pos, _) in f.roles.items()},
                         {r: mem for r, (_, mem) in f.roles.items()}, bool(f.batches), init, d.output, d.epilogue,
                         {r: d.prologues[pos] for r, (pos, _) in f.roles.items() if pos in d.prologues},
                         f.rounded, f.batch_shape, f.batch_at, dynamic=dynamic, row_stats=d.row_stats,
                         chunk_stats=d.chunk_stats)


def _match_convolution(d: MatmulDispatch) -> MatmulProblem | Unmatched:
    """A contraction read through sums of loops (a convolution) as an implicit GEMM
    (ldsopt/matmul/implicit_gemm.py); its types were checked by `contraction_form`."""
    root = d.root
    if any(not b.tensor_type.has_static_shape for b in [*d.inputs, d.output]):
        return Unmatched(f"{DYNAMIC} of a convolution; this pass takes dynamic extents of a matmul only")
    view = gemm_view(root, {pos: b for pos, b in enumerate(d.inputs) if isinstance(b, (Strided, Padded))})
    if not view:
        return view
    pad = next((b for b in d.inputs if isinstance(b, Padded) and not b.zero), None)
    if pad is not None:
        return Unmatched(f"a tensor.pad fused into the dispatch with {pad.value}; implicit GEMM reads the border as "
                         "zeros (+0)")
    if d.prologues:
        return Unmatched("a convolution with a fused elementwise producer of an operand")
    out_type = str(ir.RankedTensorType(root.results[0].type).element_type)
    if not _is_mul_add_body(root, "f32" if out_type in ROUNDED_RESULTS else out_type):
        return Unmatched("a convolution whose body is not a multiply-add")
    init = _init_of(d, out_type == "i32")
    if init is None:
        return Unmatched("the accumulator starts neither from a constant fill nor from a loaded tensor")
    sizes = {x: view.size(x) for x in ("b", "m", "n", "k")}
    batch_shape = view.batch_shape if len(view.batch_shape) > 1 else ()
    return MatmulProblem(sizes, {r: d.inputs[pos] for r, pos in view.inputs.items()}, dict(view.dims),
                         bool(view.groups["b"]), init, d.output, d.epilogue, {}, out_type in ROUNDED_RESULTS,
                         batch_shape, view=view)


def analyze_matmul(func: ir.Operation, roots: tuple[str, ...]) -> MatmulDispatch | Unmatched:
    """The dispatch of one root op (ldsopt.dispatch.analyze), or of fused ops: a root (the one
    op with a reduced loop beside row sums of its A operand, row_stats.py) fed by elementwise
    prologues (`_prologue`) and followed by at most one elementwise epilogue (`_epilogue`),
    which may read the row sums, and statistics of whose result may follow (chunk_stats.py)."""
    single = analyze(func, roots, dynamic=True)
    if single:
        return MatmulDispatch(**{f.name: getattr(single, f.name) for f in dataclasses.fields(Dispatch)})
    # A result stored into part of a binding is taken (a convolution's, into the padded
    # buffer of the next one), a strided slice of an image (a 1x1 stride-2 convolution's), an
    # image padded in the dispatch (`_padded`), and static slices that the fused consumer reads
    # (`match` refuses them elsewhere: MobileBERT's residual, a slice of a wider buffer).
    g = analyze_graph(func, (*roots, PAD), slices=True, out_slices=True, strided=True, dynamic=True)
    if not g and "ops fused in one dispatch" in single.reason:
        return g  # why the fused ops are not taken, not that they are several
    g, pads = split_pads(g) if g else (g, [])
    # One op: the graph's reading where the single one refused a slice (a Vulkan load or store
    # of part of a binding, CUDA's memref.subview) or a padding.
    if not g or not g.ops or (len(g.ops) == 1 and not pads and
                              not any(x in single.reason for x in ("part of a binding", "memref.subview"))):
        return single
    ops, chunks = chunk_stats.split(g.ops)
    sums = [op for op in ops if row_stats.candidate(op, g.binding_of)]
    sums = sums if len(sums) == 1 and len(sums) < len(ops) else []
    finish = [op for op in ops if sums and row_stats.finishes(op, sums[0])][:1]
    ops = [op for op in ops if op not in sums + finish]
    if not ops:  # a LayerNorm's statistics alone: sums of rows, no product
        return Unmatched(f"{len(g.ops)} ops fused in one dispatch ({', '.join(op.name for op in g.ops)}): row "
                         "sums and their finish, no contraction")
    reducing = [i for i, op in enumerate(ops) if _reduces(op)]
    # Without an op that reduces, the first is taken as the root, for `match` to say why it is no contraction.
    r = reducing[0] if len(reducing) == 1 else 0
    if len(reducing) > 1 or len(ops) - r > 2:
        return Unmatched(f"{len(g.ops)} ops fused in one dispatch ({', '.join(op.name for op in g.ops)}); "
                         "this pass takes a matmul, elementwise producers of its operands, row sums of its A "
                         "operand and at most one elementwise consumer")
    root = ops[r]
    stats = row_stats.match(sums[0], ops[-1] if r == len(ops) - 2 else None, g.binding_of,
                            list(root.operands), *finish) if sums else None
    if stats is not None and not stats:
        return stats
    prologues, init = {}, None
    for op in ops[:r]:
        if op.results[0] == root.operands[len(root.operands) - 1]:
            init = _broadcast_init(g, root, op)
            if not isinstance(init, BroadcastInit):
                return init
            continue
        pro = _prologue(g, root, op)
        if not isinstance(pro, tuple):
            return pro
        prologues[pro[0]] = pro[1]
    padded = padded_inputs(g, pads, root)
    if not isinstance(padded, dict):
        return padded
    inputs = []
    for pos, v in enumerate(list(root.operands)[:len(root.operands) - 1]):
        b = prologues[pos].source if pos in prologues else padded.get(v) or g.binding_of(v)
        if b is None:
            return Unmatched(f"an input of {root.name} is not a whole-tensor load of a binding or a fused "
                             "elementwise producer's result")
        inputs.append(b)
    if r == len(ops) - 1:
        if len(g.stores) != 1 or g.stores[0][0] != root.results[0]:  # chunk statistics included
            return Unmatched(f"{root.name} with fused producers: stores {len(g.stores)} results; takes one")
        return MatmulDispatch(g.func, root, inputs, g.stores[0][1], g.body_ops, prologues=prologues, init=init)
    computed = {} if stats is None else {v: RowValue(stats, j) for j, v in enumerate(stats.values)}
    epilogue = _epilogue(chunk_stats.without_stores(g, chunks), root, ops[-1], computed)
    if not epilogue:
        return epilogue
    stores = dict(g.stores)
    chunked = chunk_stats.match(chunks, epilogue.op.results[0], stores) if chunks else None
    if chunked is not None and not chunked:
        return chunked
    return MatmulDispatch(g.func, root, inputs, stores[epilogue.op.results[0]], g.body_ops, epilogue=epilogue,
                          prologues=prologues, row_stats=stats, init=init, chunk_stats=chunked)


def _reduces(op: ir.Operation) -> bool:
    """A named matmul, or a generic or contract with a reduced loop."""
    its = op.attributes["iterator_types"] if "iterator_types" in op.attributes else None
    return op.name != "linalg.generic" if its is None else any("reduction" in str(it) for it in its)


def _prologue(g: Graph, root: ir.Operation, pro: ir.Operation) -> tuple[int, Prologue] | Unmatched:
    """(root input position, prologue) of an all-parallel elementwise linalg.generic whose one
    result is used only as that input of the root, written through the identity map (in the
    operand's memory order), reading loaded bindings through ascending projections of its
    loops (weights over all of them, or broadcast along the batch; a scale over one)."""
    fused = f"a {root.name} with a fused {pro.name} before it"
    if pro.name != "linalg.generic" or len(pro.results) != 1:
        return Unmatched(f"{fused}: takes elementwise linalg.generic producers")
    users = [u.owner for u in pro.results[0].uses]
    inputs_of_root = list(root.operands)[:len(root.operands) - 1]
    if len(users) != 1:
        return Unmatched(f"{fused}: the producer's result has {len(users)} uses; takes one, as an input of the "
                         "matmul")
    if users[0] != root or pro.results[0] not in inputs_of_root:
        return Unmatched(f"{fused}: the producer's result is not an input of the matmul")
    maps = [ir.AffineMapAttr(a).value for a in pro.attributes["indexing_maps"]]
    rank = ir.RankedTensorType(pro.results[0].type).rank
    identity = ir.AffineMap.get_identity(rank)
    if any("reduction" in str(it) for it in pro.attributes["iterator_types"]) or maps[-1] != identity:
        return Unmatched(f"{fused}: the producer is not all-parallel over its result, written in its loops' order")
    if not body_is_elementwise(pro):
        return Unmatched(f"{fused}: the producer's body is not arith/math ops on its inputs")
    inputs = loaded_projections(g, pro, None, fused)
    if not isinstance(inputs, list):
        return inputs
    if not inputs:
        return Unmatched(f"{fused}: the producer reads no binding")
    return inputs_of_root.index(pro.results[0]), Prologue(pro, inputs)


def _broadcast_init(g: Graph, root: ir.Operation, op: ir.Operation) -> BroadcastInit | Unmatched:
    """The root's init as a linalg.generic `op` makes it: one loaded binding (whole) copied to
    every element of the init through an ascending projection of its loops (a broadcast, no
    arithmetic, no transpose), used by the root alone."""
    fused = f"a {root.name} whose init a fused {op.name} computes"
    if op.name != "linalg.generic" or len(op.results) != 1 or len(op.operands) != 2:
        return Unmatched(f"{fused}: takes a broadcast of one loaded tensor")
    read_map, out_map = (ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"])
    reads = [ir.AffineDimExpr(e).position if isinstance(e, ir.AffineDimExpr) else -1 for e in read_map.results]
    block = op.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    copies = len(body) == 1 and body[0].operands[0] == block.arguments[0]
    if out_map != ir.AffineMap.get_identity(out_map.n_dims) or reads != sorted(set(reads)) or -1 in reads \
            or not copies:
        return Unmatched(f"{fused}: takes a broadcast of one loaded tensor along ascending dims, no arithmetic")
    if len(list(op.results[0].uses)) != 1:
        return Unmatched(f"{fused}: the broadcast has other uses than the init")
    b = g.binding_of(op.operands[0])
    if b is None or type(b) is not Binding or b.is_slice:
        return Unmatched(f"{fused}: the broadcast tensor is not a whole-tensor load of a binding")
    return BroadcastInit(**{f.name: getattr(b, f.name) for f in dataclasses.fields(Binding)}, reads=tuple(reads))


def _epilogue(g: Graph, root: ir.Operation, epi: ir.Operation, computed: dict) -> Epilogue | Unmatched:
    """The root's fused consumer (`epilogue.match_epilogue`) if its result is a float or an
    integer of 8 bits or more (an i8 requantization: scale, round, zero point, clamp, to i8) and
    is stored in the loops' order or permuted (with n not last, lane by lane: OutputWriter.write);
    several results each stored (`Epilogue.extra`, by the direct stores alone)."""
    e = match_epilogue(g, root, epi, "the matmul", computed, results=True)
    if not e:
        return e
    fused = f"a {root.name} with a fused {epi.name}"
    for r in epi.results:
        result = ir.RankedTensorType(r.type).element_type
        if not isinstance(result, ir.FloatType) and element_bits(result) < 8:
            return Unmatched(f"{fused}: the consumer's result is {result}; takes floats and integers of 8 bits or "
                             "more")
    return e


def matches(module: ir.Operation, by: ModulePass | str, prologues: bool = False, convolutions: bool = False,
            dynamic: bool = False):
    """(dispatch, problem, target) of each matmul dispatch not lowered yet (kernel.matched_dispatches).
    Dynamic extents only where `dynamic`: the passes that record a staging for ldsopt-matmul-lds
    leave it to that pass, which then stages the operands itself.
    A dispatch with a prologue only where `prologues`: the register staging of
    ldsopt-matmul-lds applies it; the passes that restage an operand or copy it without
    registers (ldsopt-inthread-transpose, ldsopt-dtl-layout) leave it to that pass. A
    convolution where `prologues` or `convolutions`: its operands are gathered by index
    arithmetic chunk by chunk (each raked row at its own gathered index), which the register
    staging, its raked rows (ldsopt-inthread-transpose) and the direct copies (ldsopt-dtl-layout)
    do alike."""
    def match_here(d: MatmulDispatch) -> MatmulProblem | Unmatched:
        p = match(d)
        if p and p.prologues and not prologues:
            return Unmatched(f"operand {', '.join(sorted(p.prologues))} is computed by a fused elementwise producer, "
                             "which ldsopt-matmul-lds applies in its register staging")
        if p and p.dynamic and not dynamic:
            return Unmatched(f"{DYNAMIC}; this pass takes static ones")
        if p and p.view and not (prologues or convolutions):
            return Unmatched("a convolution, whose gathered operands ldsopt-matmul-lds and ldsopt-dtl-layout read "
                             "chunk by chunk")
        return p

    return matched_dispatches(module, ROOTS, match_here, by, analyzer=analyze_matmul)
