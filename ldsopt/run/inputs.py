"""The inputs lds-run gives a program: drawn at random within what the program can take, or the
user's own (`--input`), and refused, with the reason, where they would read out of bounds.

Random inputs (`random_inputs`): floats unit normal; integers in [-1000, 1000], i8 over its
whole range; i1 0 or 1; a per-input range (`--input-range N=LO:HI`) replaces the default.
An integer input that indexes a table (an embedding, a gather: a `tensor.extract` in a
`linalg.generic` body, as torch-mlir lowers `aten.embedding`, `aten.gather`,
`aten.index_select`) is drawn in [0, E), E the extent of the table's indexed dim, the least
over every table it indexes (`index_bounds`). Its values are followed from the argument to
the `tensor.extract` through what keeps them (casts, reshapes, slices, the generic bodies that
copy them, and its own elements read as a table: BERT's token type ids, read at the position
ids, index the token type embeddings); a value that reaches a table index any other way (arithmetic on it first)
has no bound lds-run can derive: the input is then refused unless the user gives its values
or its range, as it would read out of bounds at random.

The user's inputs (`--input N=...`, iree-run-module's spellings: `@file.npy`,
`SHAPExTYPE=v1 v2 ...`, `SHAPExTYPE=v` splat, `SHAPExTYPE` zeros, `TYPE=v`) are checked
against the derived bounds: an input with a value outside them is refused with the value,
its place and the table, never run.

An argument is named by its index or by its name where the program's source names its
arguments (an ONNX graph's inputs, a torch module's forward parameters).
"""

from __future__ import annotations

import dataclasses
import os
import re

import numpy as np
from iree.compiler import ir

from ldsopt import shared_context
from ldsopt.run.tensor_file import DTYPES, FLOATS


class InputsError(Exception):
    """Inputs that cannot be given or that the program cannot take; the message says why."""


@dataclasses.dataclass
class IndexBound:
    """What the values of one argument may be, as the program's table reads bound them."""
    hi: int | None = None      # values index tables: they must lie in [0, hi)
    where: str = ""            # the table and the op that bound them most
    unbounded: str | None = None  # a table index reached by a way not followed: the op

    def describe(self) -> str:
        if self.hi is not None:
            return f"it indexes {self.where}: values must lie in [0, {self.hi})"
        return f"it reaches a table index through {self.unbounded}, whose bound lds-run does not derive"


# Ops through which values of a tensor reach their consumers unchanged.
_KEEPS = {"tensor.cast", "tensor.expand_shape", "tensor.collapse_shape", "tensor.extract_slice", "tensor.reshape",
          "linalg.broadcast", "linalg.transpose", "linalg.copy"}
# Scalar ops in a body that keep an index's value.
_SCALAR_KEEPS = {"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci"}
# Ops that read values as positions: the first operand that is one.
_POSITIONS_FROM = {"tensor.extract": 1, "tensor.insert": 2, "tensor.extract_slice": 1, "tensor.insert_slice": 2,
                   "tensor.dim": 1, "iree_linalg_ext.gather": 1, "iree_linalg_ext.scatter": 1, "tensor.gather": 1,
                   "tensor.scatter": 2}


def _users(v: ir.Value):
    for use in v.uses:
        yield use.owner, use.operand_number


def _bounds_of(arg: ir.Value) -> IndexBound:
    """Follows `arg`'s values to the table reads they index (module docstring)."""
    bound = IndexBound()
    seen: set = set()
    stack = [arg]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        for owner, k in _users(v):
            op = owner.operation if hasattr(owner, "operation") else owner
            name = op.name
            if name in _KEEPS and k == 0:
                stack.append(op.results[0])
            elif name == "linalg.generic" and k < len(op.operands) - len(op.results):
                stack.append(op.regions[0].blocks[0].arguments[k])
            elif name in _SCALAR_KEEPS:
                stack.append(op.results[0])
            elif name == "linalg.yield":
                generic = op.parent
                stack.append(generic.results[k])
            elif name == "tensor.extract" and k == 0:
                stack.append(op.results[0])  # an element of the argument read as a table: its value
            elif name == "tensor.extract" and k > 0:
                table = ir.RankedTensorType(op.operands[0].type)
                extent = table.shape[k - 1]
                if ir.ShapedType.is_dynamic_size(extent):
                    bound.unbounded = bound.unbounded or f"{op.name} (a table of dynamic extent)"
                elif bound.hi is None or extent < bound.hi:
                    bound.hi = extent
                    bound.where = f"dim {k - 1} of a {table} table (an embedding or gather: tensor.extract)"
            elif name in ("arith.cmpi", "cf.assert"):
                continue  # the program's own bounds checks
            else:
                for r in op.results:
                    _taint(r, bound)
    return bound


def _is_position(op: ir.Operation, k: int) -> bool:
    """Whether operand `k` of `op` is read as a position (an index, an offset, a size)."""
    first = _POSITIONS_FROM.get(op.name)
    return first is not None and k >= first


def _taint(v: ir.Value, bound: IndexBound) -> None:
    """Marks `bound` unbounded where values computed from `v` reach a position."""
    stack, seen = [v], set()
    while stack and bound.unbounded is None:
        w = stack.pop()
        if w in seen:
            continue
        seen.add(w)
        for owner, k in _users(w):
            op = owner.operation if hasattr(owner, "operation") else owner
            if _is_position(op, k):
                bound.unbounded = op.name
                return
            if op.name == "linalg.generic" and k < len(op.operands) - len(op.results):
                stack.append(op.regions[0].blocks[0].arguments[k])
            elif op.name == "linalg.yield":
                stack.append(op.parent.results[k])
            else:
                stack.extend(op.results)


def index_bounds(text: str, function: str) -> list[IndexBound]:
    """Per argument of `function` in program `text`, the bound its table reads put on it."""
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        fn = next(op.operation for op in module.body.operations if op.operation.name == "func.func"
                  and ir.StringAttr(op.attributes["sym_name"]).value == function)
        return [_bounds_of(a) for a in fn.regions[0].blocks[0].arguments]


# --- the user's inputs ---------------------------------------------------------------------

def assignments(values: list[str] | None, flag: str) -> list[tuple[str, str]]:
    """`KEY=VALUE` pairs of a repeated option."""
    out = []
    for v in values or []:
        key, sep, rest = v.partition("=")
        if not sep or not key or not rest:
            raise InputsError(f"{flag} {v!r}: expected NAME_OR_INDEX=VALUE")
        out.append((key, rest))
    return out


def argument_index(key: str, names: list[str] | None, count: int, flag: str) -> int:
    if key.isdigit():
        i = int(key)
        if i >= count:
            raise InputsError(f"{flag} {key}: the function has {count} argument(s)")
        return i
    if names and key in names:
        return names.index(key)
    known = f"its arguments are named {', '.join(names)}" if names else "the program does not name its arguments"
    raise InputsError(f"{flag} {key}: no argument of that name ({known}; an index also names one)")


_ELEMENT = re.compile(r"^(i1|i8|i16|i32|i64|f16|bf16|f32|f64)$")


def parse_shape(spec: str, flag: str = "--input-shape") -> list[int]:
    try:
        dims = [int(d) for d in spec.split("x")] if spec else []
    except ValueError:
        raise InputsError(f"{flag} {spec!r}: expected a shape such as 1x128") from None
    if any(d < 0 for d in dims):
        raise InputsError(f"{flag} {spec!r}: dims must be non-negative")
    return dims


def read_value(spec: str, base: str = ".") -> np.ndarray:
    """An input as iree-run-module spells it (module docstring), as a numpy array; bf16
    values are held in f32."""
    if spec.startswith("@"):
        path = os.path.join(base, spec[1:])
        if not path.endswith(".npy"):
            raise InputsError(f"--input {spec}: only .npy files are read (numpy.save's format)")
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise InputsError(f"--input {spec}: cannot read it: {e}") from None
    head, sep, data = spec.partition("=")
    shape_text, _, element = head.rpartition("x") if "x" in head else ("", "", head)
    if not _ELEMENT.match(element):
        raise InputsError(f"--input {spec!r}: expected @file.npy, SHAPExTYPE=VALUES or TYPE=VALUE "
                          f"(TYPE one of i1 i8 i16 i32 i64 f16 bf16 f32 f64)")
    shape = parse_shape(shape_text, "--input")
    count = int(np.prod(shape, dtype=np.int64))
    dtype = np.float32 if element == "bf16" else DTYPES[element][0]
    tokens = [t for t in re.split(r"[\s,\[\]]+", data) if t]
    if not tokens:
        return np.zeros(shape, dtype)
    try:
        values = np.array([float(t) if element in FLOATS else int(t) for t in tokens], dtype)
    except ValueError:
        raise InputsError(f"--input {spec!r}: values must be numbers of type {element}") from None
    if len(values) == 1:
        return np.full(shape, values[0], dtype)
    if len(values) != count:
        raise InputsError(f"--input {spec!r}: {len(values)} values for a {head} input of {count}")
    return values.reshape(shape)


def parse_range(spec: str) -> tuple[float, float]:
    lo, sep, hi = spec.partition(":")
    try:
        lo_v, hi_v = float(lo), float(hi)
    except ValueError:
        raise InputsError(f"--input-range {spec!r}: expected LO:HI") from None
    if not sep or lo_v > hi_v:
        raise InputsError(f"--input-range {spec!r}: expected LO:HI with LO <= HI")
    return lo_v, hi_v


def as_argument(value: np.ndarray, shape: list[int], dtype: str, index: int) -> np.ndarray:
    """A given input as argument `index` of `shape` (-1: any) and element type `dtype`."""
    if list(value.shape) != [d if d >= 0 else s for d, s in zip(shape, value.shape)] or value.ndim != len(shape):
        want = "x".join("?" if d < 0 else str(d) for d in shape) or "a scalar"
        raise InputsError(f"--input {index}: a {'x'.join(map(str, value.shape)) or 'scalar'} value for an "
                          f"argument of shape {want}")
    if dtype in FLOATS:
        if value.dtype.kind != "f":
            raise InputsError(f"--input {index}: {value.dtype} values for a {dtype} argument")
        if dtype == "bf16":
            bits = value.astype(np.float32).view(np.uint32).astype(np.uint64)
            return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        return value.astype(DTYPES[dtype][0])
    if value.dtype.kind not in "iub":
        raise InputsError(f"--input {index}: {value.dtype} values for a {dtype} argument")
    target = DTYPES[dtype][0]
    if dtype != "i1" and value.size and (value.min() < np.iinfo(target).min or value.max() > np.iinfo(target).max):
        raise InputsError(f"--input {index}: values out of the range of {dtype}")
    return value.astype(target)


def check(arrays: list[np.ndarray], bounds: list[IndexBound], given: set[int]) -> None:
    """Refuses inputs whose values would read a table out of bounds."""
    for i, (a, b) in enumerate(zip(arrays, bounds)):
        if b.hi is not None and a.size and (a.min() < 0 or a.max() >= b.hi):
            bad = np.argwhere((a < 0) | (a >= b.hi))[0]
            raise InputsError(f"input {i} holds {a[tuple(bad)]} at [{', '.join(map(str, bad))}], but {b.describe()}; "
                              "the run would read out of bounds and is refused")
        if b.unbounded and i not in given:
            raise InputsError(f"input {i}: {b.describe()}; random values would read out of bounds: give its values "
                              f"(--input {i}=@file.npy) or its range (--input-range {i}=LO:HI)")


# --- random inputs ---------------------------------------------------------------------------

def specials(dtype: str) -> np.ndarray:
    """The special values `random_inputs` puts into a float input, as stored: +inf, -inf,
    NaN, -0.0, the smallest subnormal and minus the largest subnormal. (Large finite values
    are left out: a sum holding +-60000 in f16 cancels to a value the rounding of its own
    order decides, which no element-wise tolerance can judge.)"""
    if dtype == "bf16":  # the upper halves of f32 values bf16 represents exactly
        return np.array([0x7F80, 0xFF80, 0x7FC0, 0x8000, 0x0001, 0x807F], dtype=np.uint16)
    t = np.dtype(DTYPES[dtype][0]).type
    info = np.finfo(t)
    return np.array([np.inf, -np.inf, np.nan, -0.0, info.smallest_subnormal,
                     -(info.smallest_normal - info.smallest_subnormal)], dtype=t)


def random_inputs(inputs: list[tuple[list[int], str]], seed: int, special: bool = False,
                  ranges: dict[int, tuple[float, float]] | None = None,
                  bounds: list[IndexBound] | None = None) -> list[np.ndarray]:
    """Seeded random inputs of the given (shape, element type)s: unit normal floats; integers
    in [-1000, 1000], i8 over its whole range [-128, 127] (negative ones included, so that a
    kernel that zero-extends i8, multiplies it in i8 or sums its products in i16 differs from
    the reference, while an i32 sum of fewer than 2^17 i8 products stays exact); integers
    that index a table (`bounds`) in [0, its extent); `ranges` (index -> [lo, hi]) instead,
    floats uniform and integers inclusive. With `special`, each float input also holds
    `specials` at seeded random places, one every 4096 elements and each of them at least
    once (a second generator draws them, so the other elements are those of the same seed
    without)."""
    rng = np.random.default_rng(seed)
    spots = np.random.default_rng([seed, 1])
    ranges = ranges or {}
    out = []
    for i, (shape, dtype) in enumerate(inputs):
        given = ranges.get(i)
        if dtype in ("f32", "f16", "f64", "bf16"):
            wide = rng.uniform(*given, shape) if given else rng.standard_normal(shape)
            if dtype == "bf16":
                bits = wide.astype(np.float32).view(np.uint32)
                arr = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)  # round to nearest even
            else:
                arr = wide.astype(DTYPES[dtype][0])
        elif dtype in ("i1", "i8", "i16", "i32", "i64"):
            hi_bound = bounds[i].hi if bounds and bounds[i].hi is not None else None
            if given:
                lo, hi = int(np.ceil(given[0])), int(np.floor(given[1])) + 1
            elif hi_bound is not None:
                lo, hi = 0, hi_bound
            else:
                lo, hi = {"i1": (0, 2), "i8": (-128, 128)}.get(dtype, (-1000, 1001))
            arr = rng.integers(lo, hi, shape).astype(DTYPES[dtype][0])
        else:
            raise InputsError(f"inputs of element type {dtype} are not supported")
        if special and dtype in FLOATS and arr.size:
            values = specials(dtype)
            count = min(arr.size, max(len(values), arr.size // 4096))
            flat = arr.reshape(-1)
            flat[spots.choice(arr.size, count, replace=False)] = values[np.arange(count) % len(values)]
        out.append(arr)
    return out


@dataclasses.dataclass
class Options:
    """The user's say on a run's inputs: `--input`, `--input-range`, `--input-shape` (each a
    list of `NAME_OR_INDEX=...`), the arguments' names where known, and the folder that
    `@file.npy` paths are relative to."""
    values: list[str] = dataclasses.field(default_factory=list)
    ranges: list[str] = dataclasses.field(default_factory=list)
    shapes: list[str] = dataclasses.field(default_factory=list)
    names: list[str] | None = None
    base: str = "."
    arrays: dict[int, np.ndarray] = dataclasses.field(default_factory=dict)  # given as arrays (ldsopt.torch)


@dataclasses.dataclass
class Resolved:
    values: dict[int, np.ndarray]
    ranges: dict[int, tuple[float, float]]
    shapes: dict[int, list[int]]


def resolve(opts: Options, args: list[tuple[list[int], str]]) -> Resolved:
    """`opts` by argument index, values converted to each argument's (shape, element type)
    (-1 dims take the value's)."""
    n = len(args)
    values = {i: as_argument(np.asarray(a), *args[i], i) for i, a in opts.arrays.items()}
    for key, spec in assignments(opts.values, "--input"):
        i = argument_index(key, opts.names, n, "--input")
        values[i] = as_argument(read_value(spec, opts.base), *args[i], i)
    ranges = {argument_index(k, opts.names, n, "--input-range"): parse_range(v)
              for k, v in assignments(opts.ranges, "--input-range")}
    shapes = {argument_index(k, opts.names, n, "--input-shape"): parse_shape(v)
              for k, v in assignments(opts.shapes, "--input-shape")}
    for i, shape in shapes.items():
        want = args[i][0]
        if len(shape) != len(want) or any(w >= 0 and w != s for w, s in zip(want, shape)):
            raise InputsError(f"--input-shape {i}={'x'.join(map(str, shape))}: argument {i} has shape "
                              f"{'x'.join('?' if w < 0 else str(w) for w in want)}")
    for i, v in values.items():
        shapes.setdefault(i, list(v.shape))
    return Resolved(values, ranges, shapes)
