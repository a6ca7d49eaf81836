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


def _tensors(weights: dict[str, np.ndarray], device: str, dtype: str, linears: tuple[str, ...]):
    """The weights as tensors of `dtype` on `device`, and per name of `linears` the (weight,
    bias or None) that F.linear takes: ONNX MatMul weights are [in, out], F.linear's [out, in]."""
    import torch

    w = {k: torch.from_numpy(np.ascontiguousarray(v)).to(device=device, dtype=getattr(torch, dtype))
         for k, v in weights.items()}
    return w, {p: (w[f"{p}.weight"].t().contiguous(), w.get(f"{p}.bias")) for p in linears}


def encoder_layer(weights: dict[str, np.ndarray], device: str, dtype: str, heads: int, eps: float = 1e-5):
    """`suite.encoder_layer`: post-norm BERT layer, attention by `scaled_dot_product_attention`
    (softmax(q k^T / sqrt(d)) v, PyTorch's fused kernel where it has one), GELU by erf."""
    import torch.nn.functional as F

    w, lin = _tensors(weights, device, dtype, ("attn.q", "attn.k", "attn.v", "attn.o", "ffn.up", "ffn.down"))
    hidden = lin["attn.q"][0].shape[0]

    def layer(x):
        b, s, _ = x.shape
        q, k, v = (F.linear(x, *lin[f"attn.{p}"]).view(b, s, heads, hidden // heads).transpose(1, 2) for p in "qkv")
        ctx = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, s, hidden)
        a = F.layer_norm(x + F.linear(ctx, *lin["attn.o"]), (hidden,), w["ln1.weight"], w["ln1.bias"], eps)
        f = F.linear(F.gelu(F.linear(a, *lin["ffn.up"])), *lin["ffn.down"])
        return F.layer_norm(a + f, (hidden,), w["ln2.weight"], w["ln2.bias"], eps)

    return layer


def gpt2_block(weights: dict[str, np.ndarray], device: str, dtype: str, heads: int, eps: float = 1e-5):
    """`suite.gpt2_block`: pre-LN GPT-2 block, one QKV projection split in three, causal
    `scaled_dot_product_attention`, GELU by tanh."""
    import torch.nn.functional as F

    w, lin = _tensors(weights, device, dtype, ("attn.qkv", "attn.o", "ffn.up", "ffn.down"))
    hidden = lin["attn.o"][0].shape[0]

    def block(x):
        b, s, _ = x.shape
        a = F.layer_norm(x, (hidden,), w["ln1.weight"], w["ln1.bias"], eps)
        q, k, v = (t.view(b, s, heads, hidden // heads).transpose(1, 2)
                   for t in F.linear(a, *lin["attn.qkv"]).split(hidden, dim=-1))
        ctx = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, s, hidden)
        x = x + F.linear(ctx, *lin["attn.o"])
        f = F.gelu(F.linear(F.layer_norm(x, (hidden,), w["ln2.weight"], w["ln2.bias"], eps), *lin["ffn.up"]),
                   approximate="tanh")
        return x + F.linear(f, *lin["ffn.down"])

    return block


def llama_block(weights: dict[str, np.ndarray], device: str, dtype: str, heads: int, kv_heads: int,
                eps: float = 1e-6):
    """`suite.llama_block`: RMSNorm, grouped-query attention (`kv_heads` K/V heads for `heads`
    query heads, `scaled_dot_product_attention(enable_gqa=True)`, causal) with RoPE on Q and
    K by the model's cos and sin tables, a SwiGLU MLP."""
    import torch
    import torch.nn.functional as F

    w, lin = _tensors(weights, device, dtype, ("attn.q", "attn.k", "attn.v", "attn.o", "mlp.gate", "mlp.up",
                                               "mlp.down"))
    hidden = lin["attn.q"][0].shape[0]
    dh = hidden // heads
    cos, sin = w["rope.cos"], w["rope.sin"]

    def rope(t):
        return t * cos + torch.cat((-t[..., dh // 2:], t[..., :dh // 2]), dim=-1) * sin

    def block(x):
        b, s, _ = x.shape
        n = F.rms_norm(x, (hidden,), w["norm1.weight"], eps)
        q, k, v = (F.linear(n, *lin[f"attn.{p}"]).view(b, s, h, dh).transpose(1, 2)
                   for p, h in (("q", heads), ("k", kv_heads), ("v", kv_heads)))
        ctx = F.scaled_dot_product_attention(rope(q), rope(k), v, is_causal=True, enable_gqa=True)
        x = x + F.linear(ctx.transpose(1, 2).reshape(b, s, hidden), *lin["attn.o"])
        n = F.rms_norm(x, (hidden,), w["norm2.weight"], eps)
        return x + F.linear(F.silu(F.linear(n, *lin["mlp.gate"])) * F.linear(n, *lin["mlp.up"]), *lin["mlp.down"])

    return block


def resnet_cnn(weights: dict[str, np.ndarray], device: str, dtype: str, eps: float = 1e-5):
    """`suite.resnet_cnn`: the stem (7x7 stride-2 convolution, BatchNorm, ReLU, 3x3 stride-2
    max pool), a bottleneck block with a stride-2 projection shortcut, global average pool
    and the classifier; NCHW as the ONNX model takes it."""
    import torch.nn.functional as F

    w, _ = _tensors(weights, device, dtype, ())

    def conv_bn(x, name, stride, relu=True):
        k = w[f"{name}.conv.weight"].shape[-1]
        y = F.batch_norm(F.conv2d(x, w[f"{name}.conv.weight"], stride=stride, padding=k // 2),
                         w[f"{name}.bn.mean"], w[f"{name}.bn.var"], w[f"{name}.bn.weight"], w[f"{name}.bn.bias"],
                         training=False, eps=eps)
        return F.relu(y) if relu else y

    def cnn(x):
        p = F.max_pool2d(conv_bn(x, "stem", 2), 3, stride=2, padding=1)
        y = conv_bn(conv_bn(conv_bn(p, "block.conv1", 1), "block.conv2", 2), "block.conv3", 1, relu=False)
        y = F.relu(y + conv_bn(p, "block.down", 2, relu=False))
        return F.linear(F.adaptive_avg_pool2d(y, 1).flatten(1), w["fc.weight"], w["fc.bias"])

    return cnn
