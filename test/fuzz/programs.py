"""Hypothesis strategies for random linalg-on-tensors programs, as MLIR text.

Each program is one public `func.func @main` on static tensors, the form lds-run takes:
- reductions: rank 0 to 6 inputs, any subset of dims reduced (none included), add, mul,
  max and min over f32, f16 (f32 or f16 accumulator), bf16 (f32 accumulator) and i32, with
  an elementwise prologue in the body (one or two inputs, the second possibly broadcast), a
  filled or loaded init, the kept dims possibly permuted, and an optional elementwise
  epilogue that IREE fuses into the dispatch; sometimes a long reduced dim, which the
  program pipeline splits;
- elementwise: iteration rank 1 to 6, each input read through a permutation of all or a
  subset of the dims (transposes, broadcasts, transposed broadcasts), the output possibly
  permuted too, a chain of elementwise ops, or the named `linalg.transpose` /
  `linalg.broadcast` followed by a fused elementwise op;
- matmuls: NN/NT/TN/TT as `linalg.generic` with permuted maps, batched or not, and the
  named `linalg.matmul` / `linalg.batch_matmul`, f32, f16 and bf16 operands into f32 or i8
  operands sign-extended into i32, a filled or loaded accumulator, an optional fused
  epilogue (i32: none, or the conversion to f32), awkward sizes (primes, 1, non-multiples of
  every tile).

Sizes stay small (compilation dominates: a few seconds a program on lavapipe). Every
program carries the lds-run arguments it needs (`Program.args`: tolerances where two
correct summation orders may differ by more than lds-run's defaults).
"""

from __future__ import annotations

import dataclasses
import math

from hypothesis import strategies as st


@dataclasses.dataclass(frozen=True)
class Program:
    kind: str
    summary: str  # one line, also the program's first comment
    text: str
    args: tuple[str, ...] = ()

    def __repr__(self) -> str:  # what Hypothesis prints for a falsifying example
        return f"Program({self.summary!r}, args={self.args!r})"


# Awkward extents: 1, primes, powers of two and their neighbours. sampled_from shrinks
# towards the front, so the front holds the small ones.
SIZES = (2, 3, 1, 4, 5, 7, 8, 13, 16, 17, 31, 32, 33, 48, 64, 65, 100, 127, 128, 257, 1000, 1024, 4099)
MATMUL_SIZES = (2, 3, 1, 5, 7, 13, 16, 17, 31, 32, 33, 47, 64, 65, 97, 127, 128, 129, 200, 257)
# Reduced extents long enough for ldsopt-split-reduction (min-reduced=32768 by default).
LONG_SIZES = (32768, 40009, 65536, 131072 + 3)

FLOATS = ("f32", "f16", "bf16")
# lavapipe runs i64 elementwise wrongly (known): not generated. IREE's own lavapipe kernel of an
# i8 matmul drops B's sign extension; the i8 matmuls generated are ldsopt's (a dispatch left to
# IREE that fails alike is set aside by the test).
ELEMENTWISE_TYPES = ("f32", "f16", "bf16", "i32", "i8")

# Identity of each combiner: (kind, element type) -> MLIR constant.
_IDENTITY = {
    "add": {"f32": "0.0", "f16": "0.0", "bf16": "0.0", "i32": "0"},
    "mul": {"f32": "1.0", "f16": "1.0", "bf16": "1.0", "i32": "1"},
    "max": {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80", "i32": "-2147483648"},
    "min": {"f32": "0x7F800000", "f16": "0x7C00", "bf16": "0x7F80", "i32": "2147483647"},
}
_FLOAT_COMBINE = {"add": ("arith.addf",), "mul": ("arith.mulf",), "max": ("arith.maximumf", "arith.maxnumf"),
                  "min": ("arith.minimumf", "arith.minnumf")}
_INT_COMBINE = {"add": ("arith.addi",), "mul": ("arith.muli",), "max": ("arith.maxsi",), "min": ("arith.minsi",)}
# Machine epsilon of each accumulator type, for the summation-order tolerance.
_EPS = {"f32": 2.0 ** -23, "f16": 2.0 ** -10, "bf16": 2.0 ** -7}
# lds-run's default tolerances (ldsopt/run/replay.py), which a program's own only ever widen.
_DEFAULT_TOL = {"f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2), "bf16": (5e-2, 2e-2), "i32": (0.0, 0.0), "i8": (0.0, 0.0)}


def tensor(shape, et: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{et}>" if shape else f"tensor<{et}>"


def affine_map(rank: int, dims) -> str:
    ds = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({ds}) -> ({', '.join(f'd{i}' for i in dims)})>"


def is_float(et: str) -> bool:
    return et in FLOATS


class Body:
    """The ops of a linalg region, with fresh SSA names."""

    def __init__(self, indent: str = "    "):
        self.lines: list[str] = []
        self.n = 0
        self.indent = indent

    def op(self, text: str) -> str:
        self.n += 1
        name = f"%v{self.n}"
        self.lines.append(f"{self.indent}{name} = {text}")
        return name

    def const(self, value: str, et: str) -> str:
        return self.op(f"arith.constant {value} : {et}")

    def unary(self, name: str, v: str, et: str) -> str:
        """One elementwise op of the fuzzer's vocabulary applied to `v`."""
        if name == "none":
            return v
        if is_float(et):
            if name == "neg":
                return self.op(f"arith.negf {v} : {et}")
            if name == "abs":
                return self.op(f"math.absf {v} : {et}")
            if name == "sq":
                return self.op(f"arith.mulf {v}, {v} : {et}")
            if name == "exp":
                return self.op(f"math.exp {v} : {et}")
            if name == "tanh":
                return self.op(f"math.tanh {v} : {et}")
            if name == "addc":
                return self.op(f"arith.addf {v}, {self.const('0.5', et)} : {et}")
            if name == "relu":
                zero = self.const("0.0", et)
                c = self.op(f"arith.cmpf ogt, {v}, {zero} : {et}")
                return self.op(f"arith.select {c}, {v}, {zero} : {et}")
        else:
            if name == "neg":
                return self.op(f"arith.subi {self.const('0', et)}, {v} : {et}")
            if name == "abs":
                return self.op(f"math.absi {v} : {et}")
            if name == "sq":
                return self.op(f"arith.muli {v}, {v} : {et}")
            if name in ("exp", "tanh", "addc"):
                return self.op(f"arith.addi {v}, {self.const('3', et)} : {et}")
            if name == "relu":
                return self.op(f"arith.maxsi {v}, {self.const('0', et)} : {et}")
        raise ValueError(name)

    def binary(self, name: str, a: str, b: str, et: str) -> str:
        f = is_float(et)
        op = {"add": "arith.addf" if f else "arith.addi", "sub": "arith.subf" if f else "arith.subi",
              "mul": "arith.mulf" if f else "arith.muli", "max": "arith.maximumf" if f else "arith.maxsi"}[name]
        return self.op(f"{op} {a}, {b} : {et}")

    def convert(self, v: str, src: str, dst: str) -> str:
        if src == dst:
            return v
        if dst == "f32" and src in ("f16", "bf16"):
            return self.op(f"arith.extf {v} : {src} to {dst}")
        if src == "f32" and dst in ("f16", "bf16"):
            return self.op(f"arith.truncf {v} : {src} to {dst}")
        if src == "i8" and dst == "i32":
            return self.op(f"arith.extsi {v} : {src} to {dst}")
        if src == "i32" and dst == "f32":
            return self.op(f"arith.sitofp {v} : {src} to {dst}")
        raise ValueError((src, dst))


UNARY = ("none", "neg", "abs", "sq", "exp", "tanh", "addc", "relu")
# Ops that keep magnitudes near those of the unit-normal inputs (no overflow in a product
# or in an f16 sum).
TAME = ("none", "neg", "abs", "tanh", "addc", "relu")
BINARY = ("add", "sub", "mul", "max")


@st.composite
def shapes(draw, rank: int, max_elems: int, sizes=SIZES):
    out = []
    total = 1
    for _ in range(rank):
        d = draw(st.sampled_from([s for s in sizes if total * s <= max_elems] or [1]))
        out.append(d)
        total *= d
    return out


def permutation(rank: int):
    return st.permutations(list(range(rank)))


def _generic(result: str, ins: list[tuple[str, str, str]], out: tuple[str, str], rank: int, maps: list,
             iterators: list[str], body: Body, yielded: str, yielded_type: str, block_args: list[str]) -> str:
    """A linalg.generic: ins/out are (ssa, tensor type, element type), maps the dims of each."""
    map_text = ", ".join(affine_map(rank, m) for m in maps)
    it = ", ".join(f'"{i}"' for i in iterators)
    ins_text = f"ins({', '.join(i[0] for i in ins)} : {', '.join(i[1] for i in ins)}) " if ins else ""
    args = ", ".join(f"{a}: {et}" for a, et in zip(block_args, [i[2] for i in ins] + [out[2]]))
    return "\n".join([
        f"  {result} = linalg.generic {{indexing_maps = [{map_text}], iterator_types = [{it}]}}",
        f"      {ins_text}outs({out[0]} : {out[1]}) {{",
        f"  ^bb0({args}):",
        *body.lines,
        f"    linalg.yield {yielded} : {yielded_type}",
        f"  }} -> {out[1]}",
    ])


def _func(summary: str, params: list[tuple[str, str]], result_type: str, lines: list[str], result: str) -> str:
    ps = ", ".join(f"{n}: {t}" for n, t in params)
    return "\n".join([f"// {summary}", f"func.func @main({ps}) -> {result_type} {{", *lines,
                      f"  return {result} : {result_type}", "}", ""])


def _tolerance_args(out_et: str, atol: float) -> tuple[str, ...]:
    """--atol when the summation-order bound is wider than lds-run's default for the output type."""
    default_atol, default_rtol = _DEFAULT_TOL[out_et]
    if atol <= default_atol:
        return ()
    return ("--atol", f"{atol:.3g}", "--rtol", f"{default_rtol:g}")


def _epilogue(draw, lines: list[str], params: list, src: str, shape, et: str, out_et: str,
              allow: tuple[str, ...]) -> tuple[str, str]:
    """An elementwise op on `src` (tensor of `shape`, element `et`) giving element type
    `out_et`; returns (ssa, epilogue name). IREE fuses it into the producer's dispatch."""
    name = draw(st.sampled_from(allow))
    if name == "none" and et == out_et:
        return src, name
    rank = len(shape)
    ident = list(range(rank))
    ins = [(src, tensor(shape, et), et)]
    maps = [ident]
    body = Body()
    args = ["%r0"]
    v = "%r0"
    if name == "bias":
        # A second operand broadcast along the first kept dim (or a scalar-shaped one).
        bdims = ident[1:] if rank > 1 else ident
        params.append(("%bias", tensor([shape[d] for d in bdims], et)))
        ins.append(("%bias", tensor([shape[d] for d in bdims], et), et))
        maps.append(bdims)
        args.append("%r1")
        v = body.binary("add", v, "%r1", et)
    elif name != "none":
        v = body.unary(name, v, et)
    v = body.convert(v, et, out_et)
    lines.append(f"  %ep_e = tensor.empty() : {tensor(shape, out_et)}")
    lines.append(_generic("%ep", ins, ("%ep_e", tensor(shape, out_et), out_et), rank, maps + [ident],
                          ["parallel"] * rank, body, v, out_et, args + ["%o"]))
    return "%ep", name


@st.composite
def reductions(draw) -> Program:
    et = draw(st.sampled_from(FLOATS + ("i32",)))
    kind = draw(st.sampled_from(("add", "mul", "max", "min")))
    if et == "f16":
        acc = draw(st.sampled_from(("f32", "f16")))
    elif et == "bf16":
        acc = "f32" if kind in ("add", "mul") else draw(st.sampled_from(("f32", "bf16")))
    else:
        acc = et
    rank = draw(st.integers(0, 6))
    long = rank >= 1 and draw(st.integers(0, 5)) == 0
    if long:
        shape = draw(shapes(rank - 1, 64))
        long_dim = draw(st.integers(0, rank - 1))
        shape.insert(long_dim, draw(st.sampled_from(LONG_SIZES)))
        reduced = sorted({long_dim} | set(draw(st.sets(st.sampled_from(range(rank))))))
    else:
        shape = draw(shapes(rank, 1 << 17))
        reduced = sorted(draw(st.sets(st.sampled_from(range(rank))) if rank else st.just(set())))
    kept = [d for d in range(rank) if d not in reduced]
    if kept and draw(st.booleans()):
        kept = draw(st.permutations(kept))
    extent = math.prod(shape[d] for d in reduced)

    # Products of many unit-normal values under- or overflow, and an f16 sum of many
    # drifts from any other order's by more than any tolerance: those are kept short.
    # (A long f16-accumulated sum is the reference's problem, not the kernel's: lds-run
    # compares with an f16-accumulating llvm-cpu.)
    float_mul_or_f16_sum = is_float(et) and (kind == "mul" or (kind == "add" and acc == "f16"))
    if float_mul_or_f16_sum and extent > 24:
        shape = [min(s, 3) if d in reduced else s for d, s in enumerate(shape)]
        extent = math.prod(shape[d] for d in reduced)
        long = False
    pro_ops = TAME if float_mul_or_f16_sum or acc == "f16" else UNARY

    params = [("%x0", tensor(shape, et))]
    ins = [("%x0", tensor(shape, et), et)]
    maps = [list(range(rank))]
    n_inputs = draw(st.integers(1, 2))
    if n_inputs == 2:
        dims2 = list(range(rank)) if draw(st.booleans()) else sorted(draw(st.sets(st.sampled_from(range(rank))))) \
            if rank else []
        params.append(("%x1", tensor([shape[d] for d in dims2], et)))
        ins.append(("%x1", tensor([shape[d] for d in dims2], et), et))
        maps.append(dims2)
    body = Body()
    vals = [body.unary(draw(st.sampled_from(pro_ops)), f"%a{i}", et) for i in range(n_inputs)]
    v = vals[0]
    if n_inputs == 2:
        v = body.binary(draw(st.sampled_from(BINARY if not float_mul_or_f16_sum else ("add", "sub", "max"))),
                        v, vals[1], et)
    v = body.convert(v, et, acc)
    # IREE's llvm-cpu (the reference) cannot link the libm maxnum/minnum of f16 and bf16.
    combiners = _FLOAT_COMBINE[kind] if is_float(acc) else _INT_COMBINE[kind]
    combine = draw(st.sampled_from(combiners if acc in ("f32", "i32") else combiners[:1]))
    s = body.op(f"{combine} {v}, %out : {acc}")

    out_shape = [shape[d] for d in kept]
    out_t = tensor(out_shape, acc)
    lines = []
    loaded_init = draw(st.booleans())
    if loaded_init:
        params.append(("%init", out_t))
        init = "%init"
    else:
        lines += [f"  %cst = arith.constant {_IDENTITY[kind][acc]} : {acc}",
                  f"  %e = tensor.empty() : {out_t}",
                  f"  %f = linalg.fill ins(%cst : {acc}) outs(%e : {out_t}) -> {out_t}"]
        init = "%f"
    iterators = ["reduction" if d in reduced else "parallel" for d in range(rank)]
    lines.append(_generic("%r", ins, (init, out_t, acc), rank, maps + [kept], iterators, body, s, acc,
                          [f"%a{i}" for i in range(n_inputs)] + ["%out"]))
    out_et = acc
    if is_float(acc) and acc != et and draw(st.booleans()):
        out_et = et  # the usual f16 reduction: accumulate in f32, store f16
    result, epi = _epilogue(draw, lines, params, "%r", out_shape, acc, out_et,
                            ("none", "neg", "relu", "bias") if kind != "mul" or not is_float(acc) else ("none",))

    atol = 0.0
    if kind == "add" and is_float(acc):
        # Two correct summation orders differ by about eps * extent * |term| (terms are at
        # most a few units: squares and exponentials of unit normals, sums of two).
        atol = 8 * _EPS[acc] * extent * 4
        if out_et != acc:
            atol += _DEFAULT_TOL[out_et][0]
    summary = (f"reduction {kind} {tensor(shape, et)} -> {tensor(out_shape, out_et)} acc {acc} over dims {reduced}"
               f"{' (long)' if long else ''}, {n_inputs} input(s), {'loaded' if loaded_init else 'filled'} init, "
               f"epilogue {epi}")
    text = _func(summary, params, tensor(out_shape, out_et), lines, result)
    return Program("reduction", summary, text, _tolerance_args(out_et, atol))


@st.composite
def elementwise(draw) -> Program:
    et = draw(st.sampled_from(ELEMENTWISE_TYPES))
    style = draw(st.sampled_from(("generic", "transpose", "broadcast")))
    rank = draw(st.integers(2 if style == "transpose" else 1, 6))
    shape = draw(shapes(rank, 1 << 16))
    out_et = et
    if et in ("f16", "bf16") and draw(st.booleans()):
        out_et = "f32"
    params = []
    lines = []
    ident = list(range(rank))
    if style == "generic":
        n_inputs = draw(st.integers(1, 3))
        ins, maps = [], []
        for i in range(n_inputs):
            dims = ident if i == 0 else sorted(draw(st.sets(st.sampled_from(ident))))
            if draw(st.booleans()):
                dims = draw(st.permutations(dims))
            t = tensor([shape[d] for d in dims], et)
            params.append((f"%x{i}", t))
            ins.append((f"%x{i}", t, et))
            maps.append(list(dims))
        out_dims = draw(st.permutations(ident)) if draw(st.booleans()) else ident
        out_shape = [shape[d] for d in out_dims]
        body = Body()
        v = body.unary(draw(st.sampled_from(UNARY)), "%a0", et)
        for i in range(1, n_inputs):
            v = body.binary(draw(st.sampled_from(BINARY)), v, f"%a{i}", et)
        v = body.unary(draw(st.sampled_from(TAME)), v, et)
        v = body.convert(v, et, out_et)
        lines.append(f"  %e = tensor.empty() : {tensor(out_shape, out_et)}")
        lines.append(_generic("%r", ins, ("%e", tensor(out_shape, out_et), out_et), rank, maps + [list(out_dims)],
                              ["parallel"] * rank, body, v, out_et, [f"%a{i}" for i in range(n_inputs)] + ["%o"]))
        result = "%r"
        summary = (f"elementwise {', '.join(i[1] for i in ins)} through maps {maps} -> "
                   f"{tensor(out_shape, out_et)} (output dims {list(out_dims)})")
    elif style == "transpose":
        perm = draw(permutation(rank))
        if perm == ident:  # a transpose that moves nothing: rotate it instead
            perm = ident[1:] + ident[:1]
        in_shape = shape
        out_shape = [in_shape[p] for p in perm]
        params.append(("%x0", tensor(in_shape, et)))
        lines.append(f"  %e = tensor.empty() : {tensor(out_shape, et)}")
        lines.append(f"  %t = linalg.transpose ins(%x0 : {tensor(in_shape, et)}) outs(%e : {tensor(out_shape, et)}) "
                     f"permutation = [{', '.join(map(str, perm))}]")
        result, epi = _epilogue(draw, lines, params, "%t", out_shape, et, out_et, UNARY + ("bias",))
        summary = f"linalg.transpose {tensor(in_shape, et)} permutation {perm} -> {tensor(out_shape, out_et)}, " \
                  f"epilogue {epi}"
    else:
        added = sorted(draw(st.sets(st.sampled_from(ident), min_size=1)))
        in_shape = [shape[d] for d in ident if d not in added]
        params.append(("%x0", tensor(in_shape, et)))
        lines.append(f"  %e = tensor.empty() : {tensor(shape, et)}")
        lines.append(f"  %b = linalg.broadcast ins(%x0 : {tensor(in_shape, et)}) outs(%e : {tensor(shape, et)}) "
                     f"dimensions = [{', '.join(map(str, added))}]")
        result, epi = _epilogue(draw, lines, params, "%b", shape, et, out_et, UNARY + ("bias",))
        out_shape = shape
        summary = f"linalg.broadcast {tensor(in_shape, et)} dims {added} -> {tensor(shape, out_et)}, epilogue {epi}"
    text = _func(summary, params, tensor(out_shape, out_et), lines, result)
    return Program("elementwise", summary, text)


_MATMUL_DIMS = {"A": {"N": ("m", "k"), "T": ("k", "m")}, "B": {"N": ("k", "n"), "T": ("n", "k")}}


@st.composite
def matmuls(draw) -> Program:
    et = draw(st.sampled_from(FLOATS + ("i8",)))
    acc = "i32" if et == "i8" else "f32"  # i8 x i8 sign-extended into i32: exact
    form = draw(st.sampled_from(("NN", "NT", "TN", "TT", "named")))
    named = form == "named"
    order = "NN" if named else form
    batch = draw(st.sampled_from((1, 2, 3, 5))) if draw(st.booleans()) else 0
    budget = (1 << 21) // max(batch, 1)
    m = draw(st.sampled_from(MATMUL_SIZES))
    n = draw(st.sampled_from([s for s in MATMUL_SIZES if m * s <= budget]))
    k = draw(st.sampled_from([s for s in MATMUL_SIZES if m * n * s <= budget]))
    size = {"b": batch, "m": m, "n": n, "k": k}
    lead = ("b",) if batch else ()
    a_dims = lead + _MATMUL_DIMS["A"][order[0]]
    b_dims = lead + _MATMUL_DIMS["B"][order[1]]
    c_dims = lead + ("m", "n")
    a_t = tensor([size[d] for d in a_dims], et)
    b_t = tensor([size[d] for d in b_dims], et)
    c_shape = [size[d] for d in c_dims]
    c_t = tensor(c_shape, acc)
    params = [("%a", a_t), ("%b", b_t)]
    lines = []
    loaded_acc = draw(st.booleans())
    if loaded_acc:
        params.append(("%c", c_t))
        init = "%c"
    else:
        zero = "0.0" if acc == "f32" else "0"
        lines += [f"  %zero = arith.constant {zero} : {acc}", f"  %e = tensor.empty() : {c_t}",
                  f"  %f = linalg.fill ins(%zero : {acc}) outs(%e : {c_t}) -> {c_t}"]
        init = "%f"
    if named:
        op = "linalg.batch_matmul" if batch else "linalg.matmul"
        lines.append(f"  %r = {op} ins(%a, %b : {a_t}, {b_t}) outs({init} : {c_t}) -> {c_t}")
    else:
        loops = lead + ("m", "n", "k")
        index = {d: i for i, d in enumerate(loops)}
        body = Body()
        x = body.convert("%x", et, acc)
        y = body.convert("%y", et, acc)
        f = "f" if acc == "f32" else "i"
        p = body.op(f"arith.mul{f} {x}, {y} : {acc}")
        s = body.op(f"arith.add{f} %o, {p} : {acc}")
        lines.append(_generic("%r", [("%a", a_t, et), ("%b", b_t, et)], (init, c_t, acc), len(loops),
                              [[index[d] for d in dims] for dims in (a_dims, b_dims, c_dims)],
                              ["reduction" if d == "k" else "parallel" for d in loops], body, s, acc,
                              ["%x", "%y", "%o"]))
    # Half have no epilogue; an i32 product is dequantized to f32 or kept (an integer
    # consumer is left to IREE, whose lavapipe i8 matmul is wrong).
    out_et = "f32" if acc == "f32" else draw(st.sampled_from(("i32", "f32")))
    kinds = ("none", "relu", "none", "bias", "none", "neg") if acc == "f32" else ("none",)
    result, epi = _epilogue(draw, lines, params, "%r", c_shape, acc, out_et, kinds)
    what = ("linalg.batch_matmul" if batch else "linalg.matmul") if named else f"{order} generic"
    summary = (f"matmul {what} {et} b={batch} m={m} n={n} k={k}, {'loaded' if loaded_acc else 'filled'} acc, "
               f"epilogue {epi}" + (f" to {out_et}" if out_et != acc else ""))
    text = _func(summary, params, tensor(c_shape, out_et), lines, result)
    return Program("matmul", summary, text)


def programs():
    return st.one_of(reductions(), elementwise(), matmuls())
