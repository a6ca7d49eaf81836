"""Models nobody here wrote, through ldsopt: transformers' vision, speech and text encoders and
its text decoders (causal, some of grouped keys or a sliding window), each random-initialized at a tiny size (one or two blocks, width 16-48, nothing downloaded),
exported by iree-turbine and run by `ldsopt.torch.run` on a target (lavapipe by default),
its values checked against the reference and against PyTorch. One line a model: values, the
dispatches ldsopt lowers of all, those left to IREE with the passes' reasons, or the first
line of the error where the model does not run (and whose it is: IREE's torch import, or the
compile of a program that `lds-run --baseline` fails too, is named as IREE's by its message).

    python bench/model_sweep.py OUT_DIR [--target lavapipe] [--models swin,levit,...]

Writes OUT_DIR/sweep.json and OUT_DIR/sweep.md. A wrong value is a FAIL line, not an error:
the sweep goes on to the next model. A model whose every output an output of zeros would pass
too (`value_check`'s `zeros_pass`: activations that vanish at this size) says so on its line:
its PASS proves nothing, and its weights are drawn wider (`initializer_range`) until it does not."""

from __future__ import annotations

import argparse
import json
import pathlib

import torch
import transformers as T

import ldsopt.torch as lt

SMALL = {"hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 48}
VOCAB = 61


def _ids(seq: int = 9) -> torch.Tensor:
    return torch.randint(0, VOCAB, (1, seq), generator=torch.Generator().manual_seed(1))


def _image(size: int = 32) -> torch.Tensor:
    return torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(2))


def _text(cls, config, **kw):
    return lambda: (cls(config(vocab_size=VOCAB, **kw, **SMALL)), (_ids(),))


def _vision(cls, config, small=True, **kw):
    return lambda: (cls(config(**kw, **(SMALL if small else {}))), (_image(),))


MODELS = {
    "gpt2": _text(T.GPT2Model, T.GPT2Config, n_positions=40, use_cache=False),
    "llama": _text(T.LlamaModel, T.LlamaConfig, num_key_value_heads=1, max_position_embeddings=40, use_cache=False),
    "mistral": _text(T.MistralModel, T.MistralConfig, num_key_value_heads=1, sliding_window=4,
                     max_position_embeddings=40, use_cache=False),
    "qwen2": _text(T.Qwen2Model, T.Qwen2Config, num_key_value_heads=1, max_position_embeddings=40, use_cache=False),
    "gemma": _text(T.GemmaModel, T.GemmaConfig, num_key_value_heads=1, head_dim=16, max_position_embeddings=40,
                   use_cache=False),
    "phi": _text(T.PhiModel, T.PhiConfig, max_position_embeddings=40, use_cache=False),
    "gpt_neox": _text(T.GPTNeoXModel, T.GPTNeoXConfig, max_position_embeddings=40, use_cache=False),
    "gptj": _text(T.GPTJModel, T.GPTJConfig, rotary_dim=8, n_positions=40, use_cache=False),
    "opt": _text(T.OPTModel, T.OPTConfig, ffn_dim=48, word_embed_proj_dim=32, max_position_embeddings=40,
                 use_cache=False),
    "falcon": _text(T.FalconModel, T.FalconConfig, use_cache=False),
    "bloom": _text(T.BloomModel, T.BloomConfig, use_cache=False),
    # a mixture of experts: its default grouped_mm experts are a custom op no importer lowers
    "mixtral": _text(T.MixtralModel, T.MixtralConfig, num_key_value_heads=1, num_local_experts=4, num_experts_per_tok=2,
                     max_position_embeddings=40, use_cache=False, experts_implementation="batched_mm"),
    "phi3": _text(T.Phi3Model, T.Phi3Config, num_key_value_heads=1, max_position_embeddings=40, use_cache=False,
                  pad_token_id=0),
    "qwen3": _text(T.Qwen3Model, T.Qwen3Config, num_key_value_heads=1, head_dim=16, max_position_embeddings=40,
                   use_cache=False),
    "gemma2": _text(T.Gemma2Model, T.Gemma2Config, num_key_value_heads=1, head_dim=16, sliding_window=4,
                    max_position_embeddings=40, use_cache=False),
    "stablelm": _text(T.StableLmModel, T.StableLmConfig, num_key_value_heads=1, max_position_embeddings=40,
                      use_cache=False),
    "olmo": _text(T.OlmoModel, T.OlmoConfig, num_key_value_heads=1, max_position_embeddings=40, use_cache=False),
    "gpt_bigcode": _text(T.GPTBigCodeModel, T.GPTBigCodeConfig, n_positions=40, use_cache=False),
    "gpt_neo": _text(T.GPTNeoModel, T.GPTNeoConfig, num_layers=1, num_heads=2, attention_types=[[["global"], 1]],
                     max_position_embeddings=40, use_cache=False),
    "bart": _text(T.BartModel, T.BartConfig, d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                  decoder_attention_heads=2, encoder_ffn_dim=48, decoder_ffn_dim=48, max_position_embeddings=40,
                  use_cache=False),
    "t5_encoder": _text(T.T5EncoderModel, T.T5Config, d_model=32, d_kv=16, d_ff=48, num_layers=1, num_heads=2),
    "deberta_v2": _text(T.DebertaV2Model, T.DebertaV2Config, max_position_embeddings=40),
    "squeezebert": _text(T.SqueezeBertModel, T.SqueezeBertConfig, embedding_size=32, max_position_embeddings=40,
                         q_groups=2, k_groups=2, v_groups=2, post_attention_groups=2, intermediate_groups=2,
                         output_groups=2),
    "convbert": _text(T.ConvBertModel, T.ConvBertConfig, embedding_size=32, max_position_embeddings=40),
    "albert": _text(T.AlbertModel, T.AlbertConfig, embedding_size=16, max_position_embeddings=32),
    "electra": _text(T.ElectraModel, T.ElectraConfig, embedding_size=16, max_position_embeddings=32),
    "xlm_roberta": _text(T.XLMRobertaModel, T.XLMRobertaConfig, max_position_embeddings=40),
    "distilbert": _text(T.DistilBertModel, T.DistilBertConfig, dim=32, n_layers=1, n_heads=2, hidden_dim=48,
                        max_position_embeddings=40),
    "mobilebert": _text(T.MobileBertModel, T.MobileBertConfig, embedding_size=16, intra_bottleneck_size=16,
                        true_hidden_size=16, num_feedforward_networks=1, max_position_embeddings=40),
    "roberta": _text(T.RobertaModel, T.RobertaConfig, max_position_embeddings=40),
    "mpnet": _text(T.MPNetModel, T.MPNetConfig, max_position_embeddings=40),
    "vit": _vision(T.ViTModel, T.ViTConfig, image_size=32, patch_size=8),
    "deit": _vision(T.DeiTModel, T.DeiTConfig, image_size=32, patch_size=8),
    "dinov2": _vision(T.Dinov2Model, T.Dinov2Config, image_size=32, patch_size=8),
    "clip_vision": _vision(T.CLIPVisionModel, T.CLIPVisionConfig, image_size=32, patch_size=8),
    "swin": _vision(T.SwinModel, T.SwinConfig, False, image_size=32, patch_size=4, embed_dim=16, depths=[1, 1],
                    num_heads=[2, 2], window_size=4),
    "swinv2": _vision(T.Swinv2Model, T.Swinv2Config, False, image_size=32, patch_size=4, embed_dim=16,
                      depths=[1, 1], num_heads=[2, 2], window_size=4),
    "resnet": _vision(T.ResNetModel, T.ResNetConfig, False, embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
                      layer_type="basic"),
    "segformer": _vision(T.SegformerModel, T.SegformerConfig, False, num_encoder_blocks=2, depths=[1, 1],
                         sr_ratios=[2, 1], hidden_sizes=[16, 32], patch_sizes=[7, 3], strides=[4, 2],
                         num_attention_heads=[1, 2], mlp_ratios=[2, 2]),
    "regnet": _vision(T.RegNetModel, T.RegNetConfig, False, embedding_size=8, hidden_sizes=[16, 32], depths=[1, 1],
                      groups_width=8),
    "poolformer": _vision(T.PoolFormerModel, T.PoolFormerConfig, False, hidden_sizes=[16, 32], depths=[1, 1],
                          num_encoder_blocks=2, patch_sizes=[7, 3], strides=[4, 2], padding=[2, 1]),
    "levit": _vision(T.LevitModel, T.LevitConfig, False, image_size=32, hidden_sizes=[32, 48],
                     num_attention_heads=[2, 2], depths=[1, 1], key_dim=[8, 8], mlp_ratio=[2, 2],
                     attention_ratio=[2, 2], down_ops=[["Subsample", 8, 2, 4, 2, 2]], initializer_range=0.15),
    "pvt": _vision(T.PvtModel, T.PvtConfig, False, image_size=32, num_encoder_blocks=2, depths=[1, 1],
                   sequence_reduction_ratios=[2, 1], hidden_sizes=[16, 32], patch_sizes=[4, 2], strides=[4, 2],
                   num_attention_heads=[1, 2], mlp_ratios=[2, 2]),
    "glpn": _vision(T.GLPNModel, T.GLPNConfig, False, num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1],
                    hidden_sizes=[16, 32], patch_sizes=[7, 3], strides=[4, 2], num_attention_heads=[1, 2],
                    mlp_ratios=[2, 2]),
    "convnextv2": _vision(T.ConvNextV2Model, T.ConvNextV2Config, False, hidden_sizes=[16, 32], depths=[1, 1],
                          num_stages=2),
    "focalnet": _vision(T.FocalNetModel, T.FocalNetConfig, False, image_size=32, patch_size=4, embed_dim=16,
                        depths=[1, 1], focal_levels=[2, 2], focal_windows=[3, 3]),
    "bit": _vision(T.BitModel, T.BitConfig, False, embedding_size=16, hidden_sizes=[32, 64], depths=[1, 1],
                   layer_type="bottleneck", num_groups=8),
    "mobilenet_v1": _vision(T.MobileNetV1Model, T.MobileNetV1Config, False, image_size=32, depth_multiplier=0.25,
                            initializer_range=0.4),
    "mobilevit": _vision(T.MobileViTModel, T.MobileViTConfig, False, image_size=32, hidden_sizes=[16, 24, 32],
                         neck_hidden_sizes=[8, 8, 16, 16, 24, 32, 64], num_attention_heads=2, initializer_range=0.5),
    "beit": _vision(T.BeitModel, T.BeitConfig, image_size=32, patch_size=8),
    "yolos": _vision(T.YolosModel, T.YolosConfig, image_size=[32, 32], patch_size=8, num_detection_tokens=4),
    # the patches' shuffling noise passed in (else drawn in the forward, unlike PyTorch's draw)
    "vit_mae": lambda: (T.ViTMAEModel(T.ViTMAEConfig(image_size=32, patch_size=8, mask_ratio=0.0, **SMALL)),
                        (_image(), torch.rand(1, 16, generator=torch.Generator().manual_seed(5)))),
    "whisper_encoder": lambda: (T.WhisperModel(T.WhisperConfig(
        d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2,
        encoder_ffn_dim=48, decoder_ffn_dim=48, num_mel_bins=16, max_source_positions=16, vocab_size=VOCAB,
        pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)).encoder,
        (torch.randn(1, 16, 32, generator=torch.Generator().manual_seed(3)),)),
    "wav2vec2": lambda: (T.Wav2Vec2Model(T.Wav2Vec2Config(
        **SMALL, conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
        num_conv_pos_embedding_groups=4)), (torch.randn(1, 400, generator=torch.Generator().manual_seed(4)),)),
}


def sweep(name: str, target: str) -> dict:
    """One model's line (module doc)."""
    torch.manual_seed(0)
    model, args = MODELS[name]()
    try:
        r = lt.run(model.eval(), *args, target=target, progress=lambda *a: None)
    except Exception as e:  # the model does not run: its error's first line, whoever's it is
        lines = [x.strip() for x in str(e).splitlines() if "error:" in x] or str(e).splitlines()[:1]
        return {"model": name, "ran": False, "error": f"{type(e).__name__}: {lines[0][:300] if lines else ''}"}
    dispatches = r.get("dispatches") or []
    left = [{"name": d["name"], "missed": d.get("missed") or {}} for d in dispatches if not d["passes"]]
    outputs = r.get("outputs") or []
    return {"model": name, "ran": True, "values": bool(r.get("passed")), "torch": bool(r.get("passed_torch")),
            "zeros_pass": bool(outputs) and all(o.get("zeros_pass") for o in outputs),
            "dispatches": len(dispatches), "ldsopt": len(dispatches) - len(left), "left": left}


def _why(missed: dict[str, str]) -> str:
    """The reason of the pass that takes the most kinds of dispatch (the elementwise one, the
    last to look), else of the last pass that said one."""
    return missed.get("ldsopt-lower-elementwise") or (list(missed.values())[-1] if missed else "")


def markdown(rows: list[dict], target: str) -> str:
    out = [f"# Models nobody here wrote, on {target} (`bench/model_sweep.py`)", "",
           "| model | values (reference / torch) | ldsopt's dispatches | left to IREE, or the error |", "|---|---|---|---|"]
    for r in rows:
        if not r["ran"]:
            out.append(f"| {r['model']} | - | - | {r['error'].replace('|', '/')} |")
            continue
        verdict = f"{'PASS' if r['values'] else 'FAIL'} / {'PASS' if r['torch'] else 'FAIL'}"
        if r.get("zeros_pass"):
            verdict += " (vacuous: zeros would pass)"
        left = "; ".join(f"`{x['name']}` ({_why(x['missed'])})".replace("|", "/") for x in r["left"])
        out.append(f"| {r['model']} | {verdict} | {r['ldsopt']} of {r['dispatches']} | {left} |")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--target", default="lavapipe")
    ap.add_argument("--models", default=",".join(MODELS), help="comma-separated, of: " + ", ".join(MODELS))
    a = ap.parse_args()
    names = [m for m in a.models.split(",") if m]
    unknown = [m for m in names if m not in MODELS]
    if unknown:
        ap.error(f"unknown models: {', '.join(unknown)}")
    a.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in names:
        rows.append(sweep(name, a.target))
        print(json.dumps(rows[-1])[:400], flush=True)
        (a.out / "sweep.json").write_text(json.dumps(rows, indent=1) + "\n")
        (a.out / "sweep.md").write_text(markdown(rows, a.target))


if __name__ == "__main__":
    main()
