"""What a PyTorch export holds that IREE 3.13's torch import does not lower, rewritten before
import into ops it does: a decomposition table added to iree-turbine's own (turbine's
`extend_aot_decompositions`, which `aot.export` applies to the program torch.export made).

Matched (each an op that transformers 5.17's causal and sliding-window masks emit, so every
decoder model of transformers, GPT-2 and Llama among them, failed to import without them):
- `aten.diff` (packed-sequence detection on the position ids): torch-mlir has no lowering;
  written as the difference of two narrowed views, `n` times, after the optional
  `prepend` / `append` are concatenated, as torch.diff defines it.
- `aten.new_ones` (the masks' neutral `True`, of dtype bool): torch-mlir folds it into a
  `torch.vtensor.literal` of `tensor<i1>`, which it does not legalize; written as `aten.full`
  of 1 in the dtype asked (the tensor's own by default), which it lowers to a fill.
- `aten.__and__.Tensor`, `aten.__or__.Tensor` (the masks combined): no lowering; they are
  `bitwise_and` / `bitwise_or`, which it lowers (logical on bool).

And, found by running transformers' encoders (bench/model_sweep.py):
- `aten.multiply.Tensor` (ConvBERT): the alias of `aten.mul.Tensor`, which it lowers.
- `aten._weight_norm` (wav2vec2's positional convolution): `v * (g / |v|)`, the 2-norm over
  every dimension but `dim` (all of them where `dim` is -1), as PyTorch defines it.
- `aten.upsample_bicubic2d.vec` (YOLOS's position embeddings): PyTorch's own decomposition
  (torch._decomp's, taken by turbine's `add_ops`).
- `aten.histc` (Mixtral's count of tokens per expert): each element's bin as PyTorch's linear
  bins compute it ((x - min) * bins / (max - min), truncated, the top edge in the last bin,
  elements outside [min, max] left out; the data's range where min == max), counted by
  comparing with every bin.

The rewrites are exact: the same values, dtypes and shapes (the bicubic resize's to f32
rounding: its decomposition sums in another order). test/unit/test_torch_decompositions.py
checks each against the op it replaces. Anything else is left to turbine's table.

A torch export made without them (a user's own `aot.export`) still fails in IREE's import;
`hint` names the remedy beside IREE's error where the error is about one of these ops, or
about transformers' `grouped_mm` custom op (a mixture of experts' default, which no importer
lowers; its `batched_mm` experts export as plain ops).
"""

from __future__ import annotations

import contextlib


def _diff(x, n=1, dim=-1, prepend=None, append=None):
    import torch
    parts = [t for t in (prepend, x, append) if t is not None]
    x = torch.cat(parts, dim) if len(parts) > 1 else x
    for _ in range(n):
        length = x.shape[dim]
        x = x.narrow(dim, 1, length - 1) - x.narrow(dim, 0, length - 1)
    return x


def _new_ones(x, size, dtype=None, layout=None, device=None, pin_memory=None):
    import torch
    return torch.full(size, 1, dtype=dtype or x.dtype, device=device or x.device)


def _weight_norm(v, g, dim=0):
    dims = [d for d in range(v.dim()) if d != dim % v.dim()] if dim != -1 else list(range(v.dim()))
    return v * (g / v.norm(2, dims, keepdim=True))


def _histc(x, bins=100, min=0, max=0):
    import torch
    x = x.flatten()
    if min == max:  # the data's range, widened by 1 each way where it is one value
        lo, hi = x.min(), x.max()
        same = lo == hi
        lo, hi = torch.where(same, lo - 1, lo), torch.where(same, hi + 1, hi)
    else:
        lo, hi = min, max
    # PyTorch's linear bins: (x - lo) * bins / (hi - lo) truncated, the top edge in the last bin
    pos = ((x - lo) * bins / (hi - lo)).to(torch.int64)
    pos = torch.where(pos == bins, bins - 1, pos)
    inside = torch.logical_and(x >= lo, x <= hi)
    hits = torch.logical_and(pos[:, None] == torch.arange(bins, device=x.device), inside[:, None])
    return hits.sum(0).to(x.dtype)


def table() -> dict:
    """The ops rewritten here (module doc) and their decompositions."""
    import torch
    aten = torch.ops.aten
    return {aten.diff.default: _diff,
            aten.new_ones.default: _new_ones,
            aten.__and__.Tensor: aten.bitwise_and.Tensor,
            aten.__or__.Tensor: aten.bitwise_or.Tensor,
            aten.multiply.Tensor: aten.mul.Tensor,
            aten._weight_norm.default: _weight_norm,
            aten.histc.default: _histc}


def pytorchs() -> list:
    """The ops rewritten by PyTorch's own decompositions (module doc)."""
    import torch
    return [torch.ops.aten.upsample_bicubic2d.vec]


# How IREE's import names the ops rewritten here when it fails on them (the bool `new_ones` as
# the literal it folds into).
IREE_SPELLINGS = ("torch.aten.diff", "dense<true> : tensor<i1>", "torch.aten.__and__", "torch.aten.__or__",
                  "torch.aten.multiply", "torch.aten._weight_norm", "torch.aten.upsample_bicubic2d", "torch.aten.histc")


def hint(error: str) -> str | None:
    """The remedy, where IREE's import `error` is about an op rewritten here or about
    transformers' grouped_mm experts."""
    if "torch.transformers.grouped_mm" in error:
        return ("note: transformers' grouped_mm experts are a custom op no importer lowers; build the model "
                "with experts_implementation=\"batched_mm\" (its config's), whose experts export as plain ops")
    if not any(name in error for name in IREE_SPELLINGS):
        return None
    return ("note: ldsopt rewrites this op before IREE's import where it exports the module itself "
            "(ldsopt.torch.run / prepare / export); to export it yourself, call aot.export within "
            "`ldsopt.run.torch_decompositions.applied()`")


@contextlib.contextmanager
def applied():
    """Within it, `aot.export` decomposes the ops of `table` and `pytorchs` too."""
    from iree.turbine.aot import decompositions
    with decompositions.extend_aot_decompositions(add_ops=pytorchs()) as current:
        current.update(table())
        yield
