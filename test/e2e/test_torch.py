"""PyTorch models in (ldsopt/torch.py, ldsopt/run/model_import.py, ldsopt/run/inputs.py): real
iree-turbine exports, made in each test from small random-initialized models (transformers
configs, no downloads), run on lavapipe through `ldsopt.torch.run` and `lds-run`, and checked
against PyTorch's outputs and the reference.

Where IREE itself cannot compile a model for Vulkan, the test is an expected failure that
quotes IREE's error (it fails, as a stale expectation, the day the model runs).
"""

import json
import re

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the torch extra is not installed (pip install -e '.[torch]')")
transformers = pytest.importorskip("transformers", reason="the torch extra is not installed")
pytest.importorskip("iree.turbine", reason="the torch extra is not installed")

import ldsopt.torch as lt  # noqa: E402
from ldsopt.run import driver, pipelines, torch_replay  # noqa: E402

VOCAB = 61


def tiny(kind: str, attn: str = "eager", dtype=torch.float32):
    """A one-layer random-initialized transformers model of width 32."""
    torch.manual_seed(0)
    common = {"vocab_size": VOCAB, "attn_implementation": attn}
    if kind == "bert":
        model = transformers.BertModel(transformers.BertConfig(
            hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=48,
            max_position_embeddings=32, **common))
    elif kind == "gpt2":
        model = transformers.GPT2Model(transformers.GPT2Config(
            n_embd=32, n_layer=1, n_head=2, n_positions=32, use_cache=False, **common))
    else:
        model = transformers.LlamaModel(transformers.LlamaConfig(
            hidden_size=32, num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1, intermediate_size=48,
            max_position_embeddings=32, use_cache=False, **common))
    return model.to(dtype)


def ids(seq: int = 7):
    return torch.randint(0, VOCAB, (1, seq), generator=torch.Generator().manual_seed(1))


def passes(record):
    assert record["ok"], record
    assert record["passed"] and record["passed_torch"], record
    lowered = [d for d in record["dispatches"] if d["passes"]]
    assert len(record["dispatches"]) >= 3 and lowered, record["dispatches"]  # a whole model, ldsopt in it


def all_by_ldsopt(dispatches):
    """Every dispatch is ldsopt's, those run at load (initializers) too."""
    assert dispatches and all(d["passes"] for d in dispatches), [(d["name"], d.get("missed")) for d in dispatches
                                                                 if not d["passes"]]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_bert_passes(dtype):
    """BERT with eager attention passes, every dispatch ldsopt's; its attention as the export
    writes it out (the scores divided by sqrt(d), a constant in the division's body) is raised
    into one attention dispatch, ldsopt-attention's, with no softmax left beside it; its
    token-type embeddings, which IREE computes at load (a double gather, table[ids[pos[i]], j]),
    are ldsopt-lower-elementwise's."""
    record = lt.run(tiny("bert", "eager", dtype), ids(), target="lavapipe", progress=lambda m: None)
    passes(record)
    all_by_ldsopt(record["dispatches"])
    attention = [d for d in record["dispatches"] if "_attention_" in d["name"]]
    assert len(attention) == 1 and attention[0]["passes"] == ["ldsopt-attention"], record["dispatches"]
    assert not any("softmax" in d["name"] for d in record["dispatches"]), record["dispatches"]
    at_load = [d for d in record["dispatches"] if d["name"].startswith("_initializer_") and "_elementwise_" in d["name"]]
    assert at_load and all(d["passes"] == ["ldsopt-lower-elementwise"] for d in at_load), record["dispatches"]


@pytest.mark.parametrize("kind,attn", [("bert", "eager"), ("gpt2", "sdpa"), ("llama", "eager")])
@pytest.mark.parametrize("target", ["cuda", "gfx942"])
def test_compiles_for_gpus_all_by_ldsopt(kind, attn, target, tmp_path):
    """BERT's, GPT-2's and Llama's exports compile for CUDA and gfx942 (prepared only: no such
    device here), every dispatch ldsopt's."""
    record = lt.run(tiny(kind, attn, torch.float32), ids(), target=target, folder=str(tmp_path),
                    progress=lambda m: None)
    assert record["prepared"] == str(tmp_path) and (tmp_path / "ldsopt" / "ldsopt.vmfb").exists(), record
    manifest = json.loads((tmp_path / "ldsopt" / "manifest.json").read_text())
    all_by_ldsopt(manifest["dispatches"])


@pytest.mark.parametrize("kind,attn,dtype,seq", [("gpt2", "eager", torch.float32, 7), ("gpt2", "sdpa", torch.float16, 11),
                                                ("llama", "eager", torch.float16, 7), ("llama", "sdpa", torch.float32, 13)])
def test_causal_models_pass(kind, attn, dtype, seq):
    """transformers' decoders import (their masks' ops IREE's torch import does not lower are
    rewritten before it: run/torch_decompositions.py) and pass, every dispatch ldsopt's, the
    causal attention one dispatch of ldsopt-attention."""
    record = lt.run(tiny(kind, attn, dtype), ids(seq), target="lavapipe", progress=lambda m: None)
    attention_by_ldsopt(record)
    all_by_ldsopt(record["dispatches"])


@pytest.mark.parametrize("kind,attn", [("gpt2", "eager"), ("llama", "sdpa")])
def test_causal_models_with_a_padding_mask_pass(kind, attn):
    """The same with an attention mask whose last two keys are padding."""
    mask = torch.ones(1, 9, dtype=torch.int64)
    mask[0, -2:] = 0
    record = lt.run(tiny(kind, attn), ids(9), kwargs={"attention_mask": mask}, target="lavapipe",
                    progress=lambda m: None)
    attention_by_ldsopt(record)
    all_by_ldsopt(record["dispatches"])


def attention_by_ldsopt(record):
    """The model passes, its attention (scaled_dot_product_attention, which IREE 3.13 cannot
    compile for SPIR-V: lds-run --baseline fails on it) one dispatch lowered by ldsopt-attention."""
    passes(record)
    attention = [d for d in record["dispatches"] if "attention" in d["name"]]
    assert len(attention) == 1 and attention[0]["passes"] == ["ldsopt-attention"], record["dispatches"]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_sdpa_bert_attention_by_ldsopt(dtype):
    """BERT's Q, K and V projections (weights in the export's parameters) are one matmul
    (ldsopt-fuse-projections), whose head slices the attention dispatch reads in place, with a
    mask computed in the dispatch and the output transposed (the forms IREE gives without the
    fusion, V held keys innermost among them: test/lit/attention/torch_sdpa.mlir)."""
    record = lt.run(tiny("bert", "sdpa", dtype), ids(), target="lavapipe", progress=lambda m: None)
    attention_by_ldsopt(record)
    qkv = [d for d in record["dispatches"] if d["name"].startswith("main_") and "_batch_matmul_1x7x96x32_" in d["name"]]
    assert len(qkv) == 1 and qkv[0]["passes"], record["dispatches"]
    # The embeddings (word rows gathered by token id, plus position and token type) fused with
    # their LayerNorm: one row-wise dispatch of ldsopt-vector-distribute.
    embedding = [d for d in record["dispatches"] if d["name"].startswith("main_dispatch_0_")]
    assert len(embedding) == 1 and embedding[0]["passes"] == ["ldsopt-vector-distribute"], record["dispatches"]
    # Every dispatch of a call is ldsopt's, the pooler's product of the first token too (those the
    # initializers run once, at load, join the weights).
    assert all(d["passes"] for d in record["dispatches"] if not d.get("at_load")), record["dispatches"]


class SelfAttention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(16, 2, batch_first=True)

    def forward(self, x):
        return self.mha(x, x, x, need_weights=False)[0]


def test_multihead_attention():
    """Q, K and V are slices of the packed in_proj result, in one binding."""
    torch.manual_seed(0)
    attention_by_ldsopt(lt.run(SelfAttention(), torch.randn(2, 5, 16), target="lavapipe", progress=lambda m: None))


class RelativeBiasAttention(torch.nn.Module):
    """T5's self-attention, written out: no scale, a learned position bias [1, heads, s, s]
    added to the scores of every batch, softmax in f32."""

    def __init__(self, heads: int = 4, head_dim: int = 8, seq: int = 13):
        super().__init__()
        self.heads, self.head_dim = heads, head_dim
        self.qkv = torch.nn.Linear(heads * head_dim, 3 * heads * head_dim, bias=False)
        self.bias = torch.nn.Parameter(torch.randn(1, heads, seq, seq))

    def forward(self, x):
        b, s, _ = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        p = torch.softmax((q @ k.transpose(-1, -2) + self.bias).float(), -1).type_as(q)
        return (p @ v).transpose(1, 2).reshape(b, s, self.heads * self.head_dim)


def test_relative_position_bias_over_a_batch():
    """The bias, read at batch 0 for a batch of 3, is raised with the chain into one attention
    (ldsopt-raise-attention: its mask collapsed to [heads, s, s]; a constant index in the op's
    map failed IREE's verifier, or crashed it)."""
    torch.manual_seed(0)
    attention_by_ldsopt(lt.run(RelativeBiasAttention(), torch.randn(3, 13, 32), target="lavapipe",
                               progress=lambda m: None))



class RepeatedKV(torch.nn.Module):
    """Grouped-query attention written out, as Llama's eager code has it: K and V heads
    repeated by expand and reshape, the scores divided by sqrt(head dim), a Python float."""

    def __init__(self, heads: int = 4, kv_heads: int = 2, head_dim: int = 8):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, head_dim
        self.q = torch.nn.Linear(32, heads * head_dim)
        self.kv = torch.nn.Linear(32, 2 * kv_heads * head_dim)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q(x).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(x).view(b, s, 2, self.kv_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        k, v = (t[:, :, None].expand(b, self.kv_heads, self.heads // self.kv_heads, s, self.head_dim)
                .reshape(b, self.heads, s, self.head_dim) for t in (k, v))
        p = torch.softmax(q @ k.transpose(2, 3) / self.head_dim ** 0.5, -1)
        return (p @ v).transpose(1, 2).reshape(b, s, self.heads * self.head_dim)


def test_repeated_kv_scaled_by_a_python_float():
    """The scale is a constant in the divide's body (no tensor operand): raised all the same,
    with K and V read unrepeated."""
    torch.manual_seed(0)
    attention_by_ldsopt(lt.run(RepeatedKV(), torch.randn(2, 11, 32), target="lavapipe", progress=lambda m: None))

class PackedSDPA(torch.nn.Module):
    """Self-attention as models write it by hand: one packed QKV projection viewed into heads,
    a padding mask from a [B, S] input (BERT's extended mask (1 - m) * min, or boolean), or causal."""

    def __init__(self, heads: int, head_dim: int, mask: str):
        super().__init__()
        self.heads, self.head_dim, self.mask = heads, head_dim, mask
        self.qkv = torch.nn.Linear(16, 3 * heads * head_dim)

    def forward(self, x, m):
        b, s, _ = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        keep = m[:, None, None, :]
        mask = {"additive": (1.0 - keep.to(x.dtype)) * torch.finfo(x.dtype).min, "bool": keep > 0}.get(self.mask)
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.mask == "causal")
        return o.transpose(1, 2).reshape(b, s, self.heads * self.head_dim)


@pytest.mark.parametrize("heads,head_dim,seq,mask,dtype", [(3, 32, 13, "additive", torch.float16),
                                                           (2, 16, 7, "bool", torch.float32),
                                                           (2, 80, 13, "causal", torch.float32)])
def test_sdpa_packed_qkv_with_masks(heads, head_dim, seq, mask, dtype):
    """Q, K, V slices of one binding; the mask built in the attention dispatch from the loaded
    [B, S] mask (batch 0's last three keys padded) or from indices (causal)."""
    torch.manual_seed(0)
    m = torch.ones(2, seq, dtype=torch.int64)
    m[0, seq - 3:] = 0
    attention_by_ldsopt(lt.run(PackedSDPA(heads, head_dim, mask).to(dtype), torch.randn(2, seq, 16, dtype=dtype), m,
                               target="lavapipe", progress=lambda m: None))


# The suite's blocks as PyTorch writes them (models/torch_twins.py: F.linear, SDPA, is_causal,
# enable_gqa), exported by iree-turbine: dispatches a call, every one ldsopt's, as many as the
# ONNX forms take (test_model_import.py). Llama's RoPE'd Q is merged to [batch x heads] for the
# attention behind a compute barrier (ldsopt-pin-attention-reshapes), else IREE copies Q's slices
# and RoPE's rotated Q's out of the fused projection: 11 dispatches.
TWIN_DISPATCHES = {"encoder_layer": 6, "gpt2_block": 6, "llama_block": 9}


@pytest.mark.parametrize("kind", sorted(TWIN_DISPATCHES))
def test_suite_blocks_exported_from_pytorch(kind):
    from ldsopt.models import suite, torch_twins

    model = getattr(suite, kind)(suite.SIZES["small"], "f32")
    size = suite.SIZES["small"]
    torch.manual_seed(0)
    record = lt.run(torch_twins.of_model(model), torch.randn(1, size.seq, size.hidden),
                    target="lavapipe", progress=lambda m: None)
    passes(record)
    per_call = [d for d in record["dispatches"] if not d.get("at_load")]
    assert len(per_call) == TWIN_DISPATCHES[kind] and all(d["passes"] for d in per_call), record["dispatches"]


def test_suite_resnet_exported_from_pytorch():
    """The suite's ResNet-style CNN's twin (stem, max pool, a bottleneck block, AdaptiveAvgPool2d(1),
    a classifier) exported by iree-turbine: every dispatch ldsopt's, its pool the gathered
    window sum's."""
    from ldsopt.models import suite, torch_twins

    size = suite.CNN_SIZES["small"]
    torch.manual_seed(0)
    record = lt.run(torch_twins.of_model(suite.resnet_cnn(size, "f32")),
                    torch.randn(size.batch, 3, size.image, size.image), target="lavapipe", progress=lambda m: None)
    passes(record)
    all_by_ldsopt(record["dispatches"])
    assert any(d["passes"] == ["ldsopt-window-reduce"] and "_reduction_" in d["name"] for d in record["dispatches"])


def test_cnn_with_batchnorm_and_the_module_rebuilt_from_its_folder(tmp_path):
    torch.manual_seed(0)
    cnn = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                              torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(8, 5))
    with torch.no_grad():  # statistics other than the initial 0 and 1, so that they matter
        cnn[1].running_mean.uniform_(-0.5, 0.5)
        cnn[1].running_var.uniform_(0.5, 2.0)
    x = torch.randn(2, 3, 9, 11)
    record = lt.run(cnn, x, target="lavapipe", folder=str(tmp_path), progress=lambda m: None)
    assert record["ok"] and record["passed_torch"], record
    all_by_ldsopt(record["dispatches"])  # the adaptive pool's gathered window sum too
    rebuilt = torch_replay.rebuild(str(tmp_path), "cpu")  # as the GPU machine does: weights from the archive
    with torch.no_grad():
        assert torch.equal(rebuilt(x), cnn(x))


@pytest.mark.parametrize("shape, dtype", [((2, 64, 7, 7), torch.float32), ((3, 5, 13, 17), torch.float16)])
def test_adaptive_average_pool_to_one_is_a_gathered_window_sum(shape, dtype):
    """AdaptiveAvgPool2d(1), as torchvision's ResNets end (IREE's torch input makes it a sum
    whose body gathers the image at the indices it computes, and the window's point count as
    a second, constant result): ldsopt-window-reduce's, every dispatch ldsopt's, PASS."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(shape[1], 3)).to(dtype)
    record = lt.run(model, torch.randn(*shape, dtype=dtype), target="lavapipe", progress=lambda m: None)
    passes(record)
    all_by_ldsopt(record["dispatches"])
    pool = [d for d in record["dispatches"] if "_reduction_" in d["name"]]
    assert len(pool) == 1 and pool[0]["passes"] == ["ldsopt-window-reduce"], record["dispatches"]


class ConvNeXtLayerNorm(torch.nn.Module):
    """ConvNeXt's LayerNorm in its channels-first form (over dim 1 of NCHW), as its code writes it."""

    def __init__(self, channels: int):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.rand(channels) + 0.5)
        self.bias = torch.nn.Parameter(torch.randn(channels))

    def forward(self, x):
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + 1e-6)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


@pytest.mark.parametrize("model, shape, dtype", [
    (ConvNeXtLayerNorm(24), (2, 24, 7, 9), torch.float32),
    (torch.nn.Softmax(dim=1), (2, 21, 33), torch.float16),
    (torch.nn.LogSoftmax(dim=0), (37, 12), torch.float32),
], ids=["convnext_layernorm", "softmax_dim1_f16", "log_softmax_dim0"])
def test_reductions_over_an_outer_dim_are_strided_rows(model, shape, dtype):
    """Normalizations over an outer dim: one fused dispatch whose rows lie strided in memory,
    ldsopt's, PASS (IREE's own SPIR-V kernel gave wrong values for the first two on lavapipe)."""
    torch.manual_seed(0)
    record = lt.run(model.to(dtype), torch.randn(*shape, dtype=dtype), target="lavapipe", progress=lambda m: None)
    assert record["ok"] and record["passed"] and record["passed_torch"], record
    (dispatch,) = record["dispatches"]
    assert dispatch["passes"] == ["ldsopt-vector-distribute"], record["dispatches"]


@pytest.mark.parametrize("pool", [torch.nn.AvgPool2d(3, 2, padding=1, count_include_pad=False),
                                  torch.nn.AvgPool2d((3, 2), (2, 1), padding=1, count_include_pad=False)],
                         ids=["3x3_s2", "3x2_s2x1"])
def test_average_pool_excluding_the_padding_is_a_window_reduction(pool):
    """count_include_pad=False divides each window's sum by its points inside the image, which
    the export computes from the output's position: one dispatch, ldsopt-window-reduce's."""
    record = lt.run(pool, torch.randn(2, 5, 13, 11), target="lavapipe", progress=lambda m: None)
    assert record["ok"] and record["passed"] and record["passed_torch"], record
    assert [d["passes"] for d in record["dispatches"]] == [["ldsopt-window-reduce"]], record["dispatches"]


def test_convnext_passes_every_dispatch_by_ldsopt():
    """transformers' ConvNeXt permutes to channels-last for each LayerNorm and back: IREE fuses
    the write-back to NCHW into the norm's dispatch, whose SPIR-V kernel (IREE's default
    pipeline too) gave wrong values on lavapipe; as strided rows it is ldsopt's, and right."""
    torch.manual_seed(0)
    model = transformers.ConvNextModel(transformers.ConvNextConfig(
        num_channels=3, hidden_sizes=[16, 32], depths=[1, 1], num_stages=2, image_size=32))
    record = lt.run(model, torch.randn(1, 3, 32, 32), target="lavapipe", progress=lambda m: None)
    passes(record)
    norms = [d for d in record["dispatches"] if "_reduction_" in d["name"]]
    assert norms and all(d["passes"] == ["ldsopt-vector-distribute"] for d in norms), record["dispatches"]
    all_by_ldsopt(record["dispatches"])  # its MLP products too, their NCHW residual read transposed


def test_models_whose_dispatches_chain_generics():
    """Dispatches of two parallel generics in loop spaces of their own, fused by
    ldsopt-lower-elementwise: RoBERTa's position ids and their embedding (the ids' cumsum, a
    scan, ldsopt-lower-scan's), and LeViT, whose last stage attends over one key (not raised to an
    attention op: IREE would drop the unit key loop and fail to compile it for Vulkan)."""
    torch.manual_seed(0)
    small = {"hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 48}
    roberta = transformers.RobertaModel(transformers.RobertaConfig(vocab_size=VOCAB, max_position_embeddings=40,
                                                                   **small))
    record = lt.run(roberta, ids(9), target="lavapipe", progress=lambda m: None)
    passes(record)
    all_by_ldsopt(record["dispatches"])
    scans = [d for d in record["dispatches"] if "_scan_" in d["name"]]
    assert len(scans) == 1 and scans[0]["passes"] == ["ldsopt-lower-scan"], record["dispatches"]
    levit = transformers.LevitModel(transformers.LevitConfig(
        image_size=32, hidden_sizes=[32, 48], num_attention_heads=[2, 2], depths=[1, 1], key_dim=[8, 8],
        mlp_ratio=[2, 2], attention_ratio=[2, 2], down_ops=[["Subsample", 8, 2, 4, 2, 2]]))
    passes(lt.run(levit.eval(), torch.randn(1, 3, 32, 32), target="lavapipe", progress=lambda m: None))


def test_a_module_that_does_not_pickle_is_run_and_checked(tmp_path):
    """A class made at run time with a lambda attribute: pickle cannot save it, so the GPU
    machine could not rebuild it; it still runs here and is checked against PyTorch."""
    model = type("Scaled", (torch.nn.Module,), {"forward": lambda self, x: self.f(x) * 2})()
    model.f = lambda x: torch.softmax(x, -1)
    record = lt.run(model, torch.randn(3, 17), target="lavapipe", folder=str(tmp_path), progress=lambda m: None)
    assert record["ok"] and record["passed"] and record["passed_torch"], record
    recipe = json.loads((tmp_path / "torch.json").read_text())["rebuild"]
    assert recipe["kind"] == "none" and "does not pickle" in recipe["why"], recipe
    with pytest.raises(RuntimeError, match="cannot be rebuilt here: Scaled does not pickle"):
        torch_replay.rebuild(str(tmp_path), "cpu")


def test_dynamic_sequence_length_runs_at_the_inputs_shape(tmp_path):
    model = tiny("bert")
    seq = torch.export.Dim("seq", min=2, max=32)
    record = lt.run(model, ids(11), target="lavapipe", folder=str(tmp_path),
                    dynamic_shapes={"input_ids": {1: seq}}, progress=lambda m: None)
    passes(record)
    assert "?" in (tmp_path / "export" / "model.mlir").read_text().split("func.func", 1)[1].split("\n")[0]
    assert record["outputs"][0]["name"] == "output 0"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """A BERT exported as a turbine user saves it: model.mlir, weights in model.irpa."""
    folder = tmp_path_factory.mktemp("bert")
    lt.export(tiny("bert"), (ids(),), str(folder), dynamic_shapes={"input_ids": {1: torch.export.Dim("s", max=32)}})
    return folder


def test_lds_run_takes_the_export_with_its_parameters_and_real_inputs(exported, tmp_path, lds_run):
    mlir, irpa = str(exported / "export" / "model.mlir"), str(exported / "parameters" / "model.irpa")
    np.save(tmp_path / "ids.npy", np.array([[3, 60, 0, 17, 5]], np.int64))
    proc = lds_run(mlir, "--target", "lavapipe", "--parameters", f"model={irpa}", "--input", f"0=@{tmp_path}/ids.npy")
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), proc.stdout + proc.stderr
    # Random ids of a given length are drawn within the 61-row table.
    proc = lds_run(mlir, "--target", "lavapipe", "--parameters", f"model={irpa}", "--input-shape", "0=1x9",
                   "--reference", "llvm-cpu")
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr


def test_the_export_runs_with_its_sequence_length_dynamic(exported, lds_run):
    """Compiled once with the sequence length dynamic (`--keep-dynamic`), as a server runs it:
    the head split, the keys' transpose (K^T, through LDS), the softmax and the LayerNorm after
    attention over the dynamic sequence are ldsopt's, and so are the embeddings with their
    LayerNorm: their dispatch reads the position ids as a slice of the sequence's length and
    the token type at each position id; the projections, matmuls of a dynamic M (the
    sequence); and attention's two batch matmuls, Q K^T of a dynamic M and N and P V of a
    dynamic M and K; and the pooler's matmul of the first token (a static slice of the
    dynamic binding, a GEMV of ldsopt-vector-distribute's): every dispatch ldsopt's."""
    irpa = str(exported / "parameters" / "model.irpa")
    for length in ("11", "5"):
        proc = lds_run(str(exported / "export" / "model.mlir"), "--target", "lavapipe", "--parameters",
                       f"model={irpa}", "--input-shape", f"0=1x{length}", "--keep-dynamic", "--require-ldsopt")
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), out
        assert f"module: compiled with its dims dynamic, run at 1x{length}" in out, out
        assert re.search(r"softmax_2xDxDxf32\S*: ldsopt: ldsopt-vector-distribute", out), out
        assert re.search(r"main_dispatch_0_reduction_Dx32_f32: ldsopt: ldsopt-vector-distribute", out), out
        assert len(re.findall(r"reduction_Dx32_f32: ldsopt: ldsopt-vector-distribute", out)) >= 2, out
        assert re.search(r"transpose_Dx2x16_f32: ldsopt: ldsopt-lower-elementwise", out), out
        assert re.search(r"transpose_Dx32_f32: ldsopt: ldsopt-preload-transposed", out), out
        projections = re.findall(r"batch_matmul_1xDx(?:32x32|48x32|32x48)_f32: ldsopt: ldsopt-matmul-lds$", out, re.M)
        assert len(projections) == 4, out
        assert re.search(r"batch_matmul_2xDxDx16_f32: ldsopt: ldsopt-matmul-lds$", out, re.M), out
        assert re.search(r"batch_matmul_2xDx16xD_f32: ldsopt: ldsopt-matmul-lds$", out, re.M), out
        assert re.search(r"matmul_1x32x32_f32: ldsopt: ldsopt-vector-distribute$", out, re.M), out


@pytest.mark.parametrize("args,message", [
    (["--input", "0=1x4xi64=1 2 61 3"], r"input 0 holds 61 at \[0, 2\], but it indexes dim 0 of a tensor<61x32xf32> "
                                         r"table.*values must lie in \[0, 61\).*refused"),
    (["--input", "0=1x4xi64=-1"], r"input 0 holds -1"),
    (["--input-range", "0=0:100", "--input-shape", "0=1x20"], r"values must lie in \[0, 61\)"),
    ([], r"argument 0 has dynamic dims \(1x\?\): give its value"),
])
def test_inputs_that_would_read_out_of_bounds_are_refused(exported, lds_run, args, message):
    irpa = str(exported / "parameters" / "model.irpa")
    proc = lds_run(str(exported / "export" / "model.mlir"), "--target", "lavapipe", "--parameters", f"model={irpa}",
                   *args)
    assert proc.returncode == 1 and re.search(message, proc.stderr), proc.stderr
    assert "Traceback" not in proc.stderr and "PASS" not in proc.stdout


def test_an_export_without_its_archive_is_refused(exported, lds_run):
    proc = lds_run(str(exported / "export" / "model.mlir"), "--target", "lavapipe", "--input-shape", "0=1x4")
    assert proc.returncode == 1 and "give it with --parameters model=FILE.irpa" in proc.stderr, proc.stderr


def test_inline_weights_export_runs_as_saved(tmp_path, lds_run):
    """turbine's default export: weights inline, as dense_resource util.globals and literals."""
    from iree.turbine import aot
    path = tmp_path / "bert.mlir"
    aot.export(tiny("bert").eval(), ids()).save_mlir(str(path))
    text = path.read_text()
    assert "util.global" in text and "dense_resource" in text
    proc = lds_run(str(path), "--target", "lavapipe")
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), proc.stdout + proc.stderr


def test_yolos_passes_every_dispatch_ldsopts():
    """YOLOS: its position embeddings resized bicubically (PyTorch's decomposition,
    run/torch_decompositions.py), and initializers whose dispatches share one executable, the
    constant that tells them apart pushed as i32 bits and bitcast to f32 in the kernel."""
    torch.manual_seed(0)
    model = transformers.YolosModel(transformers.YolosConfig(
        image_size=[32, 32], patch_size=8, num_detection_tokens=4, hidden_size=32, num_hidden_layers=1,
        num_attention_heads=2, intermediate_size=48))
    image = torch.randn(1, 3, 32, 32, generator=torch.Generator().manual_seed(2))
    record = lt.run(model, image, target="lavapipe", progress=lambda m: None)
    passes(record)
    all_by_ldsopt(record["dispatches"])
    assert any(d["name"].startswith("_initializer_") for d in record["dispatches"]), record["dispatches"]


def test_vit_mae_sorts_its_patches_in_lds():
    """ViT-MAE shuffles its patches by two argsorts, which IREE 3.13 cannot compile for Vulkan
    (lds-run --baseline fails): ldsopt-lower-sort takes both, and the model passes against the
    reference and PyTorch (its shuffling noise given as an input), every dispatch ldsopt's."""
    torch.manual_seed(0)
    model = transformers.ViTMAEModel(transformers.ViTMAEConfig(
        image_size=32, patch_size=8, mask_ratio=0.0, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=48))
    image = torch.randn(1, 3, 32, 32, generator=torch.Generator().manual_seed(2))
    noise = torch.rand(1, 16, generator=torch.Generator().manual_seed(5))
    record = lt.run(model, image, noise, target="lavapipe", progress=lambda m: None)
    passes(record)
    all_by_ldsopt(record["dispatches"])
    sorts = [d for d in record["dispatches"] if "_sort_" in d["name"]]
    assert len(sorts) == 2 and all(d["passes"] == ["ldsopt-lower-sort"] for d in sorts), record["dispatches"]


def test_a_users_own_export_of_gpt2_fails_with_the_remedy(tmp_path, lds_run):
    """An export made without ldsopt's rewrites still holds transformers' torch.diff, which IREE's
    import does not lower: lds-run says IREE's error and how to export instead, no traceback."""
    from iree.turbine import aot
    path = tmp_path / "gpt2.mlir"
    aot.export(tiny("gpt2").eval(), ids()).save_mlir(str(path))
    proc = lds_run(str(path), "--target", "lavapipe")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "torch.aten.diff" in proc.stderr and "torch_decompositions.applied()" in proc.stderr, proc.stderr


class DecoderLayer(torch.nn.Module):
    """One transformers decoder layer (Llama's with its rotary embedding computed in the
    program, or GPT-2's block) as a module of the hidden states alone: a layer at a width the
    tiny whole models do not reach, with no mask."""

    def __init__(self, kind: str):
        super().__init__()
        from transformers.models.gpt2 import modeling_gpt2 as gpt2
        from transformers.models.llama import modeling_llama as llama
        torch.manual_seed(0)
        self.kind = kind
        if kind == "llama":
            config = transformers.LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=1,
                                              num_attention_heads=4, num_key_value_heads=2, vocab_size=VOCAB,
                                              max_position_embeddings=64, attn_implementation="sdpa")
            self.layer = llama.LlamaDecoderLayer(config, layer_idx=0)
            self.rope = llama.LlamaRotaryEmbedding(config)
        else:
            config = transformers.GPT2Config(n_embd=64, n_layer=1, n_head=4, vocab_size=VOCAB, n_positions=64,
                                             attn_implementation="sdpa")
            self.layer = gpt2.GPT2Block(config, layer_idx=0)
        with torch.no_grad():  # norms other than a fresh one's 1 and 0
            for name, p in self.named_parameters():
                if "norm" in name or ".ln_" in name:
                    p.uniform_(0.5, 1.5)

    def forward(self, h):
        if self.kind == "llama":
            pos = torch.arange(h.shape[1]).unsqueeze(0)
            out = self.layer(h, position_embeddings=self.rope(h, pos), attention_mask=None, position_ids=pos)
        else:
            out = self.layer(h)
        return out[0] if isinstance(out, tuple) else out


FOLD = pipelines.program_pipeline(fold_norm=True)


@pytest.mark.parametrize("kind, program_pipeline", [("llama", driver.PROGRAM_PIPELINE), ("llama", FOLD),
                                                    ("gpt2", driver.PROGRAM_PIPELINE), ("gpt2", FOLD)])
def test_transformers_decoder_layers(kind, program_pipeline):
    """transformers' LlamaDecoderLayer (RoPE's frequencies computed in the program: an outer
    product stored transposed, which ldsopt-window-reduce once wrote as vectors along the
    wrong dim, 23% off) and GPT2Block, every dispatch ldsopt's, values the reference's and
    PyTorch's; with ldsopt-fold-norm, Llama's two RMSNorms (x ** 2 as fpowi, in f32) and
    GPT-2's two LayerNorms (read by its Conv1D through a 2-D view of the rows) fold into the
    products after them."""
    record = lt.run(DecoderLayer(kind).eval(), torch.randn(1, 16, 64), target="lavapipe", progress=lambda m: None,
                    program_pipeline=program_pipeline)
    passes(record)
    all_by_ldsopt(record["dispatches"])
    per_call = [d["name"] for d in record["dispatches"] if not d.get("at_load")]
    assert any("_reduction_" in n for n in per_call) == (program_pipeline != FOLD), per_call
