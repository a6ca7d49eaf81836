"""What lds-run prepares beside the reference outputs for its check (`replay.compare`).

- Each float output's sensitivity (`ldsopt.run.sensitivity`): the reference run again on its float
  inputs moved by a rounding's worth, `sensitivity.DRAWS` times, by the engine that computed it
  (numpy, or the llvm-cpu module run again); saved as sensitivity{i}.bin (f64, the output's
  shape), the scale each element is judged at beyond its own value. None for an integer output,
  and for every output of a program without float inputs (nothing to move: each element is
  judged at its own value).
- The program as written, where the reference is the program promoted to f64 and numpy
  evaluates it: an f32 program whose intermediate values overflow in f32 (exp(100x)/exp(100x))
  is NaN as written where the f64 reference is finite (1), or the reverse; one whose values
  underflow to subnormals is too on a GPU that flushes them to 0 (exp(-92)/exp(-92) is 0/0).
  It is evaluated both ways, IEEE and with subnormals flushed; each way whose outputs differ
  somewhere in class (finite, +inf, -inf, NaN) from the f64 reference rounded to the output
  type is saved, as written{i}.bin or written_ftz{i}.bin in the output's type, and the check
  judges those elements against it too and reports them. None where the reference ran on
  llvm-cpu (that would need another compile) or is not promoted (it is the program as written).
Nothing here changes the reference outputs themselves.
"""

from __future__ import annotations

import os

import numpy as np

from ldsopt.run import numpy_reference, sensitivity
from ldsopt.run.iree_tools import run_module
from ldsopt.run.tensor_file import FLOATS, Tensor, as_float64, bf16_bits, round_to
from ldsopt.run.value_check import classes


def _float_inputs(dtypes: list[str]) -> bool:
    return any(t in FLOATS for t in dtypes)


def _save(folder: str, outputs: list[tuple[list[int], str]], values: list[np.ndarray | None], stem: str,
          dtype: str | None = None) -> list[Tensor | None]:
    saved = []
    for i, ((shape, out_dtype), v) in enumerate(zip(outputs, values)):
        if v is None:
            saved.append(None)
            continue
        t = Tensor(shape, dtype or out_dtype, f"{stem}{i}.bin")
        t.save(folder, np.asarray(v).reshape(shape))
        saved.append(t)
    return saved


def numpy_sensitivity(text: str, function: str, arrays: list[np.ndarray], dtypes: list[str],
                      outputs: list[tuple[list[int], str]], base: list[np.ndarray], folder: str,
                      seed: int, rounds_in: list[str], store=None) -> list[Tensor | None]:
    """The sensitivity of each float output of `text` evaluated by numpy on `arrays` (of element
    types `dtypes`, as the reference reads them), `base` its outputs there; the move is that of
    the coarsest of those types and `rounds_in`, the types the program rounds to (an f16
    truncf's result would not move under a move of f64's size); None for every output if a
    draw cannot be evaluated (a moved value the program refuses). `store`: the program's
    parameters (`numpy_reference.evaluate`'s)."""
    if not _float_inputs(dtypes):
        return [None] * len(outputs)
    step = sensitivity.delta(dtypes + rounds_in)
    draws = [sensitivity.perturbed(arrays, dtypes, seed, d, step) for d in range(sensitivity.DRAWS)]
    try:
        moved = numpy_reference.evaluate_each(text, function, draws, store)
    except Exception:  # e.g. an assertion of the program on a moved value: no scale beyond each value
        return [None] * len(outputs)
    values = [sensitivity.estimate(np.asarray(b, np.float64), [np.asarray(m[i], np.float64) for m in moved], step)
              if dtype in FLOATS else None for i, (b, (_, dtype)) in enumerate(zip(base, outputs))]
    return _save(folder, outputs, values, "sensitivity", "f64")


def llvm_cpu_sensitivity(vmfb: str, function: str, device: str, inputs: list[Tensor], expected: list[Tensor],
                         folder: str, seed: int, rounds_in: list[str], extra: tuple[str, ...] = ()) -> list[Tensor | None]:
    """The same for a reference module on llvm-cpu (`inputs` as it reads them, `expected` its
    outputs, `extra` its other iree-run-module flags: parameters): run once a draw on moved
    inputs, whose files are removed after; None for every output if a draw's run fails."""
    dtypes = [t.dtype for t in inputs]
    if not _float_inputs(dtypes):
        return [None] * len(expected)
    step = sensitivity.delta(dtypes + rounds_in)
    arrays = [t.load(folder) for t in inputs]
    moved_in = [Tensor(t.shape, t.dtype, f"moved_input{i}.bin") for i, t in enumerate(inputs)]
    moved_out = [Tensor(t.shape, t.dtype, f"moved_output{i}.bin") for i, t in enumerate(expected)]
    runs = []
    try:
        for d in range(sensitivity.DRAWS):
            for t, a in zip(moved_in, sensitivity.perturbed(arrays, dtypes, seed, d, step)):
                t.save(folder, a)
            run_module(vmfb, function, device, moved_in, moved_out, folder, extra,
                       why=f" (sensitivity draw {d}: moved inputs, their files removed after)")
            runs.append([as_float64(t.load(folder), t.dtype) for t in moved_out])
    except RuntimeError:
        return [None] * len(expected)
    finally:
        for t in moved_in + moved_out:
            if os.path.exists(os.path.join(folder, t.file)):
                os.remove(os.path.join(folder, t.file))
    values = [sensitivity.estimate(as_float64(e.load(folder), e.dtype), [r[i] for r in runs], step)
              if e.dtype in FLOATS else None for i, e in enumerate(expected)]
    return _save(folder, [(e.shape, e.dtype) for e in expected], values, "sensitivity", "f64")


def as_written(text: str, function: str, inputs: list[np.ndarray], dtypes: list[str],
               outputs: list[tuple[list[int], str]], expected: list[np.ndarray], folder: str,
               store=None) -> list[list[Tensor]]:
    """Per output, the outputs of the program as written, `text`, evaluated with IEEE
    subnormals and with subnormals flushed to 0 (as GPUs may compute: exp(-92) is 0 there, and
    0/0 NaN), each kept where its class differs somewhere from the f64 reference `expected`
    rounded to the output type (see the module docstring); [] for every output where numpy does
    not evaluate the program as written (bf16 arithmetic)."""
    read = [as_float64(a, t) if t == "bf16" else a for a, t in zip(inputs, dtypes)]
    try:
        variants = [(stem, numpy_reference.evaluate_each(text, function, [read], store, flush_subnormals=flush)[0])
                    for stem, flush in (("written", False), ("written_ftz", True))]
    except numpy_reference.Unsupported:
        return [[] for _ in outputs]
    kept: list[list[Tensor]] = []
    for i, (e, (shape, dtype)) in enumerate(zip(expected, outputs)):
        kept.append([])
        if dtype not in FLOATS:
            continue
        f64_classes = classes(round_to(np.asarray(e, np.float64), dtype))
        for stem, values in variants:
            written = round_to(np.asarray(values[i], np.float64), dtype)
            if np.any(classes(written) != f64_classes):
                t = Tensor(shape, dtype, f"{stem}{i}.bin")
                t.save(folder, (bf16_bits(written) if dtype == "bf16" else written).reshape(shape))
                kept[-1].append(t)
    return kept
