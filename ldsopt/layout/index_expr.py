"""Index expressions: one definition of a map, two faces.

A map of the library (a lane's offset in an intrinsic fragment, a chunk's tile coordinates,
an LDS placement, ...) is built once, by `ldsopt.layout.maps` and its neighbours, as an `Expr`
over named index variables, and then

- `evaluate(env)` computes it on plain ints (the bank model, the planners, the tests);
- `emit(exprs, env, const)` writes its `arith` ops on index values (the passes).

Both faces read the same tree, so what the bank model prices is what a kernel computes,
including a static division done by a magic multiply-shift (`ldsopt.layout.magic_div`), whose
integer face is the multiply-shift too.

Emission order. Nodes are emitted in the order they were built (each node draws a sequence
number), not in the order a traversal meets them, and a constant asks `const` for its value
at its own place in that order. A builder that builds its nodes in the order a pass used to
call `arith` therefore emits the same ops in the same order; the ops are not folded here,
only the builders fold (`scaled`, `offset`: a factor of one, an offset of zero). Nodes are
compared by identity: a subexpression used twice is one node, emitted once per `emit` call.
"""

from __future__ import annotations

import functools
import itertools
from typing import Callable, Mapping, Sequence

import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import arith

_SEQ = itertools.count()

# op name -> (integer face, as Python of operands {a} and {b}; arith builder);
# operands are non-negative index values.
_OPS: dict[str, tuple[str, Callable[[ir.Value, ir.Value], ir.Value]]] = {
    "add": ("{a} + {b}", arith.addi),
    "sub": ("{a} - {b}", arith.subi),
    "mul": ("{a} * {b}", arith.muli),
    "divu": ("{a} // {b}", arith.divui),
    "remu": ("{a} % {b}", arith.remui),
    "shru": ("{a} >> {b}", arith.shrui),
    "and": ("{a} & {b}", arith.andi),
    "xor": ("{a} ^ {b}", arith.xori),
    "minu": ("min({a}, {b})", arith.minui),
}


class Expr:
    """An index expression node; build with `var`, `const` and the operators
    (`+ - * // % >> & ^`, an int operand becoming a constant)."""

    __slots__ = ("seq",)

    def __init__(self):
        self.seq = next(_SEQ)

    # --- builders: one node each, nothing folded ---
    def _bin(self, op: str, other, swap: bool = False) -> "Op":
        other = other if isinstance(other, Expr) else Const(other)
        return Op(op, other, self) if swap else Op(op, self, other)

    def __add__(self, o): return self._bin("add", o)
    def __radd__(self, o): return self._bin("add", o, swap=True)
    def __sub__(self, o): return self._bin("sub", o)
    def __rsub__(self, o): return self._bin("sub", o, swap=True)
    def __mul__(self, o): return self._bin("mul", o)
    def __floordiv__(self, o): return self._bin("divu", o)
    def __mod__(self, o): return self._bin("remu", o)
    def __rshift__(self, o): return self._bin("shru", o)
    def __and__(self, o): return self._bin("and", o)
    def __xor__(self, o): return self._bin("xor", o)

    def minu(self, o) -> "Op":
        return self._bin("minu", o)

    def children(self) -> tuple["Expr", ...]:
        return ()

    def evaluate(self, env: Mapping[str, int]) -> int:
        """The integer face: this expression with each variable given by `env`."""
        return evaluate([self], env)[0]


class Var(Expr):
    __slots__ = ("name",)

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def __repr__(self):
        return self.name


class Const(Expr):
    __slots__ = ("value",)

    def __init__(self, value: int):
        super().__init__()
        self.value = int(value)

    def __repr__(self):
        return str(self.value)


class Op(Expr):
    __slots__ = ("op", "a", "b")

    def __init__(self, op: str, a: Expr, b: Expr):
        super().__init__()
        self.op, self.a, self.b = op, a, b

    def children(self) -> tuple[Expr, ...]:
        return self.a, self.b

    def __repr__(self):
        return f"{self.op}({self.a!r}, {self.b!r})"


def var(name: str) -> Var:
    return Var(name)


def const(value: int) -> Const:
    return Const(value)


def as_expr(x) -> Expr:
    return x if isinstance(x, Expr) else Const(x)


# --- folding builders (the only folds) ---

def scaled(x: Expr, factor: int) -> Expr:
    """x * factor, x itself for a factor of one, 0 for a factor of zero."""
    return Const(0) if factor == 0 else x * factor if factor != 1 else x


def offset(x: Expr, off: int) -> Expr:
    """x + off, x itself for an offset of zero."""
    return x + off if off else x


def split(x: Expr, shape: Sequence[int]) -> list[Expr]:
    """The colexicographic coordinates of `x` (< prod(shape)) in `shape` (the first mode
    fastest, as `layout.Layout.coords`): x % s0, then (x // s0) % s1, ...; the last mode takes
    the quotient as it is (no remainder)."""
    out = []
    for i, s in enumerate(shape):
        if i == len(shape) - 1:
            out.append(x)
        else:
            out.append(x % s)
            x = x // s
    return out


def quotient(x: Expr, divider) -> Expr:
    """x // d by a `magic_div.MagicDivider`: a shift for a power of two, else the magic
    multiply-shift `(x * magic) >> shift` (exact on the divider's proven range)."""
    if divider.is_pow2:
        return x >> divider.shift
    return (x * divider.magic) >> divider.shift


def divmod_by(x: Expr, divider) -> tuple[Expr, Expr]:
    """(x // d, x % d) by a `magic_div.MagicDivider`: shift and mask, or the magic quotient
    and x - q * d."""
    q = quotient(x, divider)
    if divider.is_pow2:
        return q, x & (divider.divisor - 1)
    return q, x - q * divider.divisor


# --- the two faces ---

def _nodes(exprs: Sequence[Expr]) -> list[Expr]:
    seen: dict[int, Expr] = {}
    stack = list(exprs)
    while stack:
        e = stack.pop()
        if id(e) not in seen:
            seen[id(e)] = e
            stack.extend(e.children())
    return sorted(seen.values(), key=lambda e: e.seq)


def evaluate(exprs: Sequence[Expr], env: Mapping[str, int]) -> list[int]:
    """The integer face of each of `exprs` (shared nodes computed once)."""
    return list(Function(list(env), exprs)(*env.values()))


def emit(exprs: Sequence[Expr], env: Mapping[str, ir.Value], const: Callable[[int], ir.Value]) -> list[ir.Value]:
    """The IR face: `arith` ops on index values computing each of `exprs` at the current
    insertion point, in build order (see the module doc); `env` gives each variable's value,
    `const` makes an index constant (a kernel's hoisted, uniqued constants)."""
    val: dict[int, ir.Value] = {}
    for e in _nodes(exprs):
        if isinstance(e, Var):
            val[id(e)] = env[e.name]
        elif isinstance(e, Const):
            val[id(e)] = const(e.value)
        else:
            val[id(e)] = _OPS[e.op][1](val[id(e.a)], val[id(e.b)])
    return [val[id(e)] for e in exprs]


def _min(a, b):
    """`min` on ints, elementwise on numpy arrays (a Function evaluated at many points at once)."""
    return np.minimum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else min(a, b)


@functools.lru_cache(maxsize=4096)
def _compiled(code: str) -> Callable[..., tuple[int, ...]]:
    """The function `f` that `code` defines (maps of the same shape and constants share it)."""
    scope: dict = {}
    exec(compile(code, "<index_expr.Function>", "exec"), {"min": _min}, scope)
    return scope["f"]


class Function:
    """`exprs` as a function of the variables `params` on ints (the integer face of a map the
    bank model calls many times): its nodes, in build order, become the straight-line Python
    function that computes them, compiled once. Called with numpy integer arrays, it computes
    every point at once (the ops are numpy's: `//`, `%`, `&`, `>>`, ...)."""

    def __init__(self, params: Sequence[str], exprs: Sequence[Expr]):
        self.params = tuple(params)
        self.exprs = tuple(exprs)
        names: dict[int, str] = {}
        body = []
        for n, e in enumerate(_nodes(self.exprs)):
            if isinstance(e, Var):
                if e.name not in self.params:
                    raise KeyError(e.name)
                names[id(e)] = f"p{self.params.index(e.name)}"
                continue
            names[id(e)] = f"v{n}"
            value = repr(e.value) if isinstance(e, Const) else \
                "(" + _OPS[e.op][0].format(a=names[id(e.a)], b=names[id(e.b)]) + ")"
            body.append(f"    v{n} = {value}")
        args = ", ".join(f"p{i}" for i in range(len(self.params)))
        result = "".join(names[id(e)] + ", " for e in self.exprs)
        self._call = _compiled(f"def f({args}):\n" + "".join(line + "\n" for line in body)
                               + f"    return ({result})\n")

    def __call__(self, *args: int) -> tuple[int, ...]:
        return self._call(*args)


class Exact:
    """Divisions as `arith.divui` / `arith.remui` (and `//`, `%` on ints). Each division a map
    does is named (`quotient(x, d, name)`), so that a caller can give another strategy for it."""

    def quotient(self, x: Expr, d: int, name: str) -> Expr:
        return x // d

    def divmod(self, x: Expr, d: int, name: str) -> tuple[Expr, Expr]:
        return x // d, x % d


EXACT = Exact()


class Proven(Exact):
    """Each named division by its `magic_div.MagicDivider` (shift and mask, or the magic
    multiply-shift proven exact on that division's range: `dtl.divisions`)."""

    def __init__(self, dividers: Mapping[str, object]):
        self.dividers = dividers

    def _divider(self, d: int, name: str):
        div = self.dividers[name]
        if div.divisor != d:
            raise ValueError(f"division '{name}' is by {div.divisor}, not {d}")
        return div

    def quotient(self, x: Expr, d: int, name: str) -> Expr:
        return quotient(x, self._divider(d, name))

    def divmod(self, x: Expr, d: int, name: str) -> tuple[Expr, Expr]:
        return divmod_by(x, self._divider(d, name))
