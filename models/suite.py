"""The model suite: ONNX models the project writes itself with `onnx.helper` (no downloads),
weights from a seeded generator, at a small size for lavapipe and at real sizes for a GPU.

- `mlp_classifier`: Gemm, BatchNormalization, Relu, Gemm, Softmax, written at opset 9 as
  old model files are (lds-run upgrades it before IREE's importer sees it);
- `encoder_layer`: a transformer encoder layer (BERT): QKV projections, the head split and
  merge, scaled dot-product attention with softmax, residual adds, LayerNormalization, an
  MLP with GELU by erf;
- `decoder_block`: a small GPT decoder block: RMSNorm, causal attention, a SiLU-gated MLP,
  the logits, their logsumexp and argmax;
- `gpt2_block`: GPT-2's block without embeddings or logits: pre-LN, one QKV projection split
  in three, causal attention, an MLP with GELU by tanh;
- `llama_block`: Llama's block without embeddings or logits: RMSNorm, Q/K/V projections
  without bias to fewer K/V heads than query heads (grouped-query attention), rotary position
  embeddings (RoPE) on Q and K, the K/V heads repeated to the query heads, causal attention,
  a SwiGLU MLP; written as exported Llama graphs write it (cos and sin tables as constants,
  rotate_half by Slice, Neg and Concat, the repeat by Unsqueeze, Expand and Reshape);
- `resnet_cnn`: a ResNet-style CNN on NCHW images, as ONNX writes convolutions: a 7x7 stride-2
  stem convolution with BatchNormalization and Relu, a 3x3 stride-2 MaxPool, one bottleneck
  block (1x1, 3x3 stride 2, 1x1 convolutions, each with BatchNormalization, a projection
  shortcut of a 1x1 stride-2 convolution with its BatchNormalization, the residual Add, Relu),
  GlobalAveragePool and a Gemm classifier. `CNN_SIZES` names its sizes; `base` is ResNet-50's
  stem and the first block of its stage 2 (batch 8, 224x224, 64 -> 128 -> 512 channels).

The encoder layer, the GPT-2 and Llama blocks and the CNN name their weights ("attn.q.weight",
"ln1.bias", ...) and their metadata names their PyTorch twins in `models/torch_twins.py`,
the same layer on the same weights, which `lds-bench` times beside it.

    python models/suite.py OUT_DIR [--size small|base] [--dtype f32|f16]

writes one .onnx a model into OUT_DIR. `SIZES` names the sizes; `base` is BERT-base's
(hidden 768, 12 heads, FFN 3072, sequence 512), with the Llama block's 12 query heads over 4
K/V heads.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ldsopt.cli import output_file
from ldsopt.models import torch_twins as TWINS


@dataclasses.dataclass(frozen=True)
class Size:
    seq: int
    hidden: int
    heads: int
    ffn: int
    vocab: int
    gqa: tuple[int, int]  # the Llama block's query heads and K/V heads


SIZES = {"small": Size(seq=16, hidden=32, heads=2, ffn=64, vocab=97, gqa=(4, 2)),
         "base": Size(seq=512, hidden=768, heads=12, ffn=3072, vocab=50257, gqa=(12, 4))}



@dataclasses.dataclass(frozen=True)
class CnnSize:
    batch: int
    image: int         # height and width of the input image
    stem: int          # the stem convolution's output channels
    mid: int           # the bottleneck's inner channels
    out: int           # the bottleneck's output channels
    classes: int


# Small: channels and spatial sizes that are no multiple of a tile (a prime image side, 13
# stem channels; the 3x3 convolution's input of 9x9 is padded at its borders).
CNN_SIZES = {"small": CnnSize(batch=2, image=29, stem=13, mid=11, out=24, classes=10),
             "base": CnnSize(batch=8, image=224, stem=64, mid=128, out=512, classes=1000)}
ELEM = {"f32": (np.float32, TensorProto.FLOAT), "f16": (np.float16, TensorProto.FLOAT16)}


# models/ is a folder of scripts, not a package: the twins are loaded by path.


class Graph:
    """Nodes and seeded weights of one model, with unique value names."""

    def __init__(self, dtype: str, seed: int = 0):
        self.np_type, self.onnx_type = ELEM[dtype]
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def weight(self, *shape: int, scale: float | None = None, positive: bool = False, name: str | None = None) -> str:
        """Normal weights scaled like an initializer (1/sqrt(fan in)), or about 1 if `positive`;
        `name` (unique) where a twin (models/torch_twins.py) reads the weight by it."""
        a = self.rng.standard_normal(shape)
        a = np.abs(a) * 0.5 + 0.5 if positive else a * (scale if scale is not None else 1 / math.sqrt(shape[0]))
        name = name or self.name("w")
        self.inits.append(numpy_helper.from_array(a.astype(self.np_type), name))
        return name

    def const(self, value, dtype=None, name: str | None = None) -> str:
        """A constant, of the model's float type unless `dtype`; `name` as in `weight`."""
        name = name or self.name("c")
        arr = np.asarray(value, dtype=dtype or self.np_type)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def op(self, op_type: str, *inputs: str, outputs: int = 1, **attrs) -> str | list[str]:
        outs = [self.name(op_type.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op_type, list(inputs), outs, **attrs))
        return outs[0] if outputs == 1 else outs

    def linear(self, x: str, din: int, dout: int, bias: bool = True, name: str | None = None) -> str:
        """x @ W + b; with `name`, W and b are `name`.weight and `name`.bias."""
        y = self.op("MatMul", x, self.weight(din, dout, name=name and f"{name}.weight"))
        return self.op("Add", y, self.weight(dout, scale=0.1, name=name and f"{name}.bias")) if bias else y

    def model(self, name: str, inputs, outputs, opset: int, twin: dict | None = None) -> onnx.ModelProto:
        """The ONNX model; `twin` ({"function": name in models/torch_twins.py, its keyword
        arguments}) is recorded in the metadata under torch_twins.TWIN_KEY, where lds-bench finds it."""
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        model.ir_version = 4 if opset <= 9 else 8
        if twin:
            helper.set_model_props(model, {TWINS.TWIN_KEY: json.dumps(twin)})
        onnx.checker.check_model(model)
        return model


def mlp_classifier(batch: int = 4, din: int = 16, hidden: int = 24, classes: int = 10) -> onnx.ModelProto:
    g = Graph("f32")
    h = g.op("Gemm", "x", g.weight(din, hidden), g.weight(hidden, scale=0.1))
    n = g.op("BatchNormalization", h, g.weight(hidden, positive=True), g.weight(hidden, scale=0.1),
             g.weight(hidden, scale=0.1), g.weight(hidden, positive=True), epsilon=1e-5)
    r = g.op("Relu", n)
    logits = g.op("Gemm", r, g.weight(hidden, classes), g.weight(classes, scale=0.1))
    g.nodes.append(helper.make_node("Softmax", [logits], ["probs"], axis=1))
    return g.model("mlp_classifier", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, din])],
                   [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [batch, classes])], opset=9)


def _attention(g: Graph, x: str, s: Size, causal: bool, fused_qkv: bool = False) -> str:
    """Multi-head attention of x [1, S, H]: [1, S, H]; projections attn.{q,k,v,o}, or (`fused_qkv`,
    GPT-2's) one projection attn.qkv to [1, S, 3H] and a Split of it."""
    dh = s.hidden // s.heads
    split = g.const([1, s.seq, s.heads, dh], np.int64)
    if fused_qkv:
        parts = g.op("Split", g.linear(x, s.hidden, 3 * s.hidden, name="attn.qkv"),
                     g.const([s.hidden] * 3, np.int64), axis=-1, outputs=3)
    else:
        parts = [g.linear(x, s.hidden, s.hidden, name=f"attn.{p}") for p in "qkv"]
    q, k, v = (g.op("Reshape", part, split) for part in parts)
    q = g.op("Transpose", q, perm=[0, 2, 1, 3])       # [1, heads, S, dh]
    kt = g.op("Transpose", k, perm=[0, 2, 3, 1])      # [1, heads, dh, S]
    v = g.op("Transpose", v, perm=[0, 2, 1, 3])
    return g.linear(_context(g, q, kt, v, s.seq, s.heads, dh, causal), s.hidden, s.hidden, name="attn.o")


def _context(g: Graph, q: str, kt: str, v: str, seq: int, heads: int, dh: int, causal: bool) -> str:
    """softmax(q kt / sqrt(dh) (+ a causal mask of -1e4 above the diagonal)) v of q, v [1,
    heads, S, dh] and kt [1, heads, dh, S], its heads merged: [1, S, heads * dh]."""
    scores = g.op("Mul", g.op("MatMul", q, kt), g.const(1 / math.sqrt(dh)))
    if causal:
        mask = np.triu(np.full((seq, seq), -1e4), 1)
        scores = g.op("Add", scores, g.const(mask))
    p = g.op("Softmax", scores, axis=-1)
    ctx = g.op("Transpose", g.op("MatMul", p, v), perm=[0, 2, 1, 3])
    return g.op("Reshape", ctx, g.const([1, seq, heads * dh], np.int64))


def encoder_layer(size: Size, dtype: str = "f32") -> onnx.ModelProto:
    g = Graph(dtype)
    h = size.hidden
    a = g.op("Add", "x", _attention(g, "x", size, causal=False))
    a = g.op("LayerNormalization", a, g.weight(h, positive=True, name="ln1.weight"),
             g.weight(h, scale=0.1, name="ln1.bias"), axis=-1, epsilon=1e-5)
    f = g.linear(a, h, size.ffn, name="ffn.up")
    erf = g.op("Erf", g.op("Mul", f, g.const(1 / math.sqrt(2))))
    gelu = g.op("Mul", g.op("Mul", f, g.const(0.5)), g.op("Add", erf, g.const(1.0)))
    y = g.op("Add", a, g.linear(gelu, size.ffn, h, name="ffn.down"))
    g.nodes.append(helper.make_node("LayerNormalization", [y, g.weight(h, positive=True, name="ln2.weight"),
                                                           g.weight(h, scale=0.1, name="ln2.bias")],
                                    ["y"], axis=-1, epsilon=1e-5))
    t = g.onnx_type
    return g.model("encoder_layer", [helper.make_tensor_value_info("x", t, [1, size.seq, h])],
                   [helper.make_tensor_value_info("y", t, [1, size.seq, h])], opset=17,
                   twin={"function": "encoder_layer", "heads": size.heads, "eps": 1e-5})


def _layernorm(g: Graph, x: str, hidden: int, name: str) -> str:
    return g.op("LayerNormalization", x, g.weight(hidden, positive=True, name=f"{name}.weight"),
                g.weight(hidden, scale=0.1, name=f"{name}.bias"), axis=-1, epsilon=1e-5)


def gpt2_block(size: Size, dtype: str = "f32") -> onnx.ModelProto:
    """GPT-2's block (pre-LN; one QKV projection and a Split; causal attention; an MLP with GELU
    by tanh), without embeddings or logits."""
    g = Graph(dtype)
    h = size.hidden
    x1 = g.op("Add", "x", _attention(g, _layernorm(g, "x", h, "ln1"), size, causal=True, fused_qkv=True))
    f = g.linear(_layernorm(g, x1, h, "ln2"), h, size.ffn, name="ffn.up")
    inner = g.op("Mul", g.const(math.sqrt(2 / math.pi)), g.op("Add", f, g.op("Mul", g.const(0.044715),
                                                                             g.op("Mul", f, g.op("Mul", f, f)))))
    gelu = g.op("Mul", g.op("Mul", f, g.const(0.5)), g.op("Add", g.op("Tanh", inner), g.const(1.0)))
    g.nodes.append(helper.make_node("Add", [x1, g.linear(gelu, size.ffn, h, name="ffn.down")], ["y"]))
    t = g.onnx_type
    return g.model("gpt2_block", [helper.make_tensor_value_info("x", t, [1, size.seq, h])],
                   [helper.make_tensor_value_info("y", t, [1, size.seq, h])], opset=17,
                   twin={"function": "gpt2_block", "heads": size.heads, "eps": 1e-5})


def _rmsnorm(g: Graph, x: str, hidden: int, name: str | None = None) -> str:
    """x / sqrt(mean(x^2) + 1e-6) * weight, over the last dim; the weight `name`.weight. In a
    16-bit model the rows are normalized in f32 and rounded back before the weight, as
    transformers' LlamaRMSNorm and torch's rms_norm (the twin's) compute it: in f16 the sum of
    squares of a residual stream 12 layers deep overflows."""
    wide = x if g.onnx_type == TensorProto.FLOAT else g.op("Cast", x, to=TensorProto.FLOAT)
    ms = g.op("ReduceMean", g.op("Mul", wide, wide), axes=[-1], keepdims=1)
    r = g.op("Reciprocal", g.op("Sqrt", g.op("Add", ms, g.const(1e-6, dtype=np.float32))))
    n = g.op("Mul", wide, r)
    n = n if wide == x else g.op("Cast", n, to=g.onnx_type)
    return g.op("Mul", n, g.weight(hidden, positive=True, name=name and f"{name}.weight"))


def decoder_block(size: Size, dtype: str = "f32") -> onnx.ModelProto:
    g = Graph(dtype)
    h = size.hidden
    x1 = g.op("Add", "x", _attention(g, _rmsnorm(g, "x", h), size, causal=True))
    n = _rmsnorm(g, x1, h)
    gate = g.linear(n, h, size.ffn, bias=False)
    silu = g.op("Mul", gate, g.op("Sigmoid", gate))
    x2 = g.op("Add", x1, g.linear(g.op("Mul", silu, g.linear(n, h, size.ffn, bias=False)), size.ffn, h, bias=False))
    logits = g.linear(_rmsnorm(g, x2, h), h, size.vocab, bias=False)
    g.nodes.append(helper.make_node("ReduceLogSumExp", [logits], ["logsumexp"], axes=[-1], keepdims=0))
    g.nodes.append(helper.make_node("ArgMax", [logits], ["next_token"], axis=-1, keepdims=0))
    t = g.onnx_type
    return g.model("decoder_block", [helper.make_tensor_value_info("x", t, [1, size.seq, h])],
                   [helper.make_tensor_value_info("logsumexp", t, [1, size.seq]),
                    helper.make_tensor_value_info("next_token", TensorProto.INT64, [1, size.seq])], opset=17)


def _rope_tables(seq: int, dh: int, base: float = 10000.0) -> tuple[np.ndarray, np.ndarray]:
    """Llama's rotary tables, cos and sin of [S, dh]: position p, frequency base^(-2i/dh), the
    dh/2 angles twice (rotate_half pairs dim i with dim i + dh/2)."""
    angles = np.outer(np.arange(seq), base ** (-np.arange(0, dh, 2) / dh))
    angles = np.concatenate([angles, angles], axis=-1)
    return np.cos(angles), np.sin(angles)


def _rope(g: Graph, x: str, cos: str, sin: str, dh: int) -> str:
    """x * cos + rotate_half(x) * sin of x [1, heads, S, dh], rotate_half(x) = concat(-x[...,
    dh/2:], x[..., :dh/2]) by Slice, Neg and Concat as exported graphs write it."""
    axis, half = g.const([3], np.int64), g.const([dh // 2], np.int64)
    x1 = g.op("Slice", x, g.const([0], np.int64), half, axis)
    x2 = g.op("Slice", x, half, g.const([np.iinfo(np.int64).max], np.int64), axis)
    rotated = g.op("Concat", g.op("Neg", x2), x1, axis=-1)
    return g.op("Add", g.op("Mul", x, cos), g.op("Mul", rotated, sin))


def _repeat_kv(g: Graph, x: str, kv: int, rep: int, seq: int, dh: int) -> str:
    """x [1, kv, S, dh] with each head repeated `rep` times, [1, kv * rep, S, dh], as exported
    graphs write Llama's repeat_kv: Unsqueeze, Expand, Reshape."""
    e = g.op("Expand", g.op("Unsqueeze", x, g.const([2], np.int64)), g.const([1, kv, rep, seq, dh], np.int64))
    return g.op("Reshape", e, g.const([1, kv * rep, seq, dh], np.int64))


def llama_block(size: Size, dtype: str = "f32") -> onnx.ModelProto:
    """Llama's block (RMSNorm; Q, K, V without bias, `size.gqa` query and K/V heads; RoPE on Q
    and K; the K/V heads repeated; causal attention; a SwiGLU MLP), without embeddings or logits."""
    g = Graph(dtype)
    h, (heads, kv) = size.hidden, size.gqa
    dh = h // heads
    n1 = _rmsnorm(g, "x", h, "norm1")

    def split_heads(x: str, n: int) -> str:  # [1, S, n * dh] -> [1, n, S, dh]
        return g.op("Transpose", g.op("Reshape", x, g.const([1, size.seq, n, dh], np.int64)), perm=[0, 2, 1, 3])

    q, k, v = (split_heads(g.linear(n1, h, n * dh, bias=False, name=f"attn.{p}"), n)
               for p, n in (("q", heads), ("k", kv), ("v", kv)))
    cos, sin = (g.const(t, name=f"rope.{n}") for t, n in zip(_rope_tables(size.seq, dh), ("cos", "sin")))
    q, k = _rope(g, q, cos, sin, dh), _rope(g, k, cos, sin, dh)
    k, v = (_repeat_kv(g, t, kv, heads // kv, size.seq, dh) for t in (k, v))
    ctx = _context(g, q, g.op("Transpose", k, perm=[0, 1, 3, 2]), v, size.seq, heads, dh, causal=True)
    x1 = g.op("Add", "x", g.linear(ctx, h, h, bias=False, name="attn.o"))
    n2 = _rmsnorm(g, x1, h, "norm2")
    gate = g.linear(n2, h, size.ffn, bias=False, name="mlp.gate")
    swiglu = g.op("Mul", g.op("Mul", gate, g.op("Sigmoid", gate)), g.linear(n2, h, size.ffn, bias=False, name="mlp.up"))
    g.nodes.append(helper.make_node("Add", [x1, g.linear(swiglu, size.ffn, h, bias=False, name="mlp.down")], ["y"]))
    t = g.onnx_type
    return g.model("llama_block", [helper.make_tensor_value_info("x", t, [1, size.seq, h])],
                   [helper.make_tensor_value_info("y", t, [1, size.seq, h])], opset=17,
                   twin={"function": "llama_block", "heads": heads, "kv_heads": kv, "eps": 1e-6})


def _conv_bn(g: Graph, x: str, cin: int, cout: int, kernel: int, stride: int, name: str, relu: bool = True) -> str:
    """Conv (no bias, `kernel` square, padding kernel // 2) of NCHW x, BatchNormalization in
    inference (`name`.conv.weight [cout, cin, k, k]; `name`.bn.weight, .bias, .mean, .var),
    then Relu unless not `relu`."""
    w = g.weight(cout, cin, kernel, kernel, scale=1 / math.sqrt(cin * kernel * kernel), name=f"{name}.conv.weight")
    c = g.op("Conv", x, w, kernel_shape=[kernel, kernel], strides=[stride, stride], pads=[kernel // 2] * 4)
    bn = g.op("BatchNormalization", c, g.weight(cout, positive=True, name=f"{name}.bn.weight"),
              g.weight(cout, scale=0.1, name=f"{name}.bn.bias"), g.weight(cout, scale=0.1, name=f"{name}.bn.mean"),
              g.weight(cout, positive=True, name=f"{name}.bn.var"), epsilon=1e-5)
    return g.op("Relu", bn) if relu else bn


def resnet_cnn(size: CnnSize, dtype: str = "f32") -> onnx.ModelProto:
    """A ResNet-style CNN (module docstring) on x [N, 3, H, W]: logits [N, classes]."""
    g = Graph(dtype)
    s = size
    stem = _conv_bn(g, "x", 3, s.stem, 7, 2, "stem")
    pool = g.op("MaxPool", stem, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    a = _conv_bn(g, pool, s.stem, s.mid, 1, 1, "block.conv1")
    b = _conv_bn(g, a, s.mid, s.mid, 3, 2, "block.conv2")
    c = _conv_bn(g, b, s.mid, s.out, 1, 1, "block.conv3", relu=False)
    shortcut = _conv_bn(g, pool, s.stem, s.out, 1, 2, "block.down", relu=False)
    y = g.op("Relu", g.op("Add", c, shortcut))
    flat = g.op("Flatten", g.op("GlobalAveragePool", y), axis=1)
    g.nodes.append(helper.make_node("Gemm", [flat, g.weight(s.classes, s.out, scale=1 / math.sqrt(s.out), name="fc.weight"),
                                             g.weight(s.classes, scale=0.1, name="fc.bias")], ["logits"], transB=1))
    t = g.onnx_type
    return g.model("resnet_cnn", [helper.make_tensor_value_info("x", t, [s.batch, 3, s.image, s.image])],
                   [helper.make_tensor_value_info("logits", t, [s.batch, s.classes])], opset=17,
                   twin={"function": "resnet_cnn", "eps": 1e-5})


def build(size: str = "small", dtype: str = "f32") -> dict[str, onnx.ModelProto]:
    s = SIZES[size]
    return {"mlp_classifier": mlp_classifier(), f"encoder_layer_{size}_{dtype}": encoder_layer(s, dtype),
            f"decoder_block_{size}_{dtype}": decoder_block(s, dtype), f"gpt2_block_{size}_{dtype}": gpt2_block(s, dtype),
            f"llama_block_{size}_{dtype}": llama_block(s, dtype),
            f"resnet_cnn_{size}_{dtype}": resnet_cnn(CNN_SIZES[size], dtype)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="write the model suite as .onnx files")
    ap.add_argument("out_dir")
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("--dtype", choices=sorted(ELEM), default="f32")
    args = ap.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    for name, model in build(args.size, args.dtype).items():
        path = os.path.join(args.out_dir, name + ".onnx")
        output_file.write(path, model.SerializeToString())
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
