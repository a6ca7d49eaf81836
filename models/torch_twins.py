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

import sys

import numpy as np

# The ONNX metadata key under which `suite.py` records a model's twin, as JSON:
# {"function": a function of this module, its keyword arguments...}.
TWIN_KEY = "ldsopt.torch_twin"


def named_twin(model) -> tuple[str, dict] | None:
    """The twin an ONNX model (onnx.ModelProto) names in its metadata: the function's name and
    its keyword arguments; None where it names none. The name is not checked here."""
    import json

    spec = {p.key: p.value for p in model.metadata_props}.get(TWIN_KEY)
    if spec is None:
        return None
    kwargs = json.loads(spec)
    return kwargs.pop("function"), kwargs


def of_model(model, dtype: str = "float32"):
    """The twin of a suite model (onnx.ModelProto) as a `torch.nn.Module` (`Twin`) holding the
    model's initializers as its parameters, for an export: iree-turbine takes modules, and
    puts their parameters in the export's archive as a PyTorch model's are."""
    import torch
    from onnx import numpy_helper

    function, kwargs = named_twin(model)
    weights = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy()) for t in model.graph.initializer}
    return _twin_type()(function, kwargs, weights, dtype).to(getattr(torch, dtype))


def _twin_class():
    """`Twin`, made where first asked for (`of_model`, or the module's `__getattr__` where
    pickle looks it up): this module imports no torch."""
    import torch

    class Twin(torch.nn.Module):
        """A twin function (of this module) over weights held as parameters: their ONNX names
        with '.' as '__' (a parameter's name holds no '.')."""

        def __init__(self, function: str, kwargs: dict, weights: dict, dtype: str):
            super().__init__()
            # The function itself (pickled by its name): an export's tracing resolves no names.
            self.twin, self.kwargs, self.dtype = getattr(sys.modules[__name__], function), kwargs, dtype
            self.weights = torch.nn.ParameterDict(
                {k.replace(".", "__"): torch.nn.Parameter(v, requires_grad=False) for k, v in weights.items()})

        def forward(self, x):
            weights = {k.replace("__", "."): v for k, v in self.weights.items()}
            return self.twin(weights, x.device, self.dtype, **self.kwargs)(x)

    Twin.__module__, Twin.__qualname__ = __name__, "Twin"  # pickled by this name
    return Twin


def _twin_type():
    if "Twin" not in globals():
        globals()["Twin"] = _twin_class()
    return globals()["Twin"]


def __getattr__(name: str):
    if name == "Twin":
        return _twin_type()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _tensors(weights: dict[str, np.ndarray], device: str, dtype: str, linears: tuple[str, ...]):
    """The weights (numpy arrays, or tensors: a `Twin`'s parameters) as tensors of `dtype` on
    `device`, and per name of `linears` the (weight, bias or None) that F.linear takes: ONNX
    MatMul weights are [in, out], F.linear's [out, in]."""
    import torch

    w = {k: (v if isinstance(v, torch.Tensor) else torch.from_numpy(np.ascontiguousarray(v)))
         .to(device=device, dtype=getattr(torch, dtype)) for k, v in weights.items()}
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
        # the tables' first positions: an export's dynamic sequence may be shorter than they are
        s = t.shape[-2]
        return t * cos[:s] + torch.cat((-t[..., dh // 2:], t[..., :dh // 2]), dim=-1) * sin[:s]

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
