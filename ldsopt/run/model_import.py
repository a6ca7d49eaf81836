"""Models in: ONNX files, IREE's ONNX imports and torch exports, lowered to the programs
lds-run takes (`func.func`s on builtin tensors, linalg on tensors, weights as constants or
as `util.global`s: inline values or parameters of an archive).

    model.onnx --onnx.version_converter (opsets below IMPORT_OPSET)--> model at IMPORT_OPSET
               --iree-import-onnx-->                                  torch dialect (onnx.* ops)
    torch dialect of an ONNX import --ONNX_TO_LINALG (in process)-->   linalg on tensors
    torch export (iree-turbine's `aot.export(...).save_mlir()`, torch.aten.* ops,
                  util.global weights) --TORCH_TO_IREE (in process)--> linalg on tensors

ONNX needs the `onnx` package (`pip install 'ldsopt[onnx]'`); torch-dialect MLIR needs
nothing more. Real model files are often of opsets 9 to 13, which IREE's importer takes
only in part (an opset-9 BatchNormalization is refused), so they are upgraded first; a model
the converter cannot upgrade is imported as it is, and the importer's own error says what it
refused. An ONNX import is told from a torch export by the opset its function records
(`torch.onnx_meta.opset_version`), as iree-compile tells them apart.

A torch export is lowered by IREE's own torch input pipeline, `torch-to-iree`, the one
`iree-compile --iree-input-type=torch` runs, with iree-compile's defaults for its options
(`--iree-torch-use-strict-symbolic-shapes`, `--iree-torch-decompose-complex-ops`: on;
`--iree-torch-enable-shape-refinement`, `--iree-torch-externalize-transients`: off) except
one: its entry points are the synchronous ones (`--iree-torch-emit-async-entry-points=false`),
`util.func`s on builtin tensors where the default wraps them in fences and buffer views; the
computation is the same. `as_func_entry_points` makes them `func.func`s, the form every
ldsopt tool reads. An export's weights stay `util.global`s: inline values (`dense_resource`,
turbine's default) or parameters (`#flow.parameter.named<"scope"::"key">`, turbine's
`externalize_module_parameters`), which the runs take from an archive (`--parameters`).

An export with dynamic dims (torch.export's `dynamic_shapes`) is run at the shapes of its
inputs: `specialize` gives the entry function's arguments those shapes and lets MLIR's
canonicalization carry them through the program.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from iree.compiler import ir, passmanager
from iree.compiler.dialects import arith, func, tensor

from ldsopt import shared_context
from ldsopt.run import torch_decompositions

# The opset ONNX files are upgraded to when older: the first with LayerNormalization, and
# one IREE 3.13's importer covers.
IMPORT_OPSET = 17
ONNX_TO_LINALG = ("builtin.module(func.func(convert-torch-onnx-to-torch), torch-onnx-to-torch-backend-pipeline, "
                  "torch-backend-to-linalg-on-tensors-backend-pipeline)")
# IREE's torch input pipeline with iree-compile's defaults, synchronous entry points (above).
TORCH_TO_IREE = ("builtin.module(torch-to-iree{strict-symbolic-shapes=true decompose=true "
                 "enable-shape-refinement=false externalize-transients=false emit-async-entry-points=false})")
# An ONNX import whose weights are parameters (`util.global`s, which the linalg backend
# contract of ONNX_TO_LINALG refuses) goes the way iree-compile takes ONNX: its ops to torch's,
# then the torch input pipeline.
ONNX_PARAMETERS_TO_IREE = TORCH_TO_IREE.replace("builtin.module(", "builtin.module(func.func(convert-torch-onnx-to-torch), ", 1)
ONNX_OPSET_ATTR = "torch.onnx_meta.opset_version"
# An ONNX model's weights given to an archive (`import_onnx(archive=...)`): initializers of at
# least this many elements, under this scope. Shape operands (Reshape's, Split's) and scalars
# stay inline, where the import folds them into static shapes, and so do initializers of at
# most two distinct values (`_structure`): masks, not weights, which passes read (a causal
# mask, ldsopt-raise-attention).
ARCHIVE_MIN_ELEMENTS = 1024
ARCHIVE_SCOPE = "model"
_PARAMETER_KEY = re.compile(r'#stream\.parameter\.named<"[^"]*"::"((?:[^"\\]|\\.)*)">')


class ModelImportError(Exception):
    """A model that cannot be brought in; the message says why."""


def is_torch_dialect(text: str) -> bool:
    return "!torch.vtensor" in text


def is_onnx_import(text: str) -> bool:
    """Torch-dialect MLIR made by IREE's ONNX importer (not a torch export)."""
    return ONNX_OPSET_ATTR in text


def import_onnx(path: str, archive: str | None = None) -> str:
    """The ONNX model at `path` as torch-dialect MLIR text. With `archive` (a path), its
    weights are written there (an .irpa) and the program names them as parameters of scope
    ARCHIVE_SCOPE, keyed by initializer name: a folder then holds the weights once, for
    every module and the PyTorch twin, instead of once in each module."""
    try:
        import onnx
        from onnx import version_converter
    except ImportError:
        raise ModelImportError("reading ONNX needs the onnx package: pip install 'ldsopt[onnx]'") from None
    try:
        model = onnx.load(path)
    except Exception as e:  # onnx raises DecodeError, ValueError, OSError... for a bad file
        raise ModelImportError(f"not a readable ONNX model: {e}") from None
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), IMPORT_OPSET)
    if opset < IMPORT_OPSET:
        try:
            model = version_converter.convert_version(model, IMPORT_OPSET)
        except Exception:  # the converter raises RuntimeError or its C++ errors; keep the original
            pass
    structure = _structure(model) if archive else {}
    with tempfile.TemporaryDirectory(prefix="lds-import-") as work:
        src, out = os.path.join(work, "model.onnx"), os.path.join(work, "model.mlir")
        onnx.save(model, src)
        externalize = ["--externalize-params", f"--num-elements-threshold={ARCHIVE_MIN_ELEMENTS}",
                       f"--params-scope={ARCHIVE_SCOPE}", f"--save-params-to={archive}"] if archive else []
        proc = subprocess.run([sys.executable, "-m", "iree.compiler.tools.import_onnx", src, "-o", out, *externalize],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise ModelImportError(f"iree-import-onnx failed ({proc.returncode}):\n{importer_error(proc.stderr)}")
        with open(out) as f:
            return _inline_structure(f.read(), structure)


def _structure(model) -> dict:
    """The initializers of `model` (an onnx.ModelProto) that the archive would take but that
    hold at most two distinct values (and are not graph inputs), by name, as numpy arrays."""
    from onnx import numpy_helper

    inputs = {i.name for i in model.graph.input}
    found = {}
    for init in model.graph.initializer:
        if init.name in inputs or math.prod(init.dims) < ARCHIVE_MIN_ELEMENTS:
            continue
        values = numpy_helper.to_array(init)
        flat = values.ravel()
        others = flat[flat != flat[0]]
        if values.dtype.kind in "fiub" and (not others.size or (others == others[0]).all()):
            found[init.name] = values
    return found


def _inline_structure(text: str, structure: dict) -> str:
    """`text` (an import whose weights are parameters) with the parameters named in
    `structure` read as inline constants of its values instead."""
    if not structure:
        return text
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        symbols = {}
        for op in list(module.body.operations):
            op = op.operation
            key = _PARAMETER_KEY.match(str(op.attributes["initial_value"])) \
                if op.name == "util.global" and "initial_value" in op.attributes else None
            if key and key.group(1) in structure:
                t = ir.RankedTensorType(ir.TypeAttr(op.attributes["type"]).value)
                symbols[ir.StringAttr(op.attributes["sym_name"]).value] = ir.DenseElementsAttr.get(
                    np.ascontiguousarray(structure[key.group(1)]), type=t.element_type)
                op.erase()
        if not symbols:
            return text

        def inline(op):
            value = symbols.get(ir.FlatSymbolRefAttr(op.attributes["global"]).value) \
                if op.name == "util.global.load" else None
            if value is not None:
                with ir.InsertionPoint(op), op.location:
                    value = arith.constant(op.results[0].type, value)
                op.results[0].replace_all_uses_with(value)
                op.erase()
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        module.operation.walk(inline)
        return str(module)


def _errors(e: ir.MLIRError) -> str:
    return "\n".join(f"{d.location}: error: {d.message}" for d in e.error_diagnostics) or e.message


def importer_error(stderr: str) -> str:
    """What the importer says went wrong, without its traceback: the exception that ended it
    (the lines after the last traceback's frames, blank lines dropped), else its last 5 lines."""
    lines = stderr.strip().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last):")]
    if not starts:
        return "\n".join(lines[-5:])
    rest = lines[starts[-1] + 1:]
    while rest and rest[0].startswith(" "):  # `  File ...` and its source line
        rest = rest[1:]
    return "\n".join(line for line in rest if line.strip())


def lower_torch(text: str) -> str:
    """Torch-dialect MLIR lowered to linalg on tensors: an ONNX import by IREE's ONNX
    pipelines, a torch export by IREE's torch input pipeline (module docstring)."""
    onnx = is_onnx_import(text)
    by_linalg = onnx and "util.global" not in text
    with shared_context.get() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
            pipeline = ONNX_TO_LINALG if by_linalg else ONNX_PARAMETERS_TO_IREE if onnx else TORCH_TO_IREE
            passmanager.PassManager.parse(pipeline).run(module.operation)
        except ir.MLIRError as e:
            how = "IREE's ONNX pipelines" if onnx else "IREE's torch input pipeline (torch-to-iree)"
            note = None if onnx else torch_decompositions.hint(_errors(e))
            raise ModelImportError(f"lowering torch to linalg by {how} failed:\n{_errors(e)}"
                                   + (f"\n{note}" if note else "")) from None
        if not by_linalg:
            as_func_entry_points(module)
        return str(module)


def as_func_entry_points(module: ir.Module) -> None:
    """Each `util.func` of `module` as a `func.func` of the same name, visibility and body
    (`util.return` as `func.return`); ModelImportError for what a func.func cannot hold
    (calls between util.funcs, bodies of several blocks)."""
    for op in list(module.body.operations):
        op = op.operation
        if op.name != "util.func":
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        body = op.regions[0].blocks
        if len(body) != 1:
            raise ModelImportError(f"function @{name} is not one block after torch-to-iree")
        ftype = ir.TypeAttr(op.attributes["function_type"]).value
        with ir.InsertionPoint(op), op.location:
            new = func.FuncOp(name, ftype)
            if "sym_visibility" in op.attributes:
                new.operation.attributes["sym_visibility"] = op.attributes["sym_visibility"]
            entry = new.add_entry_block()
        old = body[0]
        for a, b in zip(old.arguments, entry.arguments):
            a.replace_all_uses_with(b)
        ops = [o.operation for o in old.operations]
        if ops[-1].name != "util.return":
            raise ModelImportError(f"function @{name} does not end in util.return")
        with ir.InsertionPoint(entry), ops[-1].location:
            ret = func.ReturnOp(list(ops[-1].operands))
        for o in ops[:-1]:
            if o.name == "util.call":
                raise ModelImportError(f"function @{name} calls another function after torch-to-iree")
            o.move_before(ret)
        op.erase()


def dynamic_arguments(text: str, function: str) -> dict[int, list[int]]:
    """The arguments of `function` with dynamic dims: index -> shape (-1 where dynamic)."""
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        ftype = _function_type(module, function)
        return {i: [-1 if ir.ShapedType.is_dynamic_size(s) else s for s in t.shape]
                for i, t in enumerate(ftype.inputs) if isinstance(t, ir.RankedTensorType) and not t.has_static_shape}


def _find(module: ir.Module, function: str) -> ir.Operation:
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == function:
            return op.operation
    raise ModelImportError(f"no function @{function}")


def _function_type(module: ir.Module, function: str) -> ir.FunctionType:
    return ir.FunctionType(ir.TypeAttr(_find(module, function).attributes["function_type"]).value)


def specialize(text: str, function: str, shapes: dict[int, list[int]]) -> str:
    """`text` with the arguments of `function` given static `shapes` (index -> shape), carried
    through the program by canonicalization; a result left dynamic is a ModelImportError."""
    with shared_context.get() as ctx, ir.Location.unknown():
        module = ir.Module.parse(text, ctx)
        fn = _find(module, function)
        ftype = _function_type(module, function)
        block = fn.regions[0].blocks[0]
        inputs = list(ftype.inputs)
        for i, shape in shapes.items():
            old = ir.RankedTensorType(inputs[i])
            if len(shape) != old.rank or any(not ir.ShapedType.is_dynamic_size(d) and d != s
                                             for d, s in zip(old.shape, shape)):
                raise ModelImportError(f"argument {i} is {old}: it cannot take the shape {'x'.join(map(str, shape))}")
            static = ir.RankedTensorType.get(shape, old.element_type, old.encoding)
            arg = block.arguments[i]
            arg.set_type(static)
            with ir.InsertionPoint.at_block_begin(block):
                cast = tensor.CastOp(old, arg)
            arg.replace_all_uses_except(cast.result, cast.operation)
            inputs[i] = static
        fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, list(ftype.results)))
        try:
            passmanager.PassManager.parse("builtin.module(func.func(canonicalize, cse))").run(module.operation)
        except ir.MLIRError as e:
            raise ModelImportError(f"specializing @{function} to its inputs' shapes failed:\n{_errors(e)}") from None
        ret = next(o.operation for o in block.operations if o.operation.name == "func.return")
        results = []
        for i, v in enumerate(ret.operands):
            owner = v.owner
            if not isinstance(owner, ir.Block) and owner.name == "tensor.cast" and \
                    ir.RankedTensorType(owner.operands[0].type).has_static_shape:
                ret.operands[i] = owner.operands[0]
            t = ret.operands[i].type
            if isinstance(t, ir.RankedTensorType) and not t.has_static_shape:
                raise ModelImportError(f"result {i} of @{function} stays {t} at the inputs' shapes")
            results.append(t)
        fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))
        return str(module)


def input_names(path: str) -> list[str] | None:
    """The names of an ONNX model's graph inputs (not its initializers), in argument order;
    None where the model cannot be read (its import reports why)."""
    try:
        import onnx
        graph = onnx.load(path, load_external_data=False).graph
    except Exception:  # noqa: BLE001 - the import that follows says what is wrong with the file
        return None
    weights = {t.name for t in graph.initializer}
    return [i.name for i in graph.input if i.name not in weights]
