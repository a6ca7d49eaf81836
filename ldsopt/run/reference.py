"""The program lds-run's reference runs: the user's program with its arithmetic promoted to f64.

A kernel is only as trustworthy as what it is checked against. The original program on
llvm-cpu computes in the program's own types, in an order of its own: a long f16 sum with
an f16 accumulator, summed one element after the other, stalls far from the true sum once
half an ulp of the partial exceeds the addend, while a GPU tree sum lands close to it. A
kernel more accurate than its reference would then fail. So the reference is the program
with f16, bf16 and f32 promoted to f64 (`promote_to_f64`), run on llvm-cpu on the same
inputs widened exactly to f64; lds-run compares each output with it at the tolerances of
the loosest of the output's element type and the float types the program rounds in
(`float_types`: an f32 output of f16 math carries f16's error), the rtol no tighter than a few
ulps of each type it rounds computed values to (`value_check.rounded_rtol`).

What promotion changes, and what it keeps:
- Named linalg ops are generalized first, so that their implicit casts are explicit ops.
- Every f16/bf16/f32 value (op results, block arguments, function signatures) becomes f64,
  and its arithmetic (arith, math, linalg bodies) runs in f64. Integers are not touched.
- `arith.extf` between float types, all f64 now, is folded away.
- Values the program itself rounds stay rounded: an `arith.truncf` keeps its narrow result
  (now rounding from f64) and is followed by an `arith.extf` back to f64; a constant (dense,
  scalar or dense_resource) keeps its narrow value (e.g. 0.001 : f16 is 0.0010004) and is
  followed by an `arith.extf`, and so does a weight (`util.global.load` of a `util.global`,
  inline or a parameter, whose stored values stay as they are). A kernel then differs from the reference by the rounding of
  its arithmetic only, not by a quantization the program asks for.
- `arith.sitofp`/`uitofp` produce f64 directly (exact for every integer of 32 bits).
- Comparisons (`arith.cmpf`, max/min) compare the f64 values: on the inputs themselves they
  decide as the kernel does; on computed values, a tie broken by rounding may differ, as it
  may between any two orders of the same f32 arithmetic.
The promoted program is parsed anew and checked (`_check_promoted`): a narrow value left in
it is a rounded one, read by an `arith.extf` only; else the program is not promoted.

A program is not promoted, and the reference is the program as written, when promotion
could change a value a kernel rightly computes, or when it cannot be done faithfully:
float-to-integer conversions (`arith.fptosi`/`fptoui`: a more precise value can round to
another integer), bitcasts of floats (the bits are the type's), float types other than
f16/bf16/f32/f64 (f8, complex), and attributes other than constants' values that name a
float type. The reason is recorded and shown. For such a program the float outputs'
tolerances grow with the longest reduction of the program, K terms (`reduction_length`):
both the kernel and the reference carry rounding errors that grow, for sums in random order
and sign, like sqrt(K) (the probabilistic bound of Higham and Mary, 2019), so atol and rtol
are multiplied by `value_check.tolerance_growth(K)` = max(1, sqrt(K / 64)): unchanged up to 64 terms,
8x at 4096.
"""

from __future__ import annotations

import dataclasses
import math
import re
import typing

from iree.compiler import ir, passmanager
from iree.compiler.dialects import arith

from ldsopt import shared_context
from ldsopt.ir_types import scalar_type
from ldsopt.run.tensor_file import FLOATS

NARROW = (ir.F16Type, ir.BF16Type, ir.F32Type)
# f16, bf16 or f32 named in the text of a type or attribute (`f32`, `tensor<4x?xf16>`).
_NARROW_NAME = re.compile(r"(?:(?<![\w.])|(?<=[\d?]x))(bf16|f16|f32)\b")
# Ops that promotion would make compute another value than the kernel rightly does.
REFUSED = {
    "arith.fptosi": "converts floats to integers: a more precise value can round to another integer",
    "arith.fptoui": "converts floats to integers: a more precise value can round to another integer",
    "arith.bitcast": "reinterprets the bits of a float",
    "tensor.bitcast": "reinterprets the bits of a float",
}


NO_FLOATS = "no floating-point values"  # Promotion.why of a program that has nothing to promote


class NotPromotable(Exception):
    """Why a program is run as written."""


@dataclasses.dataclass
class Promotion:
    text: str            # the program the reference runs
    promoted: bool       # every float of `text` is f64
    why: str | None      # why not, when not


def _where(op: ir.Operation) -> str:
    m = re.search(r':(\d+):\d+', str(op.location))
    return f"{op.name} at line {m.group(1)}" if m else op.name


def _is_narrow(t: ir.Type) -> bool:
    return isinstance(t, NARROW)


def promote_type(t: ir.Type, where: str) -> ir.Type:
    """`t` with f16/bf16/f32 replaced by f64; NotPromotable for other float types."""
    f64 = ir.F64Type.get()
    if _is_narrow(t):
        return f64
    if isinstance(t, ir.RankedTensorType):
        if t.encoding is not None and _NARROW_NAME.search(str(t.encoding)):
            raise NotPromotable(f"{where}: a tensor encoding names a float type ({t})")
        return ir.RankedTensorType.get(t.shape, promote_type(t.element_type, where), t.encoding)
    if isinstance(t, ir.VectorType) and not t.scalable:
        return ir.VectorType.get(t.shape, promote_type(t.element_type, where))
    if isinstance(t, ir.FunctionType):
        return ir.FunctionType.get([promote_type(i, where) for i in t.inputs],
                                   [promote_type(r, where) for r in t.results])
    if isinstance(t, ir.F64Type) or isinstance(t, (ir.IntegerType, ir.IndexType)):
        return t
    if isinstance(t, ir.FloatType) or _NARROW_NAME.search(str(t)) or "complex" in str(t):
        raise NotPromotable(f"{where}: values of type {t} have no f64 counterpart here")
    return t


def _has_floats(module: ir.Module) -> tuple[bool, bool]:
    """(any float value, any f16/bf16/f32 value) in `module`."""
    found = [False, False]

    def visit(op):
        for v in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.arguments)]:
            e = scalar_type(v.type)
            found[0] |= isinstance(e, ir.FloatType)
            found[1] |= _is_narrow(e)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found[0], found[1]


def _generalize(module: ir.Module) -> None:
    passmanager.PassManager.parse("builtin.module(func.func(linalg-generalize-named-ops))").run(module.operation)


def promote_to_f64(text: str) -> Promotion:
    """The program the reference runs: `text` promoted to f64 (see the module docstring), or
    `text` itself with the reason it is not (no float values, or NotPromotable's)."""
    with shared_context.get(), ir.Location.unknown():
        module = ir.Module.parse(text)
        any_float, narrow = _has_floats(module)
        if not any_float:
            return Promotion(text, False, NO_FLOATS)
        if not narrow:
            return Promotion(text, True, None)
        try:
            _generalize(module)
            _promote(module)
            promoted = str(module)
            _check_promoted(ir.Module.parse(promoted))
        except NotPromotable as e:
            return Promotion(text, False, str(e))
        except ir.MLIRError as e:
            return Promotion(text, False, "promotion failed: " + "; ".join(d.message for d in e.error_diagnostics))
        return Promotion(promoted, True, None)


def _narrow_attrs(op: ir.Operation) -> list[str]:
    """The attributes of `op` that name f16, bf16 or f32 (names of symbols aside)."""
    names = (ir.StringAttr, ir.SymbolRefAttr, ir.FlatSymbolRefAttr)
    return [a for a in op.attributes
            if not isinstance(op.attributes[a], names) and _NARROW_NAME.search(str(op.attributes[a]))]


def _is_value(attr: ir.Attribute) -> bool:
    """A float or elements attribute (dense_resource blobs are not downcast: cast to see)."""
    for kind in (ir.FloatAttr, ir.DenseElementsAttr, ir.DenseResourceElementsAttr):
        try:
            kind(attr)
            return True
        except ValueError:
            pass
    return False


def _is_constant(op: ir.Operation, narrow_attrs: list[str]) -> bool:
    """A constant-like op: no operands, results, its narrow float attributes are values."""
    return bool(not op.operands and op.results and narrow_attrs) and all(
        _is_value(op.attributes[a]) for a in narrow_attrs)


def _check(op: ir.Operation) -> None:
    """NotPromotable if `op` (not yet changed) cannot be promoted faithfully."""
    where = _where(op)
    if op.name in REFUSED and any(_is_narrow(scalar_type(v.type)) for v in [*op.operands, *op.results]):
        raise NotPromotable(f"{where} {REFUSED[op.name]}")
    narrow_attrs = _narrow_attrs(op)
    if op.name == "util.global":
        return  # a weight's storage: its loads are promoted
    if op.name == "func.func":
        promote_type(ir.TypeAttr(op.attributes["function_type"]).value, where)
    elif narrow_attrs and not _is_constant(op, narrow_attrs):
        raise NotPromotable(f"{where}: attribute '{narrow_attrs[0]}' names a float type")
    for v in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.arguments)]:
        promote_type(v.type, where)


def _promote(module: ir.Module) -> None:
    ops: list[ir.Operation] = []

    def collect(op):
        ops.append(op.operation)
        return ir.WalkResult.ADVANCE

    module.operation.walk(collect)
    for op in ops:
        _check(op)
    kept = []  # ops whose narrow results the program defines: truncf, constants
    for op in ops:
        where = _where(op)
        if op.name == "func.func":
            ftype = ir.TypeAttr(op.attributes["function_type"]).value
            op.attributes["function_type"] = ir.TypeAttr.get(promote_type(ftype, where))
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    arg.set_type(promote_type(arg.type, where))
        if op.name == "util.global":
            continue
        if _is_constant(op, _narrow_attrs(op)) or op.name == "util.global.load" or (
                op.name == "arith.truncf" and _is_narrow(scalar_type(op.results[0].type))):
            kept.append(op)
            continue
        for res in op.results:
            res.set_type(promote_type(res.type, where))
    for op in kept:
        for res in op.results:
            wide = promote_type(res.type, _where(op))
            if wide == res.type:
                continue
            with ir.InsertionPoint.after(op), op.location:
                ext = arith.ExtFOp(wide, res)
            res.replace_all_uses_except(ext.result, ext.operation)
    for op in ops:
        if op.name == "arith.extf" and op.operands[0].type == op.results[0].type:
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
    module.operation.verify()


def _check_promoted(module: ir.Module) -> None:
    """The promoted program, parsed anew, computes in f64 only: a narrow value is a rounded
    one (the result of a constant or a truncf) that only an extf to f64 reads."""
    def visit(op):
        narrow = [v for v in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.arguments)]
                  if _is_narrow(scalar_type(v.type))]
        if op.name == "util.global":
            return ir.WalkResult.SKIP
        rounded = op.name in ("arith.truncf", "util.global.load") or _is_constant(op, _narrow_attrs(op))
        if narrow and not (rounded and all(u.owner.name == "arith.extf" for v in narrow for u in v.uses)):
            raise NotPromotable(f"promotion left {op.name} computing in {narrow[0].type}")
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)


def reduction_length(text: str) -> int:
    """The most terms any one output element of a linalg op of `text` combines (named ops
    generalized): the product of the reduction loops' extents; 1 without reductions."""
    longest = 1
    with shared_context.get():
        module = ir.Module.parse(text)
        _generalize(module)

        def visit(op):
            nonlocal longest
            if op.name != "linalg.generic":
                return ir.WalkResult.ADVANCE
            extents: dict[int, int] = {}
            maps = [ir.AffineMapAttr(m).value for m in op.attributes["indexing_maps"]]
            for operand, amap in zip(op.operands, maps):
                shape = operand.type.shape if isinstance(operand.type, ir.ShapedType) else []
                for size, expr in zip(shape, amap.results):
                    if isinstance(expr, ir.AffineDimExpr):
                        extents[expr.position] = size
            kinds = [str(it) for it in op.attributes["iterator_types"]]
            longest = max(longest, math.prod(extents.get(d, 1) for d, k in enumerate(kinds) if "reduction" in k))
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return longest


# Ops whose float result carries no rounding of its own that the reference misses: widening
# and constants are exact, and the reference keeps a truncf's rounding (module docstring).
_EXACT = ("arith.extf", "arith.truncf", "arith.constant", "arith.bitcast")


class FloatTypes(typing.NamedTuple):
    """The float types a program computes in, and those it rounds computed values to."""
    computed: set[str]
    rounded: set[str]


def float_types(text: str) -> FloatTypes:
    """`computed`: the element types of the results of `text`'s arith and math ops (inside
    linalg bodies too) that round. An f32 output computed from f16 math (math.exp of an f16,
    then extf) carries f16's error, which the promoted reference does not: its tolerances are
    those of the loosest type it was computed in.
    `rounded`: the result types of its `arith.truncf`s of computed values. The reference keeps
    a truncf's rounding, but not where it falls: a kernel that sums in another order lands on
    the neighbouring f16 now and then, and an f32 statistic of those f16 values (a chunk's sum
    of squares about its first element) moves by that ulp. A truncf of an input or a constant
    rounds the same numbers in both and does not count (`_rounds_computed`)."""
    found = FloatTypes(set(), set())
    with shared_context.get():
        module = ir.Module.parse(text)
        _generalize(module)

        def visit(op):
            if not op.name.startswith(("arith.", "math.")):
                return ir.WalkResult.ADVANCE
            types = {str(scalar_type(r.type)) for r in op.results if isinstance(scalar_type(r.type), ir.FloatType)}
            if op.name not in _EXACT:
                found.computed.update(types)
            elif op.name == "arith.truncf" and _rounds_computed(op.operands[0]):
                found.rounded.update(types)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return found


# Ops whose result holds the numbers of their first operand (a fill: its scalar's), for
# `_rounds_computed`.
_SAME_VALUES = ("arith.extf", "arith.truncf", "arith.bitcast", "tensor.collapse_shape", "tensor.expand_shape",
                "tensor.extract_slice", "tensor.extract", "linalg.fill")


def _rounds_computed(value: ir.Value) -> bool:
    """Whether `value` may be a computed one: False only where it is, through ops that keep
    the numbers (_SAME_VALUES, a linalg body's argument as the operand it reads), a function's
    argument, a constant or a fill of one."""
    while True:
        if isinstance(value.owner, ir.Block):
            owner = value.owner.owner.operation
            if owner.name != "linalg.generic":
                return owner.name != "func.func"
            value = owner.operands[ir.BlockArgument(value).arg_number]
            continue
        op = value.owner.operation
        if op.name in ("arith.constant", "tensor.empty", "util.global.load"):
            return False
        if op.name not in _SAME_VALUES:
            return True  # a linalg op's result too: what its body yields
        value = op.operands[0]


def inline_dispatch_regions(module: ir.Module) -> None:
    """Replaces each `flow.dispatch.region` of `module` by its body: a region only says which
    ops form one dispatch (ldsopt's kernels' formation), which the reference must not depend
    on: IREE 3.13's llvm-cpu computed a product's residual epilogue wrongly in the region of
    it and statistics of its result (test/e2e/programs/matmul_chunk_stats/), right apart."""
    regions = []

    def find(op):
        if op.name == "flow.dispatch.region":
            regions.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(find)
    for region in regions:
        body = list(region.regions[0].blocks[0].operations)
        for op in body[:-1]:
            op.move_before(region)
        for result, value in zip(region.results, body[-1].operands):
            result.replace_all_uses_with(value)
        region.erase()


def info(engine: str, text: str, outputs: list[tuple], promotion: Promotion, trimmed: bool = False) -> dict:
    """What ran as the reference of `text` (`outputs`: its (shape, dtype) each), as the manifest
    records it: the engine, the precision, why not promoted, the longest reduction where the
    float outputs' tolerances grow with it, the float types computed in and rounded to, and
    whether its windows' inputs were `trimmed` (`windows_trimmed`)."""
    float_out = any(dtype in FLOATS for _, dtype in outputs)
    types = float_types(text) if float_out else FloatTypes(set(), set())
    return {"engine": engine, "precision": "f64" if promotion.promoted else "program",
            "not_promoted": promotion.why, "numpy_refused": None,
            "reduction_length": reduction_length(text) if float_out and not promotion.promoted else None,
            "computes_in": sorted(types.computed), "rounds_to": sorted(types.rounded),
            "windows_trimmed": trimmed}


def windows_trimmed(text: str) -> str | None:
    """`text` with every convolution's and pooling window's input trimmed to the elements its
    windows read (passes/trim_windows.py: exact, each window reads what it read), or None where
    nothing is trimmed. The reference's last resort: IREE 3.13's llvm-cpu, like its GPU
    backends, fails to compile a window with one output position over a wider input
    (MobileViT's), which the program ldsopt compiles no longer has."""
    from ldsopt import pipeline  # the pass registry, only when a reference needs it

    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        before = str(module)
        pipeline.run(module, "builtin.module(ldsopt-trim-windows)")
        after = str(module)
    return None if after == before else after
