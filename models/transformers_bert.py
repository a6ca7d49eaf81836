"""A transformers BERT of BERT-base's width, random-initialized from its config (no downloads),
exported by iree-turbine and prepared for a GPU machine by `ldsopt.torch.prepare`.

    python models/transformers_bert.py DIR [--layers 1] [--vocab 1024] [--batch 1] [--seq 128]
                                       [--dtype f32|f16] [--attn eager|sdpa] [--target cuda]
    python -m ldsopt.run.torch_replay DIR      # there: the ldsopt module against the reference and
                                           # PyTorch, timed against eager, torch.compile, a CUDA graph

BERT-base: hidden 768, 12 heads, FFN 3072, 512 positions; one layer and a vocabulary of
1024 rows instead of 30522 keep the weights (`DIR/parameters/model.irpa`, the only copy) near
30 MB in f32. Needs the torch extra (`pip install -e '.[torch]'`).
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
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--vocab", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--dtype", choices=["f32", "f16"], default="f32")
    ap.add_argument("--attn", choices=["eager", "sdpa"], default="eager",
                    help="transformers' attention: eager (matmuls and a softmax) or sdpa (an attention op)")
    ap.add_argument("--target", default="cuda", choices=["cuda", "lavapipe", "gfx942"])
    args = ap.parse_args(argv)

    import torch
    import transformers

    import ldsopt.torch as lt
    from ldsopt.run import driver

    config = transformers.BertConfig(vocab_size=args.vocab, hidden_size=768, num_hidden_layers=args.layers,
                                     num_attention_heads=12, intermediate_size=3072, max_position_embeddings=512,
                                     attn_implementation=args.attn)
    torch.manual_seed(0)
    model = transformers.BertModel(config).to({"f32": torch.float32, "f16": torch.float16}[args.dtype])
    ids = torch.randint(0, args.vocab, (args.batch, args.seq), generator=torch.Generator().manual_seed(0))
    try:
        lt.prepare(model, ids, target=args.target, folder=args.folder)
    except driver.DriverError as e:
        print(f"{getattr(e, 'where', None) or 'transformers_bert'}: error: {e}", file=sys.stderr)
        return 1
    print(f"PREPARED {args.folder} ({folder_bytes(args.folder) / 2**20:.1f} MiB) for {args.target}: "
          f"python -m ldsopt.run.torch_replay {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
