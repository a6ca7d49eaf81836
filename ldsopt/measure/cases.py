"""The lds-bench cases: programs on tensors, the bytes each must move, and a PyTorch twin.

Each case is a `func.func @main` generated from a few numbers so that the shapes in the
name, the program and the byte count cannot drift apart: one `linalg.generic` (`Case`), or
the ops of a fused program as a model writes it (`FusedCase`: softmax, layer norm,
logsumexp; a matmul with the elementwise epilogue of a transformer layer), which IREE fuses
into as few dispatches as it can. Bytes moved are the floor of memory traffic: each input
read once, the output written once. The memory-bound cases are the project's baseline
workloads; those that no ldsopt pass takes run IREE's default pipeline in both variants.

This file imports only the standard library: `ldsopt.measure.bench` copies it into each prepared
folder, and the replay on the GPU machine (no compiler, maybe no torch) loads it from
there. The PyTorch twins import torch only when called.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

ELEMENT_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1, "i32": 4}

# Run by `lds-bench --target lavapipe` when no --cases are given: small enough for a CPU.
SMOKE = ("rowsum_4x4096_f32", "add_bcast_1024x1024_f32")


@dataclasses.dataclass(frozen=True)
class Operand:
    shape: tuple[int, ...]
    dtype: str
    dims: tuple[int, ...]  # the loop dims that index it, in order

    @property
    def type(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.dtype + ">"

    @property
    def bytes(self) -> int:
        return math.prod(self.shape) * ELEMENT_BYTES[self.dtype]


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    inputs: tuple[Operand, ...]
    output: Operand
    iterators: tuple[str, ...]  # "parallel" | "reduction", one a loop dim
    body: tuple[str, ...]       # ops on %in0.. and %acc ending in a value named %r
    init: str | None            # the reduction's initial value (an arith.constant literal)
    torch: Callable             # the PyTorch equivalent on torch tensors shaped like `inputs`
    what: str                   # one line for the table
    flops: int = 0              # arithmetic of a compute-bound case (matmuls: 2*M*N*K); 0 otherwise

    @property
    def bytes(self) -> int:
        """Each input read once, the output written once."""
        return sum(o.bytes for o in self.inputs) + self.output.bytes

    @property
    def mlir(self) -> str:
        rank = len(self.iterators)
        loops = ", ".join(f"d{i}" for i in range(rank))
        maps = ", ".join(f"affine_map<({loops}) -> ({', '.join(f'd{d}' for d in o.dims)})>"
                         for o in (*self.inputs, self.output))
        iters = ", ".join(f'"{it}"' for it in self.iterators)
        args = ", ".join(f"%a{i}: {o.type}" for i, o in enumerate(self.inputs))
        ins = ", ".join(f"%a{i}" for i in range(len(self.inputs)))
        in_types = ", ".join(o.type for o in self.inputs)
        out, et = self.output.type, self.output.dtype
        lines = [f"func.func @main({args}) -> {out} {{", f"  %empty = tensor.empty() : {out}"]
        dest = "%empty"
        if self.init is not None:
            lines += [f"  %init = arith.constant {self.init} : {et}",
                      f"  %filled = linalg.fill ins(%init : {et}) outs(%empty : {out}) -> {out}"]
            dest = "%filled"
        block = ", ".join([f"%in{i}: {o.dtype}" for i, o in enumerate(self.inputs)] + [f"%acc: {et}"])
        lines += [f"  %res = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}}",
                  f"      ins({ins} : {in_types}) outs({dest} : {out}) {{",
                  f"  ^bb0({block}):",
                  *(f"    {op}" for op in self.body),
                  f"    linalg.yield %r : {et}",
                  f"  }} -> {out}",
                  f"  return %res : {out}", "}"]
        return "\n".join(lines) + "\n"


def _add(name: str, a: Operand, b: Operand, out_shape: tuple[int, ...], torch: Callable, what: str) -> Case:
    dt = a.dtype
    return Case(name, (a, b), Operand(out_shape, dt, tuple(range(len(out_shape)))), ("parallel",) * len(out_shape),
                (f"%r = arith.addf %in0, %in1 : {dt}",), None, torch, what)


def _reduce(name: str, shape: tuple[int, ...], dtype: str, reduced: tuple[int, ...], kind: str,
            torch: Callable, what: str) -> Case:
    """A reduction over `reduced` dims in f32 (an f16 input is extended first)."""
    kept = tuple(d for d in range(len(shape)) if d not in reduced)
    body = (f"%x = arith.extf %in0 : {dtype} to f32",) if dtype != "f32" else ()
    x = "%x" if body else "%in0"
    body += ((f"%r = arith.addf {x}, %acc : f32",) if kind == "sum" else (f"%r = arith.maximumf {x}, %acc : f32",))
    init = "0.0" if kind == "sum" else "0xFF800000"  # -inf
    return Case(name, (Operand(shape, dtype, tuple(range(len(shape)))),),
                Operand(tuple(shape[d] for d in kept), "f32", kept),
                tuple("reduction" if d in reduced else "parallel" for d in range(len(shape))),
                body, init, torch, what)


def _sum_f32(dim: int | None) -> Callable:
    def run(a):
        import torch
        return a.sum(dtype=torch.float32) if dim is None else a.sum(dim, dtype=torch.float32)
    return run


def _nhwc_nchw_add(n: int, h: int, w: int, c: int, dtype: str) -> Case:
    """out (NCHW) = a (NHWC) + b (NCHW): one input is read transposed."""
    return _add(f"nhwc_nchw_add_{n}x{h}x{w}x{c}_{dtype}", Operand((n, h, w, c), dtype, (0, 2, 3, 1)),
                Operand((n, c, h, w), dtype, (0, 1, 2, 3)), (n, c, h, w),
                lambda a, b: b + a.permute(0, 3, 1, 2), f"NHWC + NCHW -> NCHW, {dtype}")


def _matmul(m: int, n: int, k: int, dtype: str, a_stored: str, b_stored: str) -> Case:
    """out[m,n] (f32, i32 for i8) = sum_k a[m,k] * b[k,n], A stored as "mk" or "km", B as "kn" or
    "nk" (NN is mk/kn; TN stores A as KxM; NT B as NxK); f16/bf16 extended to f32, i8 to i32."""
    dims, ext = {"m": 0, "n": 1, "k": 2}, {"m": m, "n": n, "k": k}
    a = Operand(tuple(ext[c] for c in a_stored), dtype, tuple(dims[c] for c in a_stored))
    b = Operand(tuple(ext[c] for c in b_stored), dtype, tuple(dims[c] for c in b_stored))
    acc, i, extend = ("i32", "i", "arith.extsi") if dtype == "i8" else ("f32", "f", "arith.extf")
    body = () if dtype == acc else (f"%x = {extend} %in0 : {dtype} to {acc}", f"%y = {extend} %in1 : {dtype} to {acc}")
    x, y = ("%in0", "%in1") if dtype == acc else ("%x", "%y")
    body += (f"%p = arith.mul{i} {x}, {y} : {acc}", f"%r = arith.add{i} %acc, %p : {acc}")
    layout = ("N" if a_stored == "mk" else "T") + ("N" if b_stored == "kn" else "T")

    def torch_twin(ta, tb):  # cuBLAS; a 16-bit product comes out 16-bit (f32 accumulation inside)
        return (ta if a_stored == "mk" else ta.t()) @ (tb if b_stored == "kn" else tb.t())

    return Case(f"matmul_{layout}_{m}x{n}x{k}_{dtype}", (a, b), Operand((m, n), acc, (0, 1)),
                ("parallel", "parallel", "reduction"), body, "0" if acc == "i32" else "0.0", torch_twin,
                f"matmul {layout} ({a_stored}, {b_stored}) {dtype} -> {acc}", flops=2 * m * n * k)


@dataclasses.dataclass(frozen=True)
class FusedCase:
    """A fused program as a model forms it, which IREE fuses into one dispatch: a row-wise one
    (softmax, layernorm, logsumexp: several generics over the same rows, the last dim
    reduced; the `_row_*` templates) or a matmul with its epilogue (`_matmul_epilogue`). Same
    interface as Case; `iterators` are the loops of the operands' `dims`."""
    name: str
    inputs: tuple[Operand, ...]
    output: Operand
    iterators: tuple[str, ...]
    mlir: str
    torch: Callable
    what: str
    flops: int = 0

    @property
    def bytes(self) -> int:
        """Each input read once, the output written once (the reductions' second reads of a
        row are the kernel's cost, not the floor)."""
        return sum(o.bytes for o in self.inputs) + self.output.bytes


def _row_maps(rank: int, dim: int = -1) -> tuple[str, str, str]:
    """(full, row, reduced-dim) affine maps of a rank-`rank` space reducing `dim` (default: last)."""
    dim %= rank
    loops = ", ".join(f"d{i}" for i in range(rank))
    return (f"affine_map<({loops}) -> ({loops})>",
            f"affine_map<({loops}) -> ({', '.join(f'd{i}' for i in range(rank) if i != dim)})>",
            f"affine_map<({loops}) -> (d{dim})>")


def _row_case(name, shape, inputs, output, body: list[str], torch: Callable, what: str, dim: int = -1) -> FusedCase:
    ins = tuple(Operand(s, dt, d) for s, dt, d in inputs)
    iterators = tuple("reduction" if i == dim % len(shape) else "parallel" for i in range(len(shape)))
    return FusedCase(name, ins, Operand(*output), iterators, "\n".join(body) + "\n", torch, what)


def _max_and_sum_exp(shape: tuple[int, ...], dtype: str, dim: int = -1) -> list[str]:
    """The lines of %max (over dim `dim`, the last by default) and %sum (of exp(x - max)) of %x,
    in f32 (an f16 input extended): the start of a softmax and of a logsumexp."""
    full, row, _ = _row_maps(len(shape), dim)
    red = ", ".join('"reduction"' if i == dim % len(shape) else '"parallel"' for i in range(len(shape)))
    t = "tensor<" + "x".join(map(str, shape)) + f"x{dtype}>"
    r = "tensor<" + "x".join(str(n) for i, n in enumerate(shape) if i != dim % len(shape)) + "xf32>"
    ext = [f"      %f = arith.extf %in : {dtype} to f32"] if dtype != "f32" else []
    f = "%f" if ext else "%in"
    return [
        "  %ninf = arith.constant 0xFF800000 : f32",
        "  %zero = arith.constant 0.0 : f32",
        f"  %er = tensor.empty() : {r}",
        f"  %mi = linalg.fill ins(%ninf : f32) outs(%er : {r}) -> {r}",
        f"  %max = linalg.generic {{indexing_maps = [{full}, {row}], iterator_types = [{red}]}}",
        f"      ins(%x : {t}) outs(%mi : {r}) {{",
        f"    ^bb0(%in: {dtype}, %acc: f32):", *ext,
        f"      %m = arith.maximumf {f}, %acc : f32",
        "      linalg.yield %m : f32",
        f"  }} -> {r}",
        f"  %si = linalg.fill ins(%zero : f32) outs(%er : {r}) -> {r}",
        f"  %sum = linalg.generic {{indexing_maps = [{full}, {row}, {row}], iterator_types = [{red}]}}",
        f"      ins(%x, %max : {t}, {r}) outs(%si : {r}) {{",
        f"    ^bb0(%in: {dtype}, %mx: f32, %acc: f32):", *ext,
        f"      %d = arith.subf {f}, %mx : f32",
        "      %e = math.exp %d : f32",
        "      %s = arith.addf %e, %acc : f32",
        "      linalg.yield %s : f32",
        f"  }} -> {r}"]


def _softmax(shape: tuple[int, ...], dtype: str, dim: int = -1) -> FusedCase:
    """softmax over dim `dim` (the last by default; another: rows strided in memory, as over a
    segmentation head's channels): max, sum of exp(x - max), exp(x - max) / sum, in f32 (an f16
    input is extended, the result truncated back), as IREE decomposes linalg.softmax."""
    rank = len(shape)
    full, row, _ = _row_maps(rank, dim)
    par = ", ".join(['"parallel"'] * rank)
    t = "tensor<" + "x".join(map(str, shape)) + f"x{dtype}>"
    r = "tensor<" + "x".join(str(n) for i, n in enumerate(shape) if i != dim % rank) + "xf32>"
    ext = [f"      %f = arith.extf %in : {dtype} to f32"] if dtype != "f32" else []
    f = "%f" if ext else "%in"
    trunc = [f"      %o = arith.truncf %q : f32 to {dtype}"] if dtype != "f32" else []
    o = "%o" if trunc else "%q"
    body = [
        f"func.func @main(%x: {t}) -> {t} {{",
        *_max_and_sum_exp(shape, dtype, dim),
        f"  %eo = tensor.empty() : {t}",
        f"  %y = linalg.generic {{indexing_maps = [{full}, {row}, {row}, {full}], iterator_types = [{par}]}}",
        f"      ins(%x, %max, %sum : {t}, {r}, {r}) outs(%eo : {t}) {{",
        f"    ^bb0(%in: {dtype}, %mx: f32, %sm: f32, %out: {dtype}):", *ext,
        f"      %d = arith.subf {f}, %mx : f32",
        "      %e = math.exp %d : f32",
        "      %q = arith.divf %e, %sm : f32", *trunc,
        f"      linalg.yield {o} : {dtype}",
        f"  }} -> {t}",
        f"  return %y : {t}",
        "}"]
    dims = tuple(range(rank))
    over = "" if dim % rank == rank - 1 else f"_dim{dim % rank}"
    return _row_case(f"softmax_{'x'.join(map(str, shape))}{over}_{dtype}", shape, [(shape, dtype, dims)],
                     (shape, dtype, dims), body, lambda a: a.softmax(dim),
                     f"softmax over {'rows' if not over else 'strided rows'}, f32 inside, {dtype} in and out", dim)


def _layernorm(rows: int, n: int, dtype: str) -> FusedCase:
    """layer norm over the last dim (x - mean) * rsqrt(var + 1e-5) * gamma + beta, the mean and
    variance in f32, as an exporter writes it: a sum, the mean, the centered sum of squares,
    the normalization."""
    full, row, last = _row_maps(2)
    t, r, v = f"tensor<{rows}x{n}x{dtype}>", f"tensor<{rows}xf32>", f"tensor<{n}x{dtype}>"
    red, par = '"parallel", "reduction"', '"parallel", "parallel"'
    body = [
        f"func.func @main(%x: {t}, %gamma: {v}, %beta: {v}) -> {t} {{",
        "  %zero = arith.constant 0.0 : f32",
        f"  %n = arith.constant {float(n)} : f32",
        "  %eps = arith.constant 1.0e-05 : f32",
        f"  %er = tensor.empty() : {r}",
        f"  %zi = linalg.fill ins(%zero : f32) outs(%er : {r}) -> {r}",
        f"  %sum = linalg.generic {{indexing_maps = [{full}, {row}], iterator_types = [{red}]}}",
        f"      ins(%x : {t}) outs(%zi : {r}) {{",
        f"    ^bb0(%in: {dtype}, %acc: f32):",
        f"      %f = arith.extf %in : {dtype} to f32",
        "      %s = arith.addf %f, %acc : f32",
        "      linalg.yield %s : f32",
        f"  }} -> {r}",
        "  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], "
        "iterator_types = [\"parallel\"]}",
        f"      ins(%sum : {r}) outs(%er : {r}) {{",
        "    ^bb0(%s: f32, %o: f32):",
        "      %m = arith.divf %s, %n : f32",
        "      linalg.yield %m : f32",
        f"  }} -> {r}",
        f"  %var = linalg.generic {{indexing_maps = [{full}, {row}, {row}], iterator_types = [{red}]}}",
        f"      ins(%x, %mean : {t}, {r}) outs(%zi : {r}) {{",
        f"    ^bb0(%in: {dtype}, %m: f32, %acc: f32):",
        f"      %f = arith.extf %in : {dtype} to f32",
        "      %d = arith.subf %f, %m : f32",
        "      %q = arith.mulf %d, %d : f32",
        "      %s = arith.addf %q, %acc : f32",
        "      linalg.yield %s : f32",
        f"  }} -> {r}",
        f"  %eo = tensor.empty() : {t}",
        f"  %y = linalg.generic {{indexing_maps = [{full}, {row}, {row}, {last}, {last}, {full}], "
        f"iterator_types = [{par}]}}",
        f"      ins(%x, %mean, %var, %gamma, %beta : {t}, {r}, {r}, {v}, {v}) outs(%eo : {t}) {{",
        f"    ^bb0(%in: {dtype}, %m: f32, %vs: f32, %g: {dtype}, %b: {dtype}, %out: {dtype}):",
        f"      %f = arith.extf %in : {dtype} to f32",
        "      %d = arith.subf %f, %m : f32",
        "      %va = arith.divf %vs, %n : f32",
        "      %ve = arith.addf %va, %eps : f32",
        "      %rs = math.rsqrt %ve : f32",
        "      %nd = arith.mulf %d, %rs : f32",
        f"      %gf = arith.extf %g : {dtype} to f32",
        f"      %bf = arith.extf %b : {dtype} to f32",
        "      %sc = arith.mulf %nd, %gf : f32",
        "      %o = arith.addf %sc, %bf : f32",
        f"      %ot = arith.truncf %o : f32 to {dtype}",
        f"      linalg.yield %ot : {dtype}",
        f"  }} -> {t}",
        f"  return %y : {t}",
        "}"]

    def torch_twin(a, gamma, beta):
        import torch
        return torch.nn.functional.layer_norm(a, (n,), gamma, beta, 1e-5)

    return _row_case(f"layernorm_{rows}x{n}_{dtype}", (rows, n),
                     [((rows, n), dtype, (0, 1)), ((n,), dtype, (1,)), ((n,), dtype, (1,))],
                     ((rows, n), dtype, (0, 1)), body, torch_twin,
                     f"layer norm over rows, f32 statistics, {dtype} in and out")


def _logsumexp(rows: int, n: int) -> FusedCase:
    """log(sum(exp(x - max))) + max over the last dim, f32."""
    t, r = f"tensor<{rows}x{n}xf32>", f"tensor<{rows}xf32>"
    body = [
        f"func.func @main(%x: {t}) -> {r} {{",
        *_max_and_sum_exp((rows, n), "f32"),
        "  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, "
        "affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]}",
        f"      ins(%sum, %max : {r}, {r}) outs(%er : {r}) {{",
        "    ^bb0(%s: f32, %mx: f32, %o: f32):",
        "      %l = math.log %s : f32",
        "      %v = arith.addf %l, %mx : f32",
        "      linalg.yield %v : f32",
        f"  }} -> {r}",
        f"  return %y : {r}",
        "}"]
    return _row_case(f"logsumexp_{rows}x{n}_f32", (rows, n), [((rows, n), "f32", (0, 1))],
                     ((rows,), "f32", (0,)), body, lambda a: a.logsumexp(-1), "logsumexp over rows")


# The elementwise epilogues of a transformer layer's matmuls, on the f32 accumulator %x (at
# loops (b?, m, n)): each extra input's dims (of "m", "n"), its body lines, and the PyTorch
# twin applied to the f16 product `y` (cuBLAS: f32 accumulation, f16 out) and those inputs.
# The result is truncated to f16 after the body: "cast" is that alone.
EPILOGUES: dict[str, tuple[tuple[str, ...], tuple[str, ...], Callable]] = {
    "cast": ((), (), lambda y: y),
    "bias": (("n",), ("%c = arith.extf %in2 : f16 to f32", "%v = arith.addf %x, %c : f32"), lambda y, c: y + c),
    "bias_gelu": (("n",), ("%c = arith.extf %in2 : f16 to f32", "%y = arith.addf %x, %c : f32",
                           "%s = arith.mulf %y, %rsqrt2 : f32", "%e = math.erf %s : f32",
                           "%p = arith.addf %e, %one : f32", "%h = arith.mulf %y, %half : f32",
                           "%v = arith.mulf %h, %p : f32"),
                  lambda y, c: _gelu(y + c)),
    "bias_residual": (("n",), ("%c = arith.extf %in2 : f16 to f32", "%y = arith.addf %x, %c : f32",
                               "%r0 = arith.extf %in3 : f16 to f32", "%v = arith.addf %y, %r0 : f32"),
                      lambda y, c, r: y + c + r),
    "scale": ((), ("%v = arith.mulf %x, %eighth : f32",), lambda y: y * 0.125),
}
# Extra inputs of the epilogues above (the residual is over (m, n)).
_EPILOGUE_INPUTS = {"bias_residual": ("n", "mn")}


def _gelu(y):
    import torch
    return torch.nn.functional.gelu(y)


def _matmul_epilogue(batch: int, m: int, n: int, k: int, b_stored: str, epilogue: str) -> FusedCase:
    """out[b?,m,n] (f16) = epilogue(sum_k a[b?,m,k] * b[b?,k,n] in f32), f16 operands, A
    stored MxK and B as "kn" (NN) or "nk" (NT), as IREE fuses a transformer layer's matmul
    with what follows it (the bias add, GELU by erf, the residual add, the attention scale)
    and the cast back to f16; `batch` 0 for a plain matmul. The epilogue "cast" is the same
    matmul without an epilogue (the cast alone), so that the epilogue's cost reads off."""
    lead = (batch,) if batch else ()
    bd = (0,) if batch else ()
    o = len(bd)
    dims = {"m": o, "n": o + 1, "k": o + 2}
    ext = {"m": m, "n": n, "k": k}
    extra_dims, lines, twin = EPILOGUES[epilogue]
    extras = _EPILOGUE_INPUTS.get(epilogue, extra_dims)
    a = Operand(lead + (m, k), "f16", bd + (dims["m"], dims["k"]))
    b = Operand(lead + tuple(ext[c] for c in b_stored), "f16", bd + tuple(dims[c] for c in b_stored))
    extra_ops = tuple(Operand(tuple(ext[c] for c in e), "f16", tuple(dims[c] for c in e)) for e in extras)
    out = Operand(lead + (m, n), "f16", bd + (dims["m"], dims["n"]))
    acc = "tensor<" + "".join(f"{d}x" for d in out.shape) + "f32>"

    def amap(rank: int, ds) -> str:
        loops = ", ".join(f"d{i}" for i in range(rank))
        return f"affine_map<({loops}) -> ({', '.join(f'd{d}' for d in ds)})>"

    mm_iters = ", ".join(['"parallel"'] * (o + 2) + ['"reduction"'])
    ew_iters = ", ".join(['"parallel"'] * (o + 2))
    ew_maps = ", ".join(amap(o + 2, x.dims) for x in (out, *extra_ops, out))
    args = ", ".join(f"%a{i}: {x.type}" for i, x in enumerate((a, b, *extra_ops)))
    extra_args = "".join(f", %a{i + 2}" for i in range(len(extra_ops)))
    extra_types = "".join(f", {x.type}" for x in extra_ops)
    block = ", ".join(["%x: f32"] + [f"%in{i + 2}: f16" for i in range(len(extra_ops))] + ["%o: f16"])
    v = "%v" if lines else "%x"
    body = [
        f"func.func @main({args}) -> {out.type} {{",
        "  %zero = arith.constant 0.0 : f32",
        f"  %e32 = tensor.empty() : {acc}",
        f"  %z = linalg.fill ins(%zero : f32) outs(%e32 : {acc}) -> {acc}",
        f"  %mm = linalg.generic {{indexing_maps = [{amap(o + 3, a.dims)}, {amap(o + 3, b.dims)}, "
        f"{amap(o + 3, out.dims)}], iterator_types = [{mm_iters}]}}",
        f"      ins(%a0, %a1 : {a.type}, {b.type}) outs(%z : {acc}) {{",
        "    ^bb0(%p: f16, %q: f16, %acc: f32):",
        "      %pf = arith.extf %p : f16 to f32",
        "      %qf = arith.extf %q : f16 to f32",
        "      %pq = arith.mulf %pf, %qf : f32",
        "      %s = arith.addf %acc, %pq : f32",
        "      linalg.yield %s : f32",
        f"  }} -> {acc}",
        f"  %e16 = tensor.empty() : {out.type}",
        f"  %y = linalg.generic {{indexing_maps = [{ew_maps}], iterator_types = [{ew_iters}]}}",
        f"      ins(%mm{extra_args} : {acc}{extra_types}) outs(%e16 : {out.type}) {{",
        f"    ^bb0({block}):",
        "      %half = arith.constant 0.5 : f32",
        "      %one = arith.constant 1.0 : f32",
        "      %eighth = arith.constant 0.125 : f32",
        "      %rsqrt2 = arith.constant 0.70710678118654752 : f32",
        *(f"      {line}" for line in lines),
        f"      %t = arith.truncf {v} : f32 to f16",
        "      linalg.yield %t : f16",
        f"  }} -> {out.type}",
        f"  return %y : {out.type}",
        "}"]
    layout = "NN" if b_stored == "kn" else "NT"

    def product(ta, tb):
        return ta @ (tb if b_stored == "kn" else tb.transpose(-1, -2))

    # One parameter per input (lds-bench passes them positionally and checks the count).
    torch_twin = (lambda ta, tb: twin(product(ta, tb)), lambda ta, tb, c: twin(product(ta, tb), c),
                  lambda ta, tb, c, r: twin(product(ta, tb), c, r))[len(extra_ops)]

    shape = "x".join(map(str, lead + (m, n, k)))
    return FusedCase(f"{'batch_' if batch else ''}matmul_{layout}_{shape}_f16_{epilogue}", (a, b, *extra_ops), out,
                     ("parallel",) * (o + 2) + ("reduction",), "\n".join(body) + "\n", torch_twin,
                     f"{'batch ' if batch else ''}matmul {layout} f16 -> f32 accumulator, "
                     f"{epilogue.replace('_', ' + ')}, f16 out", flops=2 * max(batch, 1) * m * n * k)


# The BERT-base encoder layer's matmul dispatches (hidden 768, 12 heads of 64, FFN 3072,
# sequence 512): the projections (NN, weights stored KxN) with their epilogues (Q, K and V as
# the one 2304-wide product ldsopt-fuse-projections makes of them), and
# attention's Q x K^T (NT, scaled) and P x V (NN); each also with the cast alone, and the
# FFN's GELU also with its bias alone (what the bias costs, what GELU adds). The projections
# also NT, weights stored N x K as nn.Linear holds them (B K-contiguous: any wgmma tile width).
BERT_MATMULS = tuple(
    _matmul_epilogue(batch, m, n, k, b_stored, epi)
    for batch, m, n, k, b_stored, epis in ((0, 512, 2304, 768, "kn", ("bias",)), (0, 512, 768, 768, "kn", ("bias",)),
                                           (0, 512, 3072, 768, "kn", ("bias_gelu", "bias")), (0, 512, 768, 3072, "kn", ("bias_residual",)),
                                           (12, 512, 512, 64, "nk", ("scale",)), (12, 512, 64, 512, "kn", ()),
                                           (0, 512, 2304, 768, "nk", ("bias",)), (0, 512, 768, 768, "nk", ("bias",)),
                                           (0, 512, 3072, 768, "nk", ("bias_gelu",)), (0, 512, 768, 3072, "nk", ("bias_residual",)))
    for epi in (*epis, "cast"))

# Few output tiles and a long K (what ldsopt-split-matmul splits over chunks of K), M = 16 tokens through BERT's
# FFN down, large products storing what cuBLAS stores (f16), and grids of several waves (Llama's gate and up; BERT
# at 2048 and 4096 tokens), whose tiling the cost model's `share` decides (bench/results/cuda-matmul/cost-model-fit/).
MORE_MATMULS = tuple(_matmul_epilogue(0, m, n, k, "kn", epi) for m, n, k, epi in (
    (64, 64, 8192, "cast"), (128, 128, 16384, "cast"), (16, 768, 3072, "bias"), (4096, 4096, 4096, "cast"),
    (8192, 8192, 1024, "cast"), (512, 6144, 768, "cast"), (2048, 2304, 768, "cast"), (4096, 768, 768, "cast")))


def _sdpa(causal: bool):
    """PyTorch's SDPA on the case's tensors. Its fused kernels (flash, memory-efficient) take
    4-D [batch, heads, seq, dim] only: a 3-D case ([b h, s, d]) is viewed as one batch of b h
    heads, the same data, so that SDPA does not fall back to its unfused math path."""
    def twin(q, k, v):
        import torch
        if q.dim() == 3:
            return torch.nn.functional.scaled_dot_product_attention(
                q[None], k[None], v[None], is_causal=causal)[0]
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return twin


def _attention(b: int, h: int, s: int, d: int, causal: bool = False, kv: int | None = None,
               dtype: str = "f16") -> FusedCase:
    """`iree_linalg_ext.attention` of Q [b, h, s, d] against kv keys (s by default), scale
    1/sqrt(d) (PyTorch's default), as PyTorch's scaled_dot_product_attention reaches IREE;
    causal by a score region that masks keys past the query's row, which ldsopt-attention
    reads as causal (it skips the key tiles above the diagonal). IREE 3.13's own pipeline
    fails to compile such a region ('linalg.index' op expected dim ... lower than the number
    of loops), and its dispatch formation, merging batch and heads, does not renumber the
    region's `iree_linalg_ext.index` ops: a causal case is written with batch and heads merged
    ([b h, s, d], which PyTorch's SDPA takes as well). FLOPs: 4 b h s kv d, half where causal."""
    kv = kv or s
    et = dtype
    batch = (b * h,) if causal else (b, h)
    nb = len(batch)
    lead = ", ".join(f"g{i}" for i in range(nb))
    q, k, v = (Operand((*batch, s, d), et, (*range(nb), nb, nb + 2)), Operand((*batch, kv, d), et, (*range(nb), nb + 3, nb + 2)),
               Operand((*batch, kv, d), et, (*range(nb), nb + 3, nb + 1)))
    out = Operand((*batch, s, d), et, (*range(nb), nb, nb + 1))
    loops = f"({lead}, m, n, k1, k2)"
    maps = [f"affine_map<{loops} -> ({lead}, m, k1)>", f"affine_map<{loops} -> ({lead}, k2, k1)>",
            f"affine_map<{loops} -> ({lead}, k2, n)>", f"affine_map<{loops} -> ()>",
            f"affine_map<{loops} -> ({lead}, m, n)>"]
    region = [f"      %i = iree_linalg_ext.index {nb} : index", f"      %j = iree_linalg_ext.index {nb + 3} : index",
              "      %c = arith.cmpi ugt, %j, %i : index", "      %ninf = arith.constant 0xFF800000 : f32",
              "      %r = arith.select %c, %ninf, %s : f32", "      iree_linalg_ext.yield %r : f32"] if causal \
        else ["      iree_linalg_ext.yield %s : f32"]
    body = [f"func.func @main(%q: {q.type}, %k: {k.type}, %v: {v.type}) -> {out.type} {{",
            f"  %scale = arith.constant {1 / math.sqrt(d)!r} : {et}",
            f"  %e = tensor.empty() : {out.type}",
            "  %o = iree_linalg_ext.attention <{indexing_maps = [" + ", ".join(maps) + "]}>",
            f"      ins(%q, %k, %v, %scale : {q.type}, {k.type}, {v.type}, {et}) outs(%e : {out.type}) {{",
            "    ^bb0(%s: f32):", *region, f"  }} -> {out.type}", f"  return %o : {out.type}", "}"]
    name = f"attention_{'causal_' if causal else ''}{b}x{h}x{s}{'' if kv == s else f'x{kv}'}x{d}_{et}"
    flops = 4 * b * h * s * kv * d // (2 if causal else 1)
    return FusedCase(name, (q, k, v), out, ("parallel",) * (nb + 2) + ("reduction",) * 2, "\n".join(body) + "\n",
                     _sdpa(causal), f"attention{' causal' if causal else ''}, {kv} keys, torch SDPA", flops)


# Flash attention (ldsopt-attention): BERT-base's 12 heads of 64 at 512, a larger batch, a
# long sequence of 128-wide heads, each also causal; decode (one query row against 4096 keys).
ATTENTION = (*(_attention(b, h, s, d, causal) for b, h, s, d in ((1, 12, 512, 64), (4, 16, 1024, 64), (1, 32, 2048, 128))
               for causal in (False, True)),
             _attention(1, 32, 1, 128, kv=4096))

def _conv(n: int, h: int, w: int, c: int, f: int, kernel: int, stride: int) -> FusedCase:
    """A 2-D convolution of f16 NHWC images [n, h, w, c] by FHWC filters [f, kernel, kernel,
    c] (`linalg.conv_2d_nhwc_fhwc`, PyTorch's channels-last weight layout), zero padding of
    kernel // 2 on each side by `tensor.pad` in the program, `stride`; f32 accumulation, the
    result cast to f16 NHWC [n, h', w', f]. The twin: PyTorch's conv2d (cuDNN) on the same
    tensors viewed NCHW in channels-last memory, as a channels-last model runs it."""
    pad = kernel // 2
    oh, ow = (h + 2 * pad - kernel) // stride + 1, (w + 2 * pad - kernel) // stride + 1
    x = Operand((n, h, w, c), "f16", (0, 1, 2, 3))
    wt = Operand((f, kernel, kernel, c), "f16", (0, 1, 2, 3))
    out = Operand((n, oh, ow, f), "f16", (0, 1, 2, 3))
    padded = f"tensor<{n}x{h + 2 * pad}x{w + 2 * pad}x{c}xf16>"
    acc = f"tensor<{n}x{oh}x{ow}x{f}xf32>"
    body = [f"func.func @main(%x: {x.type}, %w: {wt.type}) -> {out.type} {{", "  %zero = arith.constant 0.0 : f32"]
    src = "%xp" if pad else "%x"
    if pad:
        body += ["  %zero16 = arith.constant 0.0 : f16", f"  %xp = tensor.pad %x low[0, {pad}, {pad}, 0] high[0, {pad}, "
                 f"{pad}, 0] {{", "    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):",
                 "      tensor.yield %zero16 : f16", f"  }} : {x.type} to {padded}"]
    body += [f"  %e32 = tensor.empty() : {acc}",
             f"  %z = linalg.fill ins(%zero : f32) outs(%e32 : {acc}) -> {acc}",
             f"  %y = linalg.conv_2d_nhwc_fhwc {{dilations = dense<1> : tensor<2xi64>, "
             f"strides = dense<{stride}> : tensor<2xi64>}}",
             f"      ins({src}, %w : {padded if pad else x.type}, {wt.type}) outs(%z : {acc}) -> {acc}",
             f"  %e16 = tensor.empty() : {out.type}",
             f"  %t = linalg.generic {{indexing_maps = [{', '.join(['affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>'] * 2)}],"
             ' iterator_types = ["parallel", "parallel", "parallel", "parallel"]}',
             f"      ins(%y : {acc}) outs(%e16 : {out.type}) {{", "    ^bb0(%v: f32, %o: f16):",
             "      %r = arith.truncf %v : f32 to f16", "      linalg.yield %r : f16",
             f"  }} -> {out.type}", f"  return %t : {out.type}", "}"]

    def twin(tx, tw):
        import torch
        y = torch.nn.functional.conv2d(tx.permute(0, 3, 1, 2), tw.permute(0, 3, 1, 2), stride=stride, padding=pad)
        return y.permute(0, 2, 3, 1)

    return FusedCase(f"conv_nhwc_{n}x{h}x{w}x{c}_{f}x{kernel}x{kernel}_s{stride}_f16", (x, wt), out,
                     ("parallel",) * 4 + ("reduction",) * 3, "\n".join(body) + "\n", twin,
                     f"conv {kernel}x{kernel} stride {stride} pad {pad}, NHWC x FHWC f16 -> f32 accumulator, "
                     "f16 out", flops=2 * n * oh * ow * f * kernel * kernel * c)


# ResNet-50's convolutions at batch 8, NHWC f16: the stem (7x7 stride 2 at 224), and per stage
# (56, 28, 14, 7; 64 to 512 channels inside the bottleneck) its 3x3, the 1x1 that widens the
# bottleneck 4x and the 1x1 that narrows it again; the stride-2 3x3 that enters stage 2.
RESNET50_CONVS = (
    _conv(8, 224, 224, 3, 64, 7, 2),
    *(conv for hw, mid in ((56, 64), (28, 128), (14, 256), (7, 512))
      for conv in (_conv(8, hw, hw, mid, mid, 3, 1), _conv(8, hw, hw, mid, 4 * mid, 1, 1),
                   _conv(8, hw, hw, 4 * mid, mid, 1, 1))),
    _conv(8, 56, 56, 128, 128, 3, 2),
)

N26 = 1 << 26

CASES: tuple[Case, ...] = (
    _add("add_bcast_1024x1024_f32", Operand((1024, 1024), "f32", (0, 1)), Operand((1024,), "f32", (1,)),
         (1024, 1024), lambda a, b: a + b, "a + row vector, small (smoke)"),
    _add("add_bcast_8192x8192_f32", Operand((8192, 8192), "f32", (0, 1)), Operand((8192,), "f32", (1,)),
         (8192, 8192), lambda a, b: a + b, "a + row vector"),
    _add("add_2p26_f32", Operand((N26,), "f32", (0,)), Operand((N26,), "f32", (0,)), (N26,),
         lambda a, b: a + b, "a + b, 2^26 elements"),
    _add("add_2p26_f16", Operand((N26,), "f16", (0,)), Operand((N26,), "f16", (0,)), (N26,),
         lambda a, b: a + b, "a + b, 2^26 elements"),
    *(_reduce(f"rowsum_{m}x{k}_f32", (m, k), "f32", (1,), "sum", _sum_f32(1), "sum over rows")
      for m, k in ((4, 4096), (8192, 8192), (32, 1 << 20))),
    *(_reduce(f"rowsum_{m}x{k}_f16", (m, k), "f16", (1,), "sum", _sum_f32(1), "sum over rows, f32 accumulation")
      for m, k in ((4, 4096), (8192, 8192), (32, 1 << 20))),
    _reduce("sum_2p26_f32", (N26,), "f32", (0,), "sum", _sum_f32(None), "full sum to a scalar"),
    _reduce("max_mid_64x4096x64_f32", (64, 4096, 64), "f32", (1,), "max", lambda a: a.amax(1),
            "max over the middle dim"),
    *(_nhwc_nchw_add(*nhwc, dt) for nhwc in ((64, 56, 56, 128), (256, 7, 7, 2048)) for dt in ("f32", "f16")),
    _nhwc_nchw_add(32, 49, 7, 1009, "f32"),
    _add("transpose_add_8192x8192_f32", Operand((8192, 8192), "f32", (1, 0)), Operand((8192, 8192), "f32", (0, 1)),
         (8192, 8192), lambda a, b: b + a.t(), "out = a^T + b"),
    *(_matmul(4096, 4096, 4096, "f16", a, b) for a, b in (("mk", "kn"), ("km", "kn"), ("mk", "nk"))),
    _matmul(8192, 8192, 1024, "bf16", "mk", "kn"),
    _matmul(4096, 4096, 4096, "bf16", "mk", "nk"),  # K-contiguous both: direct-to-LDS (dtl_layout) needs no transpose
    *(_softmax(shape, dt) for shape in ((32, 4096, 4096), (4, 64, 1000)) for dt in ("f32", "f16")),
    *(_softmax((8, 19, 256, 256), dt, dim=1) for dt in ("f32", "f16")),  # a segmentation head's 19 classes
    *(_layernorm(rows, n, "f16") for rows, n in ((16384, 4096), (512, 768))),
    *(_logsumexp(rows, n) for rows, n in ((64, 50257), (4, 1000))),
    *BERT_MATMULS,
    *MORE_MATMULS,
    *ATTENTION,
    *RESNET50_CONVS,
)
