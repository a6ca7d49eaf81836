"""The compile half of lds-run and lds-bench: IREE round trips with ldsopt in the middle.

    source.mlir --ldsopt program pipeline (in process)-->                 program
                --iree-compile --compile-to=executable-configurations--> configured
                --ldsopt pipeline (in process)-->                         ours
                --iree-compile --compile-from=executable-configurations--> .vmfb

A dispatch no ldsopt pass takes keeps IREE's own configuration; `dispatch_report` says
which is which. The reference is the *original* source compiled for llvm-cpu.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess

import numpy as np
from iree.compiler import ir

from ldsopt import pipeline, syntax_upgrade
from ldsopt import target as target_model
from ldsopt.kernel import LOWERED_BY, USER_CONFIG
from ldsopt.replay import DTYPES, Tensor, run_module, tool

# Run on the program, before IREE forms dispatches: passes that change which dispatches exist.
PROGRAM_PIPELINE = "builtin.module(ldsopt-split-reduction)"
# Specialized passes first; the elementwise lowering takes what is left and qualifies.
DEFAULT_PIPELINE = "builtin.module(ldsopt-vector-distribute, ldsopt-inthread-transpose, ldsopt-matmul-lds, ldsopt-preload-transposed, ldsopt-lower-elementwise, canonicalize, cse)"


class DriverError(Exception):
    """A user-facing failure: bad input, a failed compile, a missing function."""


def iree_compile(args: list[str], what: str) -> None:
    proc = subprocess.run([tool("iree-compile")] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DriverError(f"{what} failed:\n{proc.stderr.strip()}")


@dataclasses.dataclass
class Signature:
    function: str
    inputs: list[tuple[list[int], str]]
    outputs: list[tuple[list[int], str]]


def _tensor(t: ir.Type, where: str) -> tuple[list[int], str]:
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        raise DriverError(f"{where}: only statically shaped tensors are supported, got {t}")
    return list(t.shape), str(t.element_type)


def read_source(path: str) -> str:
    with open(path) as f:
        text = f.read()
    return syntax_upgrade.upgrade_iree_syntax(text) if syntax_upgrade.needs_upgrade(text) else text


def signature(text: str, function: str | None) -> Signature:
    with ir.Context() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
        except ir.MLIRError as e:
            raise DriverError("cannot parse the input: " + "; ".join(
                f"{d.location}: {d.message}" for d in e.error_diagnostics)) from None
        funcs = [op.operation for op in module.body.operations if op.operation.name == "func.func" and len(op.regions[0].blocks)
                 and "sym_visibility" not in op.attributes]
        names = [ir.StringAttr(f.attributes["sym_name"]).value for f in funcs]
        if function is None:
            if len(funcs) != 1:
                raise DriverError(f"expected exactly one public function, found {names or 'none'}: use --function")
            function = names[0]
        if function not in names:
            raise DriverError(f"no public function '{function}' (public functions: {names})")
        ftype = ir.FunctionType(ir.TypeAttr(funcs[names.index(function)].attributes["function_type"]).value)
        return Signature(function, [_tensor(t, f"argument {i}") for i, t in enumerate(ftype.inputs)],
                         [_tensor(t, f"result {i}") for i, t in enumerate(ftype.results)])


def check_buffer_sizes(sig: Signature, tgt: target_model.KnownTarget) -> None:
    """Refuses tensors larger than one binding of the target can cover."""
    if tgt.max_buffer_bytes is None:
        return
    for what, tensors in (("argument", sig.inputs), ("result", sig.outputs)):
        for i, (shape, dtype) in enumerate(tensors):
            nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(DTYPES[dtype][0]).itemsize
            if nbytes > tgt.max_buffer_bytes:
                raise DriverError(f"{what} {i} ({nbytes} bytes) is larger than a {tgt.name} storage buffer "
                                  f"binding can be ({tgt.max_buffer_bytes} bytes): its values would be garbage")


def random_inputs(sig: Signature, seed: int) -> list[np.ndarray]:
    """Seeded random inputs: unit normal floats, small integers (products stay exact)."""
    rng = np.random.default_rng(seed)
    out = []
    for shape, dtype in sig.inputs:
        if dtype in ("f32", "f16", "f64"):
            out.append(rng.standard_normal(shape).astype(DTYPES[dtype][0]))
        elif dtype == "bf16":
            bits = rng.standard_normal(shape).astype(np.float32).view(np.uint32)
            out.append(((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16))  # round to nearest even
        elif dtype == "i1":
            out.append(rng.integers(0, 2, shape).astype(np.bool_))
        elif dtype in ("i8", "i16", "i32", "i64"):
            out.append(rng.integers(-8 if dtype == "i8" else -1000, 9 if dtype == "i8" else 1001, shape)
                       .astype(DTYPES[dtype][0]))
        else:
            raise DriverError(f"inputs of element type {dtype} are not supported")
    return out


def with_device_target(text: str, tgt: target_model.KnownTarget) -> str:
    """Puts the target's hal.device.targets on the module (lavapipe has no IREE flag)."""
    if tgt.module_targets is None:
        return text
    with ir.Context() as ctx:
        module = ir.Module.parse(text, ctx)
        module.operation.attributes["hal.device.targets"] = ir.ArrayAttr.get([ir.Attribute.parse(tgt.module_targets)])
        return str(module)


def configure(text: str, tgt: target_model.KnownTarget, folder: str, extra: tuple[str, ...] = ()) -> str:
    src = os.path.join(folder, "source.mlir")
    out = os.path.join(folder, "configured.mlir")
    with open(src, "w") as f:
        f.write(with_device_target(mark_user_configs(text), tgt))
    iree_compile([src, *tgt.compile_flags, "--compile-to=executable-configurations", "-o", out, *extra],
                 "iree-compile --compile-to=executable-configurations")
    with open(out) as f:
        return f.read()


def apply_ldsopt(configured: str, pipeline_text: str) -> tuple[str, list[dict]]:
    with ir.Context() as ctx:
        module = _run_pipeline(ir.Module.parse(configured, ctx), pipeline_text, "ldsopt pipeline")
        return str(module), dispatch_report(module)


def apply_program_pipeline(text: str, pipeline_text: str) -> str:
    """The program after `pipeline_text` (PROGRAM_PIPELINE); unchanged for an empty pipeline."""
    if not pipeline_text:
        return text
    with ir.Context() as ctx:
        return str(_run_pipeline(ir.Module.parse(text, ctx), pipeline_text, "ldsopt program pipeline"))


def _run_pipeline(module: ir.Module, pipeline_text: str, what: str) -> ir.Module:
    try:
        pipeline.run(module, pipeline_text)
    except pipeline.PipelineError as e:
        raise DriverError(f"{what} does not parse: {e}") from None
    except ir.MLIRError as e:
        raise DriverError(f"{what} failed:\n" + "\n".join(
            f"{d.location}: error: {d.message}" for d in e.error_diagnostics)) from None
    return module


def dispatch_report(module: ir.Module) -> list[dict]:
    """For each dispatch: its name, IREE pipeline and the ldsopt passes that lowered it."""
    out = []

    def visit(op):
        if op.name == "func.func" and op.parent is not None and op.parent.name == "builtin.module" \
                and "translation_info" in op.attributes:
            info = str(op.attributes["translation_info"])
            pm = re.search(r"pipeline<(\w+)>", info)
            passes = [ir.StringAttr(a).value for a in op.attributes[LOWERED_BY]] if LOWERED_BY in op.attributes else []
            out.append({"name": ir.StringAttr(op.attributes["sym_name"]).value,
                        "pipeline": pm.group(1) if pm else info, "passes": passes})
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out


def compile_module(text: str, folder: str, name: str, dump: bool = False, extra: tuple[str, ...] = ()) -> str:
    src = os.path.join(folder, name + ".mlir")
    vmfb = os.path.join(folder, name + ".vmfb")
    with open(src, "w") as f:
        f.write(text)
    flags = [src, "--compile-from=executable-configurations", "-o", vmfb, *extra]
    if dump:
        flags.append(f"--iree-hal-dump-executable-files-to={os.path.join(folder, 'executables')}")
    iree_compile(flags, "iree-compile --compile-from=executable-configurations")
    return vmfb


_GPU_CONFIG_ATTRS = ("compilation_info", "lowering_config")


def mark_user_configs(text: str) -> str:
    """The program with USER_CONFIG on every op that carries a GPU lowering config, so that
    passes can tell the user's configs from those IREE's configuration adds (the attribute
    survives dispatch formation and configuration); unchanged if there are none."""
    if not any(name in text for name in _GPU_CONFIG_ATTRS):
        return text
    with ir.Context() as ctx:
        module = ir.Module.parse(text, ctx)

        def mark(op):
            if any(name in op.attributes for name in _GPU_CONFIG_ATTRS):
                op.attributes[USER_CONFIG] = ir.UnitAttr.get()
            return ir.WalkResult.ADVANCE

        module.operation.walk(mark)
        return str(module)


def without_gpu_configs(text: str) -> str:
    """The program without GPU lowering configs, which llvm-cpu rejects; the values it
    computes do not depend on them."""
    with ir.Context() as ctx:
        module = ir.Module.parse(text, ctx)

        def strip(op):
            for name in _GPU_CONFIG_ATTRS:
                if name in op.attributes:
                    del op.attributes[name]
            return ir.WalkResult.ADVANCE

        module.operation.walk(strip)
        return str(module)


def reference(text: str, sig: Signature, inputs: list[Tensor], folder: str) -> list[Tensor]:
    """Runs the original program on IREE's llvm-cpu backend."""
    cpu = target_model.known("llvm-cpu")
    src = os.path.join(folder, "reference_source.mlir")
    vmfb = os.path.join(folder, "reference.vmfb")
    with open(src, "w") as f:
        f.write(without_gpu_configs(text))
    iree_compile([src, *cpu.compile_flags, "-o", vmfb], "reference compile (llvm-cpu)")
    expected = [Tensor(shape, dtype, f"expected{i}.bin") for i, (shape, dtype) in enumerate(sig.outputs)]
    run_module(vmfb, sig.function, cpu.device, inputs, expected, folder)
    return expected


def prepare(source_path: str, target_name: str, folder: str, *, function: str | None = None, seed: int = 0,
            pipeline_text: str = DEFAULT_PIPELINE, program_pipeline: str = PROGRAM_PIPELINE,
            baseline: bool = False, dump: bool = False,
            atol: float | None = None, rtol: float | None = None, run_reference: bool = True) -> dict:
    """Compiles `source_path` for `target_name` into `folder` with inputs, reference outputs
    and a manifest that `replay.replay` runs anywhere the runtime is installed. Unless
    `baseline`, `program_pipeline` runs on the program first; the reference runs the original."""
    os.makedirs(folder, exist_ok=True)
    tgt = target_model.known(target_name)
    text = read_source(source_path)
    sig = signature(text, function)
    check_buffer_sizes(sig, tgt)
    configured = configure(text if baseline else apply_program_pipeline(text, program_pipeline), tgt, folder)
    if baseline:
        ours = configured
        with ir.Context() as ctx:
            report = dispatch_report(ir.Module.parse(configured, ctx))
    else:
        ours, report = apply_ldsopt(configured, pipeline_text)
    vmfb = compile_module(ours, folder, "ldsopt" if not baseline else "baseline", dump=dump)
    inputs = [Tensor(shape, dtype, f"input{i}.bin") for i, (shape, dtype) in enumerate(sig.inputs)]
    for t, arr in zip(inputs, random_inputs(sig, seed)):
        t.save(folder, arr)
    expected = reference(text, sig, inputs, folder) if run_reference else []
    manifest = {"source": os.path.basename(source_path), "target": target_name, "device": tgt.device,
                "function": sig.function, "vmfb": os.path.basename(vmfb), "seed": seed,
                "pipeline": "iree-default" if baseline else pipeline_text,
                "program_pipeline": "" if baseline else program_pipeline, "dispatches": report,
                "inputs": [dataclasses.asdict(t) for t in inputs],
                "expected": [dataclasses.asdict(t) for t in expected], "atol": atol, "rtol": rtol}
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest
