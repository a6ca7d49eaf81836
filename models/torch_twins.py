"""PyTorch twins of the model suite: the same layer as `models/suite.py` writes in ONNX, in
PyTorch eager as a PyTorch user writes it, on the same weights.

A twin is `function(weights, device, dtype, **kwargs) -> callable(x) -> y`: `weights` maps
the ONNX initializer names that `suite.py` gives the layer's weights ("attn.q.weight", ...)
to numpy arrays (read from the ONNX file with `onnx.numpy_helper`; `lds-bench` ships them
as an .npz), `kwargs` are what the model's metadata records beside the function's name
(TWIN_KEY). This module needs only numpy where it is imported, and torch where a
twin is built (the GPU machine): `lds-bench --replay` loads it from the prepared folder.
"""

from __future__ import annotations

import numpy as np

# The ONNX metadata key under which `suite.py` records a model's twin, as JSON:
# {"function": a function of this module, its keyword arguments...}.
TWIN_KEY = "ldsopt.torch_twin"


def encoder_layer(weights: dict[str, np.ndarray], device: str, dtype: str, heads: int, eps: float = 1e-5):
    """`suite.encoder_layer`: post-norm BERT layer, attention by `scaled_dot_product_attention`
    (softmax(q k^T / sqrt(d)) v, PyTorch's fused kernel where it has one), GELU by erf."""
    import torch
    import torch.nn.functional as F

    w = {k: torch.from_numpy(np.ascontiguousarray(v)).to(device=device, dtype=getattr(torch, dtype))
         for k, v in weights.items()}
    # ONNX MatMul weights are [in, out]; F.linear takes [out, in].
    lin = {p: (w[f"{p}.weight"].t().contiguous(), w[f"{p}.bias"])
           for p in ("attn.q", "attn.k", "attn.v", "attn.o", "ffn.up", "ffn.down")}
    hidden = lin["attn.q"][0].shape[0]

    def layer(x):
        b, s, _ = x.shape
        q, k, v = (F.linear(x, *lin[f"attn.{p}"]).view(b, s, heads, hidden // heads).transpose(1, 2) for p in "qkv")
        ctx = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, s, hidden)
        a = F.layer_norm(x + F.linear(ctx, *lin["attn.o"]), (hidden,), w["ln1.weight"], w["ln1.bias"], eps)
        f = F.linear(F.gelu(F.linear(a, *lin["ffn.up"])), *lin["ffn.down"])
        return F.layer_norm(a + f, (hidden,), w["ln2.weight"], w["ln2.bias"], eps)

    return layer
