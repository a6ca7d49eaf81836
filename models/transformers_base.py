"""A transformers BERT, GPT-2 or Llama of BERT-base's width, random-initialized from its config
(no downloads), exported by iree-turbine and prepared for a GPU machine by `ldsopt.torch.prepare`.

    python models/transformers_base.py DIR [--model bert|gpt2|llama] [--layers 1] [--vocab 1024]
                                       [--batch 1] [--seq 128] [--dtype f32|f16] [--attn eager|sdpa]
                                       [--target cuda|cuda-sm90a]
    python -m ldsopt.run.torch_replay DIR      # there: the ldsopt module against the reference and
                                           # PyTorch, timed against eager, torch.compile, a CUDA graph

BERT-base's width: hidden 768, 12 heads, FFN 3072; GPT-2's block as GPT-2 small has it; Llama's
with 12 query heads over 4 key-value heads and a SwiGLU of 3072, as the suite's Llama block
(models/suite.py). One layer and a vocabulary of 1024 rows instead of 30522-50257 keep the
weights (`DIR/parameters/model.irpa`, the only copy) near 30 MB in f32. Needs the torch extra
(`pip install -e '.[torch]'`).
"""

from __future__ import annotations

import argparse
import os
import sys


def folder_bytes(folder: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(folder) for f in files)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--model", choices=["bert", "gpt2", "llama"], default="bert")
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--vocab", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--dtype", choices=["f32", "f16"], default="f32")
    ap.add_argument("--attn", choices=["eager", "sdpa"], default="eager",
                    help="transformers' attention: eager (matmuls and a softmax) or sdpa (an attention op)")
    ap.add_argument("--target", default="cuda", choices=["cuda", "cuda-sm90a", "lavapipe", "gfx942"])
    args = ap.parse_args(argv)

    import torch
    import transformers

    import ldsopt.torch as lt
    from ldsopt.run import driver

    common = {"vocab_size": args.vocab, "hidden_size": 768, "num_hidden_layers": args.layers, "num_attention_heads": 12,
              "attn_implementation": args.attn}
    positions = max(512, args.seq)
    if args.model == "bert":
        model_class, config = transformers.BertModel, transformers.BertConfig(
            intermediate_size=3072, max_position_embeddings=positions, **common)
    elif args.model == "gpt2":
        model_class, config = transformers.GPT2Model, transformers.GPT2Config(
            n_positions=positions, use_cache=False, **common)
    else:
        model_class, config = transformers.LlamaModel, transformers.LlamaConfig(
            num_key_value_heads=4, intermediate_size=3072, max_position_embeddings=positions, use_cache=False, **common)
    torch.manual_seed(0)
    model = model_class(config).to({"f32": torch.float32, "f16": torch.float16}[args.dtype])
    ids = torch.randint(0, args.vocab, (args.batch, args.seq), generator=torch.Generator().manual_seed(0))
    try:
        lt.prepare(model, ids, target=args.target, folder=args.folder)
    except driver.DriverError as e:
        print(f"{getattr(e, 'where', None) or 'transformers_base'}: error: {e}", file=sys.stderr)
        return 1
    print(f"PREPARED {args.folder} ({folder_bytes(args.folder) / 2**20:.1f} MiB) for {args.target}: "
          f"python -m ldsopt.run.torch_replay {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
