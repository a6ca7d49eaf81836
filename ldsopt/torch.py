"""PyTorch modules in: export an `nn.Module` with iree-turbine, run it through ldsopt, check it
against PyTorch's own output and the reference, and on CUDA time it against PyTorch.

    import ldsopt.torch
    ldsopt.torch.run(model, ids, target="lavapipe")                 # all here; returns the result
    ldsopt.torch.prepare(model, ids, target="cuda", folder="DIR")   # here: compile, no GPU needed
    python -m ldsopt.run.torch_replay DIR                               # there: check and time

Needs the `torch` extra (`pip install -e '.[torch]'`: torch, iree-turbine, transformers).
`export` is what a turbine user writes: `aot.export(model, args=..., dynamic_shapes=...)`
(with the ops IREE 3.13's torch import does not lower decomposed first:
run/torch_decompositions.py) with the module's parameters and persistent buffers externalized (turbine's
`externalize_module_parameters`, scope "model") into one archive, `model.irpa`, which every
module of the folder and the reference read, and from which the GPU machine rebuilds the
PyTorch module's weights (so they travel once). The export then runs as `lds-run` runs it
(`driver.prepare`: IREE's torch input pipeline, the inputs the example arguments, the
reference in f64), and PyTorch's outputs on the same inputs, computed here on the CPU, are
a second reference (`torch_replay.check`).

A prepared folder (`prepare`):
    export/model.mlir      the export as turbine saved it
    parameters/model.irpa  the weights, once
    ldsopt/                the ldsopt module, inputs, reference (lds-run --prepare's folder)
    iree/                  IREE's default module (CUDA only: timed against ldsopt)
    torch_expected*.npy    PyTorch's outputs here
    torch.json             how to rebuild the module there (`rebuild`) and the inputs' names
The module is rebuilt on the GPU machine from its transformers config (class name and
`config.to_dict()`, the same transformers version there), or else from a pickle of the
module whose weights are left out (its class must import there: torch.nn's do). A module that
does not pickle (a lambda attribute, a class made at run time) is still checked everywhere;
the GPU machine then times ldsopt and IREE's default without PyTorch, and says why.
"""

from __future__ import annotations

import copy
import inspect
import io
import os
import pickle
import tempfile

import numpy as np

from ldsopt.run import iree_tools
from ldsopt.cli import output_file
from ldsopt.run import driver, inputs, parameters, replay, torch_decompositions, torch_replay
from ldsopt import target as target_model

SCOPE = "model"


def _torch():
    try:
        import torch
        from iree.turbine import aot
    except ImportError as e:
        raise driver.DriverError(f"PyTorch models need the torch extra (pip install -e '.[torch]'): {e}") from None
    return torch, aot


def argument_names(model, count: int) -> list[str]:
    """The names of the first `count` parameters of `model.forward`."""
    params = [p.name for p in inspect.signature(model.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return params[:count] if len(params) >= count else [str(i) for i in range(count)]


def _rebuild_recipe(model, folder: str) -> dict:
    """How `torch_replay.rebuild` makes the module again (module docstring)."""
    torch, _ = _torch()
    dtype = str(next(iter(model.state_dict().values())).dtype).removeprefix("torch.") if model.state_dict() else None
    config = getattr(model, "config", None)
    if config is not None and type(model).__module__.startswith("transformers.") and hasattr(config, "to_dict"):
        return {"kind": "transformers", "class": type(model).__name__, "config": config.to_dict(),
                "attn_implementation": getattr(config, "_attn_implementation", None), "dtype": dtype}
    skeleton = copy.deepcopy(model)
    persistent = set(skeleton.state_dict())
    for name, t in list(skeleton.named_parameters()) + list(skeleton.named_buffers()):
        if name in persistent:
            owner, _, leaf = name.rpartition(".")
            mod = skeleton.get_submodule(owner) if owner else skeleton
            meta = torch.empty(t.shape, dtype=t.dtype, device="meta")
            if leaf in mod._parameters:
                mod._parameters[leaf] = torch.nn.Parameter(meta, requires_grad=False)
            else:
                mod._buffers[leaf] = meta
    pickled = io.BytesIO()
    try:
        torch.save(skeleton, pickled)
    except (pickle.PicklingError, AttributeError, TypeError) as e:
        # A class made at run time or a lambda attribute: the module still runs and is checked
        # against its outputs here; only its PyTorch side on the GPU machine cannot be rebuilt.
        return {"kind": "none", "why": f"{type(model).__name__} does not pickle ({e})", "dtype": dtype}
    output_file.write(os.path.join(folder, "module.pt"), pickled.getbuffer())
    return {"kind": "pickle", "file": "module.pt", "dtype": dtype}


def export(model, args: tuple, folder: str, *, kwargs: dict | None = None, dynamic_shapes=None) -> dict:
    """Exports `model` on `args` with iree-turbine into `folder` (module docstring): the MLIR,
    the parameter archive, PyTorch's outputs and the rebuild recipe. Returns torch.json's record."""
    torch, aot = _torch()
    os.makedirs(os.path.join(folder, "export"), exist_ok=True)
    os.makedirs(os.path.join(folder, "parameters"), exist_ok=True)
    model = model.eval()
    with torch.no_grad():
        expected = [t for t in torch.utils._pytree.tree_leaves(model(*args, **(kwargs or {})))
                    if isinstance(t, torch.Tensor)]
    recipe = _rebuild_recipe(model, folder)
    aot.externalize_module_parameters(model, external_scope=SCOPE)
    with torch_decompositions.applied():  # ops IREE's torch import does not lower, rewritten
        exported = aot.export(model, args=tuple(args), kwargs=kwargs, dynamic_shapes=dynamic_shapes)
    mlir = os.path.join(folder, "export", "model.mlir")
    exported.save_mlir(mlir)
    aot.save_module_parameters(os.path.join(folder, "parameters", "model.irpa"), model)
    for i, t in enumerate(expected):
        saved = io.BytesIO()
        np.save(saved, _numpy(t))
        output_file.write(os.path.join(folder, f"torch_expected{i}.npy"), saved.getbuffer())
    names = argument_names(model, len(args)) + list(kwargs or {})
    record = {"rebuild": recipe, "names": names, "kwargs": list(kwargs or {}), "outputs": len(expected),
              "mlir": os.path.relpath(mlir, folder), "parameters": {"scope": SCOPE, "file": "parameters/model.irpa"}}
    output_file.write_json(os.path.join(folder, "torch.json"), record)
    return record


def _numpy(t) -> np.ndarray:
    """A tensor's values as numpy holds them (bf16 as f32)."""
    import torch
    t = t.detach().cpu()
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def prepare(model, *args, target: str, folder: str, kwargs: dict | None = None, dynamic_shapes=None,
            pipeline_text: str = driver.DEFAULT_PIPELINE, program_pipeline: str = driver.PROGRAM_PIPELINE,
            atol: float | None = None, rtol: float | None = None, progress=print) -> dict:
    """Exports `model` and compiles it for `target` into `folder` (module docstring), its
    inputs `args`; on CUDA also IREE's default module, to time ldsopt against."""
    record = export(model, args, folder, kwargs=kwargs, dynamic_shapes=dynamic_shapes)
    progress(f"exported {type(model).__name__}: {record['mlir']}, {record['parameters']['file']}")
    archive = [parameters.Archive(SCOPE, os.path.join(folder, record["parameters"]["file"]))]
    torch, _ = _torch()
    example = [t for t in torch.utils._pytree.tree_leaves((tuple(args), kwargs or {})) if isinstance(t, torch.Tensor)]
    given = inputs.Options(names=record["names"], arrays={i: _numpy(a) for i, a in enumerate(example)})
    source = os.path.join(folder, record["mlir"])
    on_cuda = target_model.known(target).device == "cuda"
    variants = {"ldsopt": False, "iree": True} if on_cuda else {"ldsopt": False}
    for sub, baseline in variants.items():
        man = driver.prepare(source, target, os.path.join(folder, sub), pipeline_text=pipeline_text,
                             program_pipeline=program_pipeline, baseline=baseline, run_reference=not baseline,
                             atol=atol, rtol=rtol, given=given, archives=archive,
                             parameters_folder=os.path.join(folder, "parameters"))
        progress(f"compiled {sub} for {target}: {replay.coverage(man['dispatches'])}"
                 if not baseline else f"compiled IREE's default for {target}")
    record["target"], record["variants"] = target, list(variants)
    output_file.write_json(os.path.join(folder, "torch.json"), record)
    return record


def run(model, *args, target: str | None = None, folder: str | None = None, kwargs: dict | None = None,
        dynamic_shapes=None, time: bool = True, progress=print, **options) -> dict:
    """Exports, compiles and runs `model` on `args` for `target` (default: the device here,
    as lds-run picks it) and checks its outputs against the reference and PyTorch's; on CUDA
    also times it (`torch_replay.time_all`). Returns `torch_replay.replay`'s record; a target
    whose device is not here is prepared only (the record says where, and how to replay it).
    `folder` keeps everything (default: a temporary folder, removed)."""
    devices = iree_tools.available_devices()
    target = target or iree_tools.default_target(devices)
    if target is None:
        raise driver.DriverError("no GPU device found (hip, cuda or vulkan): name a target")
    with tempfile.TemporaryDirectory(prefix="ldsopt-torch-") as tmp:
        where = folder or tmp
        prepare(model, *args, target=target, folder=where, kwargs=kwargs, dynamic_shapes=dynamic_shapes,
                progress=progress, **options)
        if target == "gfx942" or target_model.known(target).device not in devices:
            return {"prepared": where if folder else None, "target": target,
                    "replay": f"python -m ldsopt.run.torch_replay {where}"}
        return torch_replay.replay(where, time=time and target_model.known(target).device == "cuda", say=progress)


__all__ = ["export", "prepare", "run"]
