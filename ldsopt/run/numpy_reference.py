"""lds-run's reference evaluated by numpy: the program `ldsopt.run.reference` prepares for the
reference (promoted to f64), interpreted op by op instead of compiled for llvm-cpu.

Why: compiling even a one-op program for llvm-cpu was most of lds-run's time on a small
program (bench/results/suite/README.md has the figures); numpy evaluates the same promoted program
without compiling it. It is as
independent of ldsopt's kernels as llvm-cpu is (nothing here is shared with the passes), and
it computes in f64 the ops llvm-cpu lowers only in f32 (`math.erf`).

Contract, `evaluate(text, function, inputs)`:
- Takes one function of one block whose ops are: `arith` and `math` ops (on scalars or
  tensors, see `numpy_arith.ELEMENTWISE`), `linalg.generic` (named linalg ops are generalized first)
  whose indexing maps are projected permutations with constant indices allowed (an output
  written at a constant index keeps its init elsewhere),
  `linalg.softmax`, `iree_linalg_ext.attention` (`_attention`), `tensor.empty`, `expand_shape`, `collapse_shape`, `extract_slice`,
  `insert_slice`, `pad`, `concat` and `reshape` of static shapes, `tensor.extract` (a gather's
  table read in a generic body, its indices checked), `util.unfoldable_constant`,
  `util.global.load` of a global whose value is inline (`dense`, `dense_resource`) or a
  parameter of an archive (`parameters.Store`), `cf.assert` (checked: a failing one is an
  `AssertionFailed`, the program's own refusal of its inputs), `func.return`. Element types:
  f64, f32, f16 (numpy's own), bf16 only as the result of a
  `truncf` or a constant read by an `extf` (held in f32, rounded to bf16 here), integers of 1
  to 64 bits and `index`.
- A generic's reduction is taken whole where each output yields `combine(out, e)` with `e`
  independent of the outputs and `combine` associative (`_REDUCE`): `e` over the reduction
  loops, a product of two operands as `numpy.einsum`. Any other reduction body runs one
  reduction step at a time in the loops' order, as the program states it (argmax with
  first-index ties), vectorized over the parallel loops.
- Integer arithmetic wraps at its width as the program's does; signed and unsigned ops read
  the same bits (`numpy_arith.unsigned`). Floats follow IEEE (no warnings, NaN and inf through).
- `evaluate_each(..., flush_subnormals=True)` computes as a GPU that flushes denormals does:
  f32/f16/bf16 inputs and op results that are subnormal are taken as 0 (the program as
  written, in its own types, is evaluated both ways by `reference_companions`).
- Refuses (`Unsupported`, with the op and its line) everything else, and shapes whose
  evaluation would hold more than `MAX_ELEMENTS` values or take more than `MAX_STEPS`
  sequential steps: the caller then compiles the reference for llvm-cpu.
"""

from __future__ import annotations

import math
import re

import numpy as np
from iree.compiler import ir, passmanager

from ldsopt import numpy_arith, shared_context
from ldsopt.ir_types import scalar_type
from ldsopt.numpy_arith import Unsupported, refuse
from ldsopt.run import parameters

MAX_ELEMENTS = 1 << 26    # values in one evaluated array (512 MiB of f64)
MAX_STEPS = 1 << 16       # sequential reduction steps of one generic
_GLOBALS = object()       # the key, in an evaluation's values, of the program's globals and parameters


class AssertionFailed(Exception):
    """A `cf.assert` of the program fails on these inputs (a gather index out of bounds)."""


def _ops(block: ir.Block) -> list[ir.Operation]:
    """The ops of `block` as operations (an OpView's `name` can be its symbol's)."""
    return [op.operation for op in block.operations]


# --- types -----------------------------------------------------------------------------------

def _attribute_value(op: ir.Operation, attr: ir.Attribute, t: ir.Type) -> np.ndarray:
    dtype = numpy_arith.numpy_dtype(t)
    shape = ir.ShapedType(t).shape if isinstance(t, ir.ShapedType) else []
    for kind in (ir.FloatAttr, ir.IntegerAttr, ir.BoolAttr):
        if isinstance(attr, kind):
            return numpy_arith.cast(np.full(shape, kind(attr).value), t)
    if str(attr).startswith("dense_resource<"):
        return _resource_value(op, attr, t)
    if isinstance(attr, ir.DenseElementsAttr):
        dense = ir.DenseElementsAttr(attr)
        if dense.is_splat:
            return _attribute_value(op, dense.get_splat_value(), ir.RankedTensorType.get(shape, scalar_type(t)))
        for kind in (ir.DenseFPElementsAttr, ir.DenseIntElementsAttr):
            if isinstance(attr, kind) and dtype != np.bool_ and not isinstance(scalar_type(t), ir.BF16Type):
                return np.array(kind(attr), dtype=dtype).reshape(shape)
    raise refuse(op, f"has a value numpy does not read ({str(attr)[:40]})")


# The text of the resource blobs of the program being evaluated (`dense_resource` values).
_resources: dict[str, str] = {}
_RESOURCE = re.compile(r'^\s+("(?:[^"\\]|\\.)*"|[\w.$-]+): "0x([0-9A-Fa-f]*)"', re.M)


def _blob_values(raw: bytes, t: ir.Type, where: str) -> np.ndarray:
    """The values of element type and shape `t` stored little-endian in `raw`."""
    e = scalar_type(t)
    shape = _shape(t)
    count = math.prod(shape)
    if isinstance(e, ir.IntegerType) and e.width == 1:
        raise Unsupported(f"{where}: i1 blobs are not read by numpy")
    storage = np.dtype(np.uint16) if isinstance(e, ir.BF16Type) else numpy_arith.numpy_dtype(e)
    if len(raw) < count * storage.itemsize:
        raise Unsupported(f"{where}: {len(raw)} bytes hold fewer than the {count} values of {t}")
    values = np.frombuffer(raw, storage, count).reshape(shape)
    if isinstance(e, ir.BF16Type):
        return (values.astype(np.uint32) << 16).view(np.float32)
    return values.copy()


def _resource_value(op: ir.Operation, attr: ir.Attribute, t: ir.Type) -> np.ndarray:
    name = re.match(r'dense_resource<("(?:[^"\\]|\\.)*"|[^>]+)>', str(attr)).group(1).strip('"')
    if name not in _resources:
        raise refuse(op, f"reads resource {name}, which the program does not hold")
    blob = bytes.fromhex(_resources[name])
    return _blob_values(blob[4:], t, op.name)  # the first 4 bytes: the blob's alignment


def _global_value(op: ir.Operation, args, env) -> np.ndarray:
    """A `util.global.load`: its global's inline value or parameter."""
    name = ir.FlatSymbolRefAttr(op.attributes["global"]).value
    g = env[_GLOBALS]["globals"].get(name)
    if g is None or "initial_value" not in g.attributes:
        raise refuse(op, f"reads @{name}, which has no initial value")
    value, t = g.attributes["initial_value"], op.results[0].type
    ref = parameters.named(str(value))
    if ref is None:
        return _attribute_value(op, value, t)
    store = env[_GLOBALS]["parameters"]
    if store is None:
        raise refuse(op, f"reads parameter {ref}, and no archive was given")
    e = scalar_type(t)
    itemsize = 2 if isinstance(e, ir.BF16Type) else numpy_arith.numpy_dtype(e).itemsize
    nbytes = math.prod(_shape(t)) * itemsize
    return _blob_values(store.bytes_of(*ref, nbytes).tobytes(), t, op.name)


# --- linalg.generic --------------------------------------------------------------------------

def _dims(op: ir.Operation, amap: ir.AffineMap, constants: bool) -> list[int | None]:
    """The loop of each result of `amap` (None: a constant index, where `constants`)."""
    out = []
    for e in amap.results:
        if isinstance(e, ir.AffineDimExpr):
            out.append(ir.AffineDimExpr(e).position)
        elif constants and isinstance(e, ir.AffineConstantExpr):
            out.append(None)
        else:
            raise refuse(op, f"has an indexing map numpy does not evaluate ({amap})")
    if len({d for d in out if d is not None}) != len([d for d in out if d is not None]):
        raise refuse(op, f"has a diagonal indexing map ({amap})")
    return out


def _to_loops(x: np.ndarray, amap: ir.AffineMap, dims: list[int | None], n: int) -> np.ndarray:
    """Operand `x` laid out in loop space: one axis per loop, of size 1 where it does not vary."""
    index = tuple(ir.AffineConstantExpr(e).value if d is None else slice(None) for d, e in zip(dims, amap.results))
    y = x[index] if index else x
    used = [d for d in dims if d is not None]
    y = np.transpose(y, np.argsort(used)) if used else y
    shape = [1] * n
    for d, s in zip(sorted(used), y.shape):
        shape[d] = s
    return np.reshape(y, shape)


def _from_loops(y: np.ndarray, dims: list[int], parallel_shape: list[int]) -> np.ndarray:
    """An output in loop space (reduction axes of size 1) back in the output's dim order."""
    full = np.broadcast_to(y, parallel_shape)
    order = dims + [d for d in range(len(parallel_shape)) if d not in dims]
    return np.transpose(full, order).reshape([parallel_shape[d] for d in dims]).copy()


# combine op -> the reduction of many values under it.
_REDUCE = {
    "arith.addf": np.add.reduce, "arith.addi": np.add.reduce, "arith.mulf": np.multiply.reduce,
    "arith.muli": np.multiply.reduce, "arith.maximumf": np.maximum.reduce, "arith.minimumf": np.minimum.reduce,
    "arith.maxnumf": np.fmax.reduce, "arith.minnumf": np.fmin.reduce, "arith.maxsi": np.maximum.reduce,
    "arith.minsi": np.minimum.reduce, "arith.andi": np.bitwise_and.reduce, "arith.ori": np.bitwise_or.reduce,
    "arith.xori": np.bitwise_xor.reduce,
    "arith.maxui": lambda x, axis: np.maximum.reduce(numpy_arith.unsigned(x), axis=axis).view(x.dtype),
    "arith.minui": lambda x, axis: np.minimum.reduce(numpy_arith.unsigned(x), axis=axis).view(x.dtype),
}


class _Generic:
    """One linalg.generic: its loops, operands in loop space, and its body."""

    def __init__(self, op: ir.Operation, args: list[np.ndarray], env: dict):
        self.op, self.env = op, env
        self.n_out = len(op.results)
        self.n_in = len(args) - self.n_out
        maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
        self.n = maps[0].n_dims
        self.reduction = [i for i, it in enumerate(ir.ArrayAttr(op.attributes["iterator_types"]))
                          if "reduction" in str(it)]
        dims = [_dims(op, m, constants=True) for m in maps]
        self.sizes = [1] * self.n
        for x, ds in zip(args, dims):
            for d, s in zip(ds, np.shape(x)):
                if d is not None:
                    self.sizes[d] = s
        self.out_dims = dims[self.n_in:]
        self.out_maps = maps[self.n_in:]
        self.inits = [np.asarray(x) for x in args[self.n_in:]]
        if any(set(ds) & set(self.reduction) or len([d for d in ds if d is not None]) != self.n - len(self.reduction)
               for ds in self.out_dims):
            raise refuse(op, "has an output that is not indexed by every parallel loop")
        self.loops = [_to_loops(np.asarray(x), m, ds, self.n) for x, m, ds in zip(args, maps, dims)]
        self.block = op.regions[0].blocks[0]
        self.parallel_shape = [1 if d in self.reduction else s for d, s in enumerate(self.sizes)]
        if math.prod(self.parallel_shape) > MAX_ELEMENTS:
            raise refuse(op, "is too large for numpy")

    def _arg_env(self, values: list[np.ndarray]) -> dict:
        env = dict(self.env)
        env.update(zip(self.block.arguments, values))
        return env

    def _body(self, env: dict, index: dict[int, np.ndarray | int]) -> list[np.ndarray]:
        """The yielded values of the body evaluated on `env`'s block arguments."""
        for op in _ops(self.block):
            if op.name == "linalg.yield":
                return [env[v] for v in op.operands]
            if op.name == "linalg.index":
                d = ir.IntegerAttr(op.attributes["dim"]).value
                env[op.results[0]] = np.asarray(index[d], np.int64)
            else:
                env.update(zip(op.results, _results(_evaluate_op(op, [env[v] for v in op.operands], env))))
        raise refuse(self.op, "has no linalg.yield")

    def _indices(self) -> dict[int, np.ndarray]:
        return {d: np.arange(s).reshape([s if i == d else 1 for i in range(self.n)]) for d, s in enumerate(self.sizes)}

    def run(self) -> list[np.ndarray]:
        if not self.reduction:
            if math.prod(self.sizes) > MAX_ELEMENTS:
                raise refuse(self.op, "is too large for numpy")
            ys = self._body(self._arg_env(self.loops), self._indices())
        else:
            ys = self._combined() or self._stepwise()
        return [numpy_arith.cast(self._place(i, _from_loops(y, [d for d in ds if d is not None], self.parallel_shape)), r.type)
                for i, (y, ds, r) in enumerate(zip(ys, self.out_dims, self.op.results))]

    def _place(self, i: int, value: np.ndarray) -> np.ndarray:
        """Output `i`'s result: `value` where its map has constant indices (an output written
        at index 0 of a kept dim) put there in a copy of its init; `value` itself otherwise."""
        ds = self.out_dims[i]
        if None not in ds:
            return value
        out = self.inits[i].copy()
        out[tuple(ir.AffineConstantExpr(e).value if d is None else slice(None)
                  for d, e in zip(ds, self.out_maps[i].results))] = value
        return out

    # A reduction whose outputs each yield combine(out, e), e free of the outputs.
    def _combined(self) -> list[np.ndarray] | None:
        outs = list(self.block.arguments)[self.n_in:]
        yielded = list(self.block.operations)[-1].operands
        plans = []
        for out, y in zip(outs, yielded):
            owner = _defining_op(y)
            if owner is None or owner.name not in _REDUCE or len(owner.operands) != 2:
                return None
            a, b = owner.operands
            e = b if a == out else a if b == out else None
            if e is None or _depends_on(e, set(outs), self.block):
                return None
            plans.append((owner, e))
        results = []
        for (combine, e), init in zip(plans, self.loops[self.n_in:]):
            reduced = self._reduce(combine, e)
            results.append(numpy_arith.cast(numpy_arith.ELEMENTWISE[combine.name](init, reduced), combine.results[0].type))
        return results

    def _reduce(self, combine: ir.Operation, e: ir.Value) -> np.ndarray:
        """`e` over every loop, reduced over the reduction loops under `combine` (keepdims)."""
        rtype = combine.results[0].type
        product = _defining_op(e)
        if combine.name in ("arith.addf", "arith.addi") and product is not None and \
                product.name in ("arith.mulf", "arith.muli"):
            x, y = (self._value_of(v) for v in product.operands)
            return self._einsum(numpy_arith.cast(x, rtype), numpy_arith.cast(y, rtype))
        value = np.asarray(self._value_of(e))
        if math.prod(self.sizes) > MAX_ELEMENTS:
            raise refuse(self.op, "is too large for numpy")
        value = np.broadcast_to(value, self.sizes)
        return numpy_arith.cast(_REDUCE[combine.name](value, axis=tuple(self.reduction)), rtype).reshape(self.parallel_shape)

    def _value_of(self, v: ir.Value) -> np.ndarray:
        """Value `v` of the body (free of the outputs), in loop space."""
        env = self._arg_env(self.loops[:self.n_in])
        index = self._indices()
        memo = {}

        def value(w):
            if w in env:
                return env[w]
            if w in memo:
                return memo[w]
            op = _defining_op(w)
            if op.name == "linalg.index":
                r = np.asarray(index[ir.IntegerAttr(op.attributes["dim"]).value])
            else:
                r = _evaluate_op(op, [value(o) for o in op.operands], env)
            memo[w] = r
            return r
        return value(v)

    def _einsum(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """sum over the reduction loops of x * y, both in loop space, as one einsum."""
        letters = "abcdefghijklmnopqrstuvwxyz"[:self.n]
        sx = "".join(letters[d] for d in range(self.n) if x.shape[d] != 1)
        sy = "".join(letters[d] for d in range(self.n) if y.shape[d] != 1)
        so = "".join(letters[d] for d in range(self.n) if d not in self.reduction and (letters[d] in sx + sy))
        out = np.einsum(f"{sx},{sy}->{so}", x.reshape([s for s in x.shape if s != 1]),
                        y.reshape([s for s in y.shape if s != 1]), optimize=True)
        shape = [s if letters[d] in so else 1 for d, s in enumerate(self.sizes)]
        # A reduction loop neither factor varies along adds the same product once per step.
        steps = math.prod(self.sizes[d] for d in self.reduction if letters[d] not in sx + sy)
        return np.reshape(out * out.dtype.type(steps) if steps != 1 else out, shape)

    # Any other reduction: one step of the reduction loops at a time, in their order.
    def _stepwise(self) -> list[np.ndarray]:
        red_sizes = [self.sizes[d] for d in self.reduction]
        if math.prod(red_sizes) > MAX_STEPS:
            raise refuse(self.op, "takes too many sequential steps for numpy")
        acc = list(self.loops[self.n_in:])
        index = self._indices()
        for step in np.ndindex(*red_sizes):
            at = dict(zip(self.reduction, step))
            ins = [x[tuple(at.get(d, slice(None)) if x.shape[d] != 1 else slice(None) for d in range(self.n))]
                   for x in self.loops[:self.n_in]]
            ins = [np.expand_dims(x, tuple(d for d in self.reduction if self.loops[i].shape[d] != 1))
                   for i, x in enumerate(ins)]
            step_index = {d: (at[d] if d in at else i) for d, i in index.items()}
            acc = [numpy_arith.cast(v, r.type) for v, r in zip(self._body(self._arg_env(ins + acc), step_index), self.op.results)]
        return acc


def _defining_op(v: ir.Value) -> ir.Operation | None:
    """The op that defines `v`; None for a block argument."""
    return None if isinstance(v.owner, ir.Block) else v.owner.operation


def _depends_on(v: ir.Value, targets: set, block: ir.Block) -> bool:
    """Whether body value `v` reads any of `targets` (block arguments), directly or not."""
    body = {r for op in block.operations for r in op.results}
    seen = set()
    stack = [v]
    while stack:
        w = stack.pop()
        if w in targets:
            return True
        if w in seen or w not in body:
            continue
        seen.add(w)
        stack.extend(_defining_op(w).operands)
    return False


# --- the other ops ---------------------------------------------------------------------------

def _shape(t: ir.Type) -> list[int]:
    shape = ir.ShapedType(t).shape
    if any(ir.ShapedType.is_dynamic_size(s) for s in shape):
        raise Unsupported(f"dynamic shape {t} is not evaluated by numpy")
    return shape


def _static(op: ir.Operation, name: str) -> list[int]:
    values = list(ir.DenseI64ArrayAttr(op.attributes[name]))
    if any(ir.ShapedType.is_dynamic_size(v) for v in values):
        raise refuse(op, f"has a dynamic {name}")
    return values


def _slices(op: ir.Operation) -> tuple[slice, ...]:
    if len(op.operands) > (2 if op.name == "tensor.insert_slice" else 1):
        raise refuse(op, "has dynamic offsets, sizes or strides")
    offsets, sizes, strides = (_static(op, f"static_{k}") for k in ("offsets", "sizes", "strides"))
    return tuple(slice(o, o + s * st, st) for o, s, st in zip(offsets, sizes, strides)), sizes


def _extract_slice(op, args, env):
    index, _ = _slices(op)
    return np.reshape(args[0][index], _shape(op.results[0].type)).copy()


def _insert_slice(op, args, env):
    index, sizes = _slices(op)
    out = np.array(args[1])
    out[index] = np.reshape(args[0], sizes)
    return out


def _pad(op, args, env):
    if len(op.operands) > 1:
        raise refuse(op, "has dynamic padding")
    block = op.regions[0].blocks[0]
    ops = _ops(block)
    if len(ops) != 1 or block.arguments and any(a == ops[0].operands[0] for a in block.arguments):
        raise refuse(op, "pads with a value that is not one constant")
    pad = env[ops[0].operands[0]]
    low, high = _static(op, "static_low"), _static(op, "static_high")
    return np.pad(args[0], list(zip(low, high)), constant_values=pad)


def _softmax(op, args, env):
    d = ir.IntegerAttr(op.attributes["dimension"]).value
    x = args[0]
    e = np.exp(x - np.max(x, axis=d, keepdims=True))
    return numpy_arith.cast(e / np.sum(e, axis=d, keepdims=True), op.results[0].type)


def _letters(dims: list[int | None]) -> str:
    return "".join(chr(ord("a") + d) for d in dims if d is not None)


def _attention(op, args, env):
    """iree_linalg_ext.attention as IREE 3.13 computes it (checked against its llvm-cpu
    backend): S = (Q K^T) scale log2(e); the score region on S (in those log2 units, as IREE
    applies it), its `iree_linalg_ext.index` the loops' indices; + mask log2(e) for a float
    mask, -inf where an integer mask's low bit is 0; softmax in base 2 over the keys from a
    running max that starts at -3.4e38 (a row of -inf scores gives 0 / 0: NaN); times V."""
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    rank = maps[0].n_dims
    dims = [_dims(op, m, True) for m in maps]
    q, k, v, scale = args[:4]
    used = [{d for d in ds if d is not None} for ds in dims]
    k1 = (used[0] & used[1]) - used[2]
    space = sorted((used[0] | used[1]) - k1)  # the loops of S
    shape = [1] * rank
    for x, ds in zip(args[:3], dims[:3]):
        for d, size in zip(ds, np.shape(x)):
            shape[d] = size if d is not None else shape[d]

    def own(x, i):  # the operand with its constant-index dims taken at their index
        index = tuple(ir.AffineConstantExpr(e).value if d is None else slice(None)
                      for d, e in zip(dims[i], maps[i].results))
        return x[index] if index else x

    s = np.einsum(f"{_letters(dims[0])},{_letters(dims[1])}->{_letters(space)}", own(q, 0), own(k, 1))
    s = np.reshape(s * np.asarray(scale, np.float64) * np.log2(np.e), [shape[d] if d in space else 1 for d in range(rank)])
    block = op.regions[0].blocks[0]
    local = {block.arguments[0]: s}
    for body_op in _ops(block):
        if body_op.name == "iree_linalg_ext.yield":
            s = local[body_op.operands[0]]
            break
        if body_op.name == "iree_linalg_ext.index":
            d = ir.IntegerAttr(body_op.attributes["dim"]).value
            local[body_op.results[0]] = np.arange(shape[d]).reshape([shape[d] if i == d else 1 for i in range(rank)])
            continue
        local[body_op.results[0]] = numpy_arith.elementwise(body_op, [local[x] if x in local else env[x] for x in body_op.operands])
    if len(args) == 6:
        mask = _to_loops(np.asarray(args[4]), maps[4], dims[4], rank)
        if np.issubdtype(mask.dtype, np.integer) or mask.dtype == np.bool_:
            s = np.where(mask.astype(np.int64) & 1, s, -np.inf)
        else:
            s = s + mask.astype(np.float64) * np.log2(np.e)
    k2 = sorted((used[1] & used[2]) - used[0])
    top = np.maximum(np.max(s, axis=tuple(k2), keepdims=True), -np.finfo(np.float32).max)
    p = np.exp2(s - top)
    total = np.sum(p, axis=tuple(k2), keepdims=True)
    p_own = np.squeeze(p, axis=tuple(d for d in range(rank) if d not in space))
    out = np.einsum(f"{_letters(space)},{_letters(dims[2])}->{_letters(sorted(used[-1]))}", p_own, own(v, 2))
    total = np.squeeze(total, axis=tuple(d for d in range(rank) if d not in space))
    keep = [d for d in space if d not in k2]
    out = out / np.reshape(total, [shape[d] if d in keep else 1 for d in sorted(used[-1])])
    order = np.argsort(np.argsort([d for d in dims[-1] if d is not None]))
    return numpy_arith.cast(np.transpose(out, order), op.results[0].type)


def _assert(op, args, env):
    """cf.assert: nothing to compute where its condition holds (a shape or bounds check)."""
    if not np.all(args[0]):
        raise AssertionFailed(f"the program's check \"{ir.StringAttr(op.attributes['msg']).value}\" fails on "
                              "these inputs")
    return []


def _extract(op, args, env):
    """tensor.extract: a table read, at indices that may be arrays (a gather in a body)."""
    table, indices = args[0], [np.asarray(i) for i in args[1:]]
    for d, i in enumerate(indices):
        if i.size and (i.min() < 0 or i.max() >= table.shape[d]):
            raise AssertionFailed(f"tensor.extract reads index {int(i.max() if i.max() >= table.shape[d] else i.min())} "
                                  f"of dim {d} of a table of {table.shape[d]}: out of bounds")
    return table[tuple(indices)] if indices else table[()]


def _constant(op, args, env):
    return _attribute_value(op, op.attributes["value"], op.results[0].type)


_OPS = {
    "arith.constant": _constant,
    "cf.assert": _assert,
    "util.unfoldable_constant": _constant,
    "tensor.empty": lambda op, args, env: np.zeros(_shape(op.results[0].type), numpy_arith.numpy_dtype(op.results[0].type)),
    "tensor.expand_shape": lambda op, args, env: np.reshape(args[0], _shape(op.results[0].type)),
    "tensor.collapse_shape": lambda op, args, env: np.reshape(args[0], _shape(op.results[0].type)),
    "tensor.extract_slice": _extract_slice,
    "tensor.insert_slice": _insert_slice,
    "tensor.pad": _pad,
    "tensor.concat": lambda op, args, env: np.concatenate(args, axis=ir.IntegerAttr(op.attributes["dim"]).value),
    "tensor.reshape": lambda op, args, env: np.reshape(args[0], [int(d) for d in args[1]]),
    "tensor.extract": _extract,
    "util.global.load": _global_value,
    "linalg.softmax": _softmax,
    "iree_linalg_ext.attention": _attention,
    "linalg.generic": lambda op, args, env: _Generic(op, args, env).run(),
}


def _evaluate_op(op: ir.Operation, args: list[np.ndarray], env: dict):
    if op.name in _OPS:
        return _OPS[op.name](op, args, env)
    if len(op.results) == 1 and not len(op.regions):
        return numpy_arith.elementwise(op, args)
    raise refuse(op)


def _results(value) -> list:
    """An op's evaluated results as a list (one array, a list of several, or none)."""
    return value if isinstance(value, list) else [value]


def evaluate(text: str, function: str, inputs: list[np.ndarray],
             parameter_store: parameters.Store | None = None) -> list[np.ndarray]:
    """The outputs of `function` of the program `text` on `inputs` (see the module docstring),
    its parameters read from `parameter_store`; Unsupported for what it does not take,
    AssertionFailed where the program's own checks refuse the inputs."""
    return evaluate_each(text, function, [inputs], parameter_store)[0]


def evaluate_each(text: str, function: str, input_sets: list[list[np.ndarray]],
                  parameter_store: parameters.Store | None = None,
                  flush_subnormals: bool = False) -> list[list[np.ndarray]]:
    """`evaluate` on each of `input_sets`, the program parsed once; with `flush_subnormals`,
    f32/f16/bf16 inputs and results that are subnormal are taken as 0 (a GPU's denormal flush)."""
    _resources.clear()
    token = numpy_arith.FLUSH.set(flush_subnormals)
    try:
        with shared_context.get(), ir.Location.unknown():
            module = ir.Module.parse(text)
            printed = str(module) if "dialect_resources" in text else ""
            if "dialect_resources" in printed:
                # As this parse names them: a context renames blobs whose names it already holds.
                _resources.update((k.strip('"'), v) for k, v in
                                  _RESOURCE.findall(printed[printed.index("dialect_resources"):]))
            passmanager.PassManager.parse("builtin.module(func.func(linalg-generalize-named-ops))").run(
                module.operation)
            funcs = [op for op in _ops(module.body) if op.name == "func.func"
                     and ir.StringAttr(op.attributes["sym_name"]).value == function]
            if len(funcs) != 1 or len(funcs[0].regions[0].blocks) != 1:
                raise Unsupported(f"function @{function} is not one block")
            program_globals = {ir.StringAttr(op.attributes["sym_name"]).value: op for op in _ops(module.body)
                               if op.name == "util.global"}
            return [_run(funcs[0].regions[0].blocks[0], function, inputs,
                         {_GLOBALS: {"parameters": parameter_store, "globals": dict(program_globals)}})
                    for inputs in input_sets]
    finally:
        numpy_arith.FLUSH.reset(token)


def _run(block: ir.Block, function: str, inputs: list[np.ndarray], env: dict) -> list[np.ndarray]:
    for arg, x in zip(block.arguments, inputs):
        env[arg] = numpy_arith.cast(x, arg.type) if isinstance(scalar_type(arg.type), ir.BF16Type) \
            else numpy_arith.flushed(np.asarray(x, numpy_arith.numpy_dtype(arg.type)).reshape(_shape(arg.type)))
    with np.errstate(all="ignore"):
        for op in _ops(block):
            if op.name == "func.return":
                return [np.asarray(env[v]) for v in op.operands]
            env.update(zip(op.results, _results(_evaluate_op(op, [env[v] for v in op.operands], env))))
    raise Unsupported(f"function @{function} has no func.return")
