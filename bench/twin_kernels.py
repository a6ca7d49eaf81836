"""Where the PyTorch twin of a prepared model spends its time: its layers stacked as the
folder's 12-layer call (`lds-bench MODEL --stack N --prepare DIR`), captured in one CUDA graph
as program_bench times it, replayed under torch.profiler; each kernel's launches a layer and
mean duration, and the kernel sum a layer (to set beside the graph's time a layer: the rest
is the graph's launch gaps).

    python3 bench/twin_kernels.py DIR [--replays 10]      # on the GPU machine
"""

import argparse
import collections
import json
import os

from ldsopt.measure import program_bench, timing
from ldsopt.run.tensor_file import Tensor


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--replays", type=int, default=10)
    args = ap.parse_args()
    import torch
    from torch.profiler import ProfilerActivity, profile

    with open(os.path.join(args.folder, "manifest.json")) as f:
        man = json.load(f)
    twin, layers = man["twin"], man.get("stack", {}).get("layers", 1)
    with open(os.path.join(args.folder, man["whole"]["ldsopt"], "manifest.json")) as f:
        x = Tensor(**json.load(f)["inputs"][0])
    twins = timing.load_script(os.path.join(args.folder, twin["script"]), "ldsopt_torch_twins")
    dtype = timing.TORCH_DTYPES[x.dtype]
    layer = getattr(twins, twin["function"])(program_bench.twin_weights(args.folder, twin), "cuda", dtype,
                                             **twin["kwargs"])
    xt = torch.randn(*x.shape, device="cuda", dtype=getattr(torch, dtype))

    def run(h):
        for _ in range(layers):
            h = layer(h)
        return h

    with torch.inference_mode():
        graph, _ = program_bench.captured(torch, lambda: run(xt))
        for _ in range(20):
            graph.replay()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(args.replays):
                graph.replay()
            torch.cuda.synchronize()
    durations = collections.defaultdict(list)
    for e in prof.events():
        if e.device_type.name == "CUDA":
            durations[e.name].append(e.time_range.elapsed_us())
    per_layer = args.replays * layers
    total = 0.0
    for name, ds in sorted(durations.items(), key=lambda kv: -sum(kv[1])):
        total += sum(ds) / per_layer
        print(f"{len(ds) / per_layer:5.2f}/layer {sum(ds) / len(ds):7.2f} us  {name[:120]}")
    launches = sum(len(ds) for ds in durations.values()) / per_layer
    print(f"kernels a layer: {launches:.1f}, kernel sum a layer {total:.1f} us")


if __name__ == "__main__":
    main()
