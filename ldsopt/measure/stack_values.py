"""The values of a block stacked N layers in one call (`lds-bench MODEL --stack N`).

The stacked module has no reference of its own: the program's reference engines would run
N layers of a base-size block on the CPU at every preparation, and what the stack adds to the
single layer (whose values `program_bench` checks against the reference) is what passes do
across layers, such as `ldsopt-fold-norm` moving a norm's statistics into the previous layer's
product. So the stack is judged against the model's PyTorch twin, run N layers in f32 on the
same input and weights, beside the twin's own N layers in the program's 16-bit type: ldsopt's
normwise relative error (`relative_error`) must be at most RATIO times PyTorch's, or FLOOR.
Rounding alone keeps the two within a small factor of each other; a wrong statistic, a
missing layer or a layer's output overwritten by the next one lands orders of magnitude away.
A NaN or infinity in ldsopt's output fails; the twin's own error is reported as measured.
"""

from __future__ import annotations

import json
import os

import numpy as np

from ldsopt.run import replay
from ldsopt.run.tensor_file import Tensor

# ldsopt's 16-bit stack may round differently from PyTorch's (its own kernels, fast exp, where
# each intermediate is rounded), not by orders of magnitude.
RATIO = 4.0
# A twin whose 16-bit error happens to be tiny must not make the bound tighter than f16's
# unit roundoff.
FLOOR = 2.0 ** -11


def relative_error(out: np.ndarray, ref: np.ndarray) -> float:
    """||out - ref|| / ||ref|| over every element, in f64 (NaN where either holds one)."""
    o, r = out.astype(np.float64).ravel(), ref.astype(np.float64).ravel()
    return float(np.linalg.norm(o - r) / max(np.linalg.norm(r), np.finfo(np.float64).tiny))


def judge(ours: np.ndarray, twin_low: np.ndarray, ref: np.ndarray) -> dict:
    """The record of ldsopt's stacked output `ours` against the f32 twin's `ref`, bounded by the
    16-bit twin's `twin_low` (module docstring)."""
    e, t = relative_error(ours, ref), relative_error(twin_low, ref)
    bound = max(RATIO * t, FLOOR) if np.isfinite(t) else FLOOR
    return {"relative_error": e, "twin_relative_error": t, "bound": bound,
            "max_abs": float(np.max(np.abs(ours.astype(np.float64) - ref))), "passed": bool(e <= bound)}


def run_stack(folder: str) -> tuple[np.ndarray, np.ndarray]:
    """Runs the stacked module of its prepared subfolder `folder` on the folder's own input:
    (input, output). RuntimeError if the module fails or is not of one tensor to one."""
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    if len(man["inputs"]) != 1 or len(man["outputs"]) != 1:
        raise RuntimeError(f"{folder}: a stack takes one tensor and returns one, this has "
                           f"{len(man['inputs'])} and {len(man['outputs'])}")
    (out,) = replay.run_outputs(folder, man, man["device"], why=", the stacked layers' values")
    return Tensor(**man["inputs"][0]).load(folder), out


def check(torch, folder: str, layers: int, layer_low, layer_f32, device: str = "cuda") -> dict:
    """`judge` of the stack in subfolder `folder` of `layers` layers: `layer_low` and
    `layer_f32` are the twin in the program's type and in f32 (callables of a tensor on torch's
    `device`)."""
    x, ours = run_stack(folder)
    with torch.inference_mode():
        low = torch.from_numpy(x).to(device)
        f32 = low.float()
        for _ in range(layers):
            low, f32 = layer_low(low), layer_f32(f32)
        low, f32 = low.float().cpu().numpy(), f32.double().cpu().numpy()
    return {"layers": layers, **judge(ours, low, f32)}


def line(record: dict) -> str:
    """The report's words for a `check` record (or its error)."""
    if "error" in record:
        return f"values of the {record.get('layers', '?')} layers: error: {record['error']}"
    r = record
    return (f"values of the {r['layers']} layers: {'PASS' if r['passed'] else 'FAIL'} (relative error "
            f"{r['relative_error']:.3g} against the PyTorch twin in f32, bound {r['bound']:.3g}: {RATIO:g} x "
            f"the twin's own in 16 bits, {r['twin_relative_error']:.3g}; max abs error {r['max_abs']:.3g})")
