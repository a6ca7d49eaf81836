"""Arg-best reductions (argmax / argmin) read by what they compute, not by how they are written.

An arg-best reduction keeps a best value v and its index i over one reduced dim; each element
c (a value computed from the inputs) replaces them when a predicate p(c, v) holds. Frontends
write it in several forms:
- torch-mlir's `aten.max.dim` / `min.dim`: `maximumf(c, v)` (`minimumf`) for the value and
  `select(cmpf ogt (olt) c v, index_cast(linalg.index), i)` for the index;
- TOSA's `argmax` (IREE's TOSA input): both results selected, `select(p, c, v)` and
  `select(p, index, i)`, with `p = cmpf ugt c v and cmpf ord v v` (a NaN wins), index first
  among the results and the value initialized to -FLT_MAX;
- `iree_linalg_ext.arg_compare` (IREE 3.13's torch input lowers `aten.argmax` / `argmin` to
  it): a comparator region yielding p(a, b), the value and the index selected by it (IREE's
  own generalization), an optional `index_base` added to the indices.
`match_generic` and `match_arg_compare` find c, the value update f(c, v) and the predicate
p(c, v) in the body, then evaluate them on a table of values (numpy, `_semantics`) to read
what they compute:
- on ordered values p must be `c > v` (argmax) or `c < v` (argmin): a strict comparison,
  so that ties keep the first index, as torch and numpy do (`>=` would keep the last:
  refused), and f must give the value p selects (`maximumf` does too);
- a NaN element c against a number v: not taken, value poisoned (`POISON`: torch-mlir's
  max.dim, the value NaN from the first NaN on, the index that of the best before it),
  taken (`TAKE`: TOSA, the first NaN's index), or skipped (`IGNORE`: a plain `ogt` select,
  and arg_compare with `ogt`);
- once v is NaN (a NaN initial value, or taken) nothing replaces it.
The new index is the position along the reduced dim, or computed from it and the inputs
there by integer arith (the combine of a split argmax, as IREE's split and
ldsopt-split-reduction form it: `position * 128 + partial index`): the last update is at the
position the kernel finds, so the index is computed there once, after the reduction.
Anything else is Unmatched, with what it computes instead. The kernel (ldsopt/reduction/
emit_rows.py) then reduces by these semantics in `phases`, each an i32 or float reduction
whose result does not depend on the order the threads see the row in: the first NaN's index
(POISON, TAKE), the best value before it (over the non-NaN ones for IGNORE), the first index
holding that value.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from iree.compiler import ir

from ldsopt.remarks import Unmatched
from ldsopt import numpy_arith

MAX, MIN = "arith.maximumf", "arith.minimumf"   # the combiner of the best value
POISON, TAKE, IGNORE = "poison", "take", "ignore"
NAN, BEST, FIRST = "nan", "best", "first"       # the phases of the kernel
_BODY_DIALECTS = ("arith.", "math.")
# Ops whose results are exact (no rounding), evaluated in f32 for bf16 (which numpy_arith refuses).
_EXACT = ("arith.select", "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf")


@dataclasses.dataclass
class ArgBest:
    """What an arg-best reduction computes (module docstring)."""

    kind: str                  # MAX (argmax) or MIN (argmin)
    nan: str                   # POISON, TAKE or IGNORE
    compared: ir.Value | None  # the body value compared; None: the op's input element (arg_compare)
    index: ir.Value | None     # the body's linalg.index of the reduced dim (None for arg_compare)
    value_result: int          # which result is the value (the other is the index)
    base: int = 0              # added to every index (arg_compare's index_base)
    # Where the new index is not the position itself (`index_cast(linalg.index)`) but computed
    # from it and the inputs there (a split argmax's combine, `position * 128 + partial`): the
    # body ops that compute it (in body order, the linalg.index among them), that value, and
    # the inputs (block argument positions) they read.
    index_ops: tuple[ir.Operation, ...] = ()
    new_index: ir.Value | None = None
    index_inputs: tuple[int, ...] = ()

    @property
    def index_result(self) -> int:
        return 1 - self.value_result

    @property
    def phases(self) -> tuple[str, ...]:
        return (BEST, FIRST) if self.nan == IGNORE else (NAN, BEST, FIRST)


def _owner(value: ir.Value) -> ir.Operation | None:
    return value.owner.operation if isinstance(value, ir.OpResult) else None


def _outputs(op: ir.Operation) -> Unmatched | tuple[int, ir.FloatType]:
    """(the value result's position, its type) of an op of a float and an integer result."""
    types = [ir.RankedTensorType(r.type).element_type for r in op.results]
    if len(types) != 2:
        return Unmatched("not two results")
    floats = [isinstance(t, ir.FloatType) for t in types]
    ints = [isinstance(t, ir.IntegerType) and ir.IntegerType(t).width >= 8 for t in types]
    if sorted(floats) != [False, True] or not any(ints):
        return Unmatched("an arg-best reduction's results are not a float value and an integer index")
    return floats.index(True), types[floats.index(True)]


def match_generic(op: ir.Operation, n: int) -> ArgBest | Unmatched | None:
    """The arg-best reduction a generic of one reduced dim (the last of n) computes, if its
    body selects its index result `select(p, j, i)`, j the position `index_cast(linalg.index
    n-1)` or integer arith of it and the inputs there; None where it is no such body (the
    caller reads it as another reduction), Unmatched where it selects an index but not by a
    best value (with what it does instead)."""
    if len(op.results) != 2:
        return None
    block = op.regions[0].blocks[0]
    args = list(block.arguments)
    outs = _outputs(op)
    if isinstance(outs, Unmatched):
        return None
    vpos, vtype = outs
    v_out, i_out = args[len(args) - 2 + vpos], args[len(args) - 1 - vpos]
    yields = list(list(block.operations)[-1].operation.operands)
    y_value, y_index = yields[vpos], yields[1 - vpos]
    sel = _owner(y_index)
    if sel is None or sel.name != "arith.select" or sel.operands[2] != i_out or len(list(i_out.uses)) != 1:
        return None
    chain = _index_chain(block, sel.operands[1], n, len(args) - len(op.results))
    if isinstance(chain, Unmatched):
        return chain
    index_ops, index_inputs = chain
    index = next((o.operation for o in block.operations if o.operation.name == "linalg.index"
                  and ir.IntegerAttr(o.operation.attributes["dim"]).value == n - 1), None)
    if [o.name for o in index_ops] == ["linalg.index", "arith.index_cast"]:
        index_ops = ()  # the position itself
    # The ops that read the best value v, directly or not, but the index's select: they compute
    # the new value f(c, v) and the predicate p(c, v) from v and the one compared value c.
    cone, ops = {v_out}, []
    for o in list(block.operations)[:-1]:
        o = o.operation
        if o != sel and any(x in cone for x in o.operands):
            ops.append(o)
            cone.update(o.results)
    leaves = {x for o in ops for x in o.operands
              if x not in cone and not (_owner(x) is not None and _owner(x).name == "arith.constant")}
    if i_out in leaves or any(not o.name.startswith(_BODY_DIALECTS) for o in ops):
        return Unmatched("an arg-best reduction whose best value is computed with more than arith and math "
                         "of the value compared")
    if len(leaves) != 1 or sel.operands[0] not in cone or y_value not in cone:
        return Unmatched("an arg-best reduction that does not compare one value with the best one")
    (compared,) = leaves
    if compared.type != vtype:
        return Unmatched("an arg-best reduction comparing a value of another type than its best value")
    semantics = _semantics(ops, v_out, compared, sel.operands[0], y_value)
    if isinstance(semantics, Unmatched):
        return semantics
    kind, nan = semantics
    return ArgBest(kind, nan, compared, index.results[0] if index else None, vpos, index_ops=tuple(index_ops),
                   new_index=sel.operands[1] if index_ops else None, index_inputs=index_inputs)


def _index_chain(block: ir.Block, new_index: ir.Value, n: int,
                 n_inputs: int) -> tuple[list[ir.Operation], tuple[int, ...]] | Unmatched:
    """The body ops that compute an arg-best reduction's new index (in body order) and the
    inputs they read, where it is computed by arith ops from the reduced dim's linalg.index
    (the last of n), the inputs at that position and constants; Unmatched otherwise."""
    args, order = list(block.arguments), [o.operation for o in block.operations]
    ops, inputs, todo, seen = [], set(), [new_index], set()
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        if x in args:
            if args.index(x) >= n_inputs:
                return Unmatched("an arg-best reduction whose new index reads the best value or index")
            inputs.add(args.index(x))
            continue
        o = _owner(x)
        if o is None or o not in order:  # defined outside the body: a value of the dispatch
            continue
        if o.name == "linalg.index" and ir.IntegerAttr(o.attributes["dim"]).value != n - 1:
            return Unmatched("an arg-best reduction whose new index reads the position along another dim")
        if o.name != "linalg.index" and not (o.name.startswith("arith.") and isinstance(o.results[0].type,
                                                                                         (ir.IntegerType, ir.IndexType))):
            return Unmatched("an arg-best reduction whose new index is not integer arith of the reduced dim's "
                             "linalg.index and the inputs there")
        ops.append(o)
        todo.extend(o.operands)
    return sorted(ops, key=order.index), tuple(sorted(inputs))


def match_arg_compare(op: ir.Operation) -> ArgBest | Unmatched:
    """The arg-best reduction an `iree_linalg_ext.arg_compare` computes: its comparator p(a, b)
    selects the value and the index (`index_base` added, a constant)."""
    segments = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    if segments[1]:
        return Unmatched("an arg_compare given its indices as an input (a second stage of a split argmax)")
    base = 0
    if segments[4]:
        const = _owner(op.operands[-1])
        if const is None or const.name != "arith.constant":
            return Unmatched("an arg_compare whose index_base is not a constant")
        base = ir.IntegerAttr(const.attributes["value"]).value
    outs = _outputs(op)
    if isinstance(outs, Unmatched):
        return outs
    vpos, vtype = outs
    block = op.regions[0].blocks[0]
    a, b = block.arguments
    ops = [o.operation for o in block.operations][:-1]
    if any(not o.name.startswith(_BODY_DIALECTS) for o in ops):
        return Unmatched("an arg_compare whose comparator is not arith and math")
    # As IREE generalizes it, the value is select(p(a, b), a, b): `new_value` None.
    semantics = _semantics(ops, b, a, list(block.operations)[-1].operation.operands[0], None)
    if isinstance(semantics, Unmatched):
        return semantics
    kind, nan = semantics
    return ArgBest(kind, nan, None, None, vpos, base)


def _semantics(ops: list[ir.Operation], best: ir.Value, compared: ir.Value, predicate: ir.Value,
               new_value: ir.Value | None) -> tuple[str, str] | Unmatched:
    """(MAX or MIN, the NaN policy) of the predicate and value update that `ops` compute from
    `best` and `compared` (`new_value` None: select(predicate, compared, best)), read from
    their values on a table of pairs (module docstring)."""
    numbers = np.array([-np.inf, -1000.0, -2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 2.0, 1000.0, np.inf], np.float32)
    c, v = (x.ravel() for x in np.meshgrid(numbers, numbers))
    nan = np.full_like(numbers, np.nan)
    try:
        p, f = _evaluate(ops, {compared: c, best: v}, predicate, new_value)
        p_nan, f_nan = _evaluate(ops, {compared: nan, best: numbers}, predicate, new_value)
        p_frozen, f_frozen = _evaluate(ops, {compared: np.append(numbers, np.nan), best: np.append(nan, np.nan)},
                                       predicate, new_value)
    except numpy_arith.Unsupported as e:
        return Unmatched(f"an arg-best reduction whose body is not evaluated ({e})")
    if np.array_equal(p, c > v):
        kind = MAX
    elif np.array_equal(p, c < v):
        kind = MIN
    elif np.array_equal(p, c >= v) or np.array_equal(p, c <= v):
        return Unmatched("an arg-best reduction whose ties go to the last index (>= or <=); takes the first, as "
                         "torch and numpy do")
    else:
        return Unmatched("an arg-best reduction whose index is not selected by c > v or c < v")
    if not np.array_equal(f, np.where(p, c, v)):
        return Unmatched("an arg-best reduction whose value result is not the best value")
    if p_frozen.any() or not np.isnan(f_frozen).all():
        return Unmatched("an arg-best reduction whose NaN best value is replaced by later elements")
    if not p_nan.any() and np.isnan(f_nan).all():
        return kind, POISON
    if p_nan.all() and np.isnan(f_nan).all():
        return kind, TAKE
    if not p_nan.any() and np.array_equal(f_nan, numbers):
        return kind, IGNORE
    return Unmatched("an arg-best reduction whose index and value treat a NaN element differently")


def _evaluate(ops: list[ir.Operation], known: dict, predicate: ir.Value, new_value: ir.Value | None):
    """(predicate, new value) of `ops` evaluated elementwise on numpy arrays, `known` giving
    the arrays of the values they read (constants are read from their ops); `new_value` None:
    select(predicate, compared, best), the compared value and the best one `known`'s."""
    env = dict(known)

    def value(x: ir.Value) -> np.ndarray:
        if x not in env:
            attr = _owner(x).attributes["value"]
            if isinstance(attr, ir.FloatAttr):
                env[x] = np.float32(ir.FloatAttr(attr).value)
            elif isinstance(attr.type, ir.IntegerType) and ir.IntegerType(attr.type).width == 1:
                env[x] = np.bool_(ir.IntegerAttr(attr).value)
            else:
                env[x] = np.int64(ir.IntegerAttr(attr).value)
        return env[x]

    for op in ops:
        args = [value(x) for x in op.operands]
        if isinstance(op.results[0].type, ir.BF16Type) and op.name in _EXACT:
            env[op.results[0]] = numpy_arith.ELEMENTWISE[op.name](*args)
        else:
            env[op.results[0]] = numpy_arith.elementwise(op, args)
    p = np.asarray(value(predicate), bool)
    compared, best = known.values()
    return p, np.asarray(np.where(p, compared, best) if new_value is None else env[new_value], np.float32)
