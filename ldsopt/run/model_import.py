"""Models in: ONNX files and torch-dialect MLIR, lowered to the programs lds-run takes
(a `func.func` on builtin tensors, linalg on tensors, weights as constants in the module).

    model.onnx --onnx.version_converter (opsets below IMPORT_OPSET)--> model at IMPORT_OPSET
               --iree-import-onnx-->                                  torch dialect (onnx.* ops)
    torch dialect --TORCH_TO_LINALG (IREE's torch pipelines, in process)--> linalg on tensors

ONNX needs the `onnx` package (`pip install 'ldsopt[onnx]'`); torch-dialect MLIR (from
IREE's ONNX importer or a torch export) needs nothing more. Real model files are often of
opsets 9 to 13, which IREE's importer takes only in part (an opset-9 BatchNormalization is
refused), so they are upgraded first; a model the converter cannot upgrade is imported as
it is, and the importer's own error says what it refused.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from iree.compiler import ir, passmanager

# The opset ONNX files are upgraded to when older: the first with LayerNormalization, and
# one IREE 3.13's importer covers.
IMPORT_OPSET = 17
TORCH_TO_LINALG = ("builtin.module(func.func(convert-torch-onnx-to-torch), torch-onnx-to-torch-backend-pipeline, "
                   "torch-backend-to-linalg-on-tensors-backend-pipeline)")


class ModelImportError(Exception):
    """A model that cannot be brought in; the message says why."""


def is_torch_dialect(text: str) -> bool:
    return "!torch.vtensor" in text


def import_onnx(path: str) -> str:
    """The ONNX model at `path` as torch-dialect MLIR text."""
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
    with tempfile.TemporaryDirectory(prefix="lds-import-") as work:
        src, out = os.path.join(work, "model.onnx"), os.path.join(work, "model.mlir")
        onnx.save(model, src)
        proc = subprocess.run([sys.executable, "-m", "iree.compiler.tools.import_onnx", src, "-o", out],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[-5:])  # the importer's error, not its traceback
            raise ModelImportError(f"iree-import-onnx failed ({proc.returncode}):\n{tail}")
        with open(out) as f:
            return f.read()


def lower_torch(text: str) -> str:
    """Torch-dialect MLIR lowered to linalg on tensors by IREE's torch pipelines."""
    with ir.Context() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
            passmanager.PassManager.parse(TORCH_TO_LINALG).run(module.operation)
        except ir.MLIRError as e:
            raise ModelImportError("lowering torch to linalg failed:\n" + "\n".join(
                f"{d.location}: error: {d.message}" for d in e.error_diagnostics)) from None
        return str(module)
