"""The work of each dispatch of a configured module, as a bound counts it: the bytes its
bindings hold (each input read once, each output written once) and, for a matmul, its FLOPs
(2*B*M*N*K) and operand type; the same floor ldsopt/measure/cases.py states for its cases."""

from __future__ import annotations

import math
import re

from iree.compiler import ir

from ldsopt.codegen.dispatch import dispatch_funcs
from ldsopt.matmul.match import ROOTS, analyze_matmul, match

# A binding's type: a memref, or (before bufferization) a dispatch tensor.
_TENSOR = re.compile(r"^(?:memref|!iree_tensor_ext\.dispatch\.tensor<\w+:tensor)<((?:\d+x)*)(\w+)[,>]")
_BITS = re.compile(r"[a-z]+(\d+)")


def _bytes(binding_type: str) -> int:
    m = _TENSOR.match(binding_type)
    if not m:
        raise ValueError(f"binding of type {binding_type}: not statically shaped")
    dims = [int(d) for d in m.group(1).split("x") if d]
    bits = _BITS.fullmatch(m.group(2).replace("bf", "f"))
    if not bits:
        raise ValueError(f"binding of type {binding_type}: unknown element type")
    return math.prod(dims) * int(bits.group(1)) // 8


def dispatch_work(module: ir.Module) -> dict[str, dict]:
    """Per dispatch function (by name): {"bytes", "flops", "type"} (flops 0 and type None but for
    a matmul), or {"error": why} where a binding is not statically shaped."""
    out = {}
    for func in dispatch_funcs(module.operation):
        name = ir.StringAttr(func.attributes["sym_name"]).value
        types = {}

        def visit(op):
            if op.name == "hal.interface.binding.subspan":
                types[str(op.attributes["binding"])] = str(op.results[0].type)
            return ir.WalkResult.ADVANCE

        func.walk(visit)
        try:
            nbytes = sum(_bytes(t) for t in types.values())
        except ValueError as e:
            out[name] = {"error": str(e)}
            continue
        d = analyze_matmul(func, ROOTS)
        p = match(d) if d else None
        if p:
            out[name] = {"bytes": nbytes, "flops": 2 * math.prod(p.sizes.values()), "type": str(p.elem_type)}
        else:
            out[name] = {"bytes": nbytes, "flops": 0, "type": None}
    return out
