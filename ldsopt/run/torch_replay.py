"""The run half of `ldsopt.torch`: run a folder it prepared, check the ldsopt module's outputs
against the reference and against PyTorch's, and on CUDA time it against PyTorch.

    python -m ldsopt.run.torch_replay DIR [--no-time] [--repetitions N] [--batch-size N]

Needs the IREE runtime and numpy, and torch for what PyTorch computes (so it runs on a GPU
machine without the compiler). In one run:
- the ldsopt module's outputs against the folder's reference (`lds_replay.replay`: llvm-cpu or
  numpy, in f64) and against PyTorch's outputs computed where the folder was prepared, at
  the same tolerances and element scales (`value_check.compare`);
- on CUDA: the PyTorch module rebuilt (`rebuild`: from its transformers config or its
  weightless pickle, the weights from the folder's parameter archive), its eager output on
  the GPU checked against the same reference; then the time of one call, median of
  `--repetitions`, each of `--batch-size` calls back to back between two CUDA events: eager,
  `torch.compile`d, one CUDA graph of the eager call replayed; and the ldsopt and IREE
  default modules by `iree-benchmark-module` on the same inputs and parameters.
Writes DIR/torch_results.json and prints a summary whose last line starts PASS or FAIL.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

from ldsopt.measure import program_bench
from ldsopt.run import replay as lds_replay
from ldsopt.run import value_check
from ldsopt.run.tensor_file import FLOATS, Tensor, as_float64


def _record(folder: str) -> dict:
    with open(os.path.join(folder, "torch.json")) as f:
        return json.load(f)


def _manifest(folder: str) -> dict:
    with open(os.path.join(folder, "manifest.json")) as f:
        return json.load(f)


def against_torch(outputs: list[np.ndarray], folder: str, man: dict, what: str) -> list[value_check.Comparison]:
    """`outputs` (as the module's output types store them) against PyTorch's outputs that
    `ldsopt.torch.export` saved, at the manifest's tolerances and its elements' scales (the
    sensitivities of the reference in the ldsopt subfolder, `man`'s)."""
    comps = []
    scales = man.get("sensitivity", [None] * len(man["outputs"]))
    for i, (out, t, tol, scale) in enumerate(zip(outputs, man["outputs"], man["tolerances"], scales)):
        ref = np.load(os.path.join(folder, f"torch_expected{i}.npy")).astype(np.float64)
        dtype = t["dtype"]
        sensitivity = Tensor(**scale).load(os.path.join(folder, "ldsopt")) if scale else None
        comps.append(value_check.compare(out, ref.reshape(out.shape), dtype, tol["atol"], tol["rtol"], f"{what} {i}",
                                         ref_dtype="f64" if dtype in FLOATS else None, sensitivity=sensitivity))
    return comps


def check(folder: str) -> dict:
    """The ldsopt module run against the reference and PyTorch's outputs (module docstring)."""
    sub = os.path.join(folder, "ldsopt")
    result = lds_replay.replay(sub)
    man = _manifest(sub)
    outs = [Tensor(**t).load(sub) for t in man["outputs"]]
    torch_comps = against_torch(outs, folder, man, "output")
    result["against_torch"] = [c.__dict__ for c in torch_comps]
    result["passed_torch"] = all(c.ok for c in torch_comps)
    return result


def _state_dict(folder: str, record: dict) -> dict:
    """The module's parameters and persistent buffers from the folder's archive (turbine's
    metadata gives each one's type and shape)."""
    import torch
    from iree import runtime
    index = runtime.ParameterIndex()
    index.load(os.path.join(folder, record["parameters"]["file"]))
    out = {}
    for key, entry in index.items():
        a = runtime.parameter_index_entry_as_numpy_ndarray(entry)
        out[key] = torch.from_numpy(np.array(a)) if a.dtype.name != "bfloat16" else \
            torch.from_numpy(np.array(a).view(np.uint16).astype(np.int32) << 16).view(torch.float32).to(torch.bfloat16)
    return out


def rebuild(folder: str, device: str):
    """The PyTorch module of a folder prepared by `ldsopt.torch.prepare`, on `device`."""
    import torch
    record = _record(folder)
    recipe = record["rebuild"]
    if recipe["kind"] == "none":
        raise RuntimeError(f"PyTorch's module cannot be rebuilt here: {recipe['why']}")
    state = _state_dict(folder, record)
    if recipe["kind"] == "transformers":
        import transformers
        config = transformers.AutoConfig.for_model(**recipe["config"])
        if recipe.get("attn_implementation"):
            config._attn_implementation = recipe["attn_implementation"]
        model = getattr(transformers, recipe["class"])(config)
        if recipe.get("dtype"):
            model = model.to(getattr(torch, recipe["dtype"]))
        missing, unexpected = model.load_state_dict(state, strict=False)
        persistent = set(model.state_dict())
        if [m for m in missing if m in persistent] or unexpected:
            raise RuntimeError(f"the rebuilt {recipe['class']} does not take the exported weights (missing "
                               f"{missing[:3]}, unexpected {unexpected[:3]}): another transformers version?")
    else:
        model = torch.load(os.path.join(folder, recipe["file"]), weights_only=False)
        model.load_state_dict(state, strict=True, assign=True)
    return model.eval().to(device)


def _inputs(folder: str):
    import torch
    sub = os.path.join(folder, "ldsopt")
    man = _manifest(sub)
    return [torch.from_numpy(as_float64(Tensor(**t).load(sub), t["dtype"]).astype(np.float32)
                             if t["dtype"] == "bf16" else Tensor(**t).load(sub)) for t in man["inputs"]], man


def time_all(folder: str, repetitions: int = 10, batch: int = 20, say=print) -> dict:
    """On CUDA: PyTorch eager, torch.compile and a CUDA graph, and the ldsopt and IREE modules
    (module docstring); each entry {"us": ...} or {"error": ...}. A module that could not be
    rebuilt (`ldsopt.torch`'s recipe "none") has {"error": why} under "PyTorch" instead."""
    recipe = _record(folder)["rebuild"]
    if recipe["kind"] == "none":
        out = {"PyTorch": {"error": f"not rebuilt: {recipe['why']}"}}
        say(f"PyTorch: not timed: {recipe['why']}")
    else:
        out = _time_torch(folder, repetitions, batch, say)
    for name, sub in (("ldsopt", "ldsopt"), ("IREE default", "iree")):
        try:
            b = program_bench.benchmark(os.path.join(folder, sub), repetitions)
            out[name] = {"us": b["us"], "ldsopt_dispatches": b["ldsopt_dispatches"],
                         "total_dispatches": b["total_dispatches"]}
            say(f"{name}: {b['us']:.1f} us")
        except Exception as e:  # noqa: BLE001
            out[name] = {"error": f"{type(e).__name__}: {e}"}
            say(f"{name}: error: {e}")
    return out


def _time_torch(folder: str, repetitions: int, batch: int, say) -> dict:
    """PyTorch's side of `time_all`: the rebuilt module's eager values and its times."""
    import torch
    from ldsopt.measure.timing import TorchTimer

    model = rebuild(folder, "cuda")
    args, man = _inputs(folder)
    args = [a.to("cuda") for a in args]
    out = {}
    with torch.inference_mode():
        record = _record(folder)
        npos = len(record["names"]) - len(record.get("kwargs", []))
        kwargs = dict(zip(record.get("kwargs", []), args[npos:]))
        args = args[:npos]
        eager = [t for t in torch.utils._pytree.tree_leaves(model(*args, **kwargs)) if isinstance(t, torch.Tensor)]
        comps = against_torch([t.float().cpu().numpy() if t.dtype == torch.bfloat16 else t.cpu().numpy()
                               for t in eager], folder, man, "PyTorch CUDA output")
        out["eager_values"] = {"passed": all(c.ok for c in comps), "max_abs": max(c.max_abs for c in comps)}
        timer = TorchTimer(repetitions)
        out["gpu"] = timer.gpu
        runs = {"eager": lambda: model(*args, **kwargs)}
        try:
            compiled = torch.compile(model)
            compiled(*args, **kwargs)
            runs["torch.compile"] = lambda: compiled(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - a compile failure is a result, not a crash
            out["torch.compile"] = {"error": f"{type(e).__name__}: {e}"}
        try:
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                for _ in range(3):
                    model(*args, **kwargs)
            torch.cuda.current_stream().wait_stream(stream)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                model(*args, **kwargs)
            runs["CUDA graph"] = graph.replay
        except Exception as e:  # noqa: BLE001
            out["CUDA graph"] = {"error": f"{type(e).__name__}: {e}"}
            # A forward that copies host tensors cannot be captured by hand; torch.compile's
            # "reduce-overhead" mode captures what it compiled in CUDA graphs (its cudagraph
            # trees), which is how a PyTorch user gets one then.
            try:
                graphed = torch.compile(model, mode="reduce-overhead")
                for _ in range(3):
                    graphed(*args, **kwargs)
                runs["torch.compile reduce-overhead (CUDA graphs)"] = lambda: graphed(*args, **kwargs)
            except Exception as e2:  # noqa: BLE001
                out["torch.compile reduce-overhead (CUDA graphs)"] = {"error": f"{type(e2).__name__}: {e2}"}
        for name, fn in runs.items():
            out[name] = {"us": timer.time_us(fn, batch)}
            say(f"{name}: {out[name]['us']:.1f} us")
    return out


def replay(folder: str, time: bool = True, say=print, **timing) -> dict:
    """Checks (and on CUDA, with `time`, times) a prepared folder; writes torch_results.json."""
    result = check(folder)
    text, ok = report(result)
    say(text)
    if time:
        result["times"] = time_all(folder, say=say, **timing)
        ok = ok and result["times"].get("eager_values", {"passed": True})["passed"]
    result["ok"] = ok
    with open(os.path.join(folder, "torch_results.json"), "w") as f:
        json.dump(result, f, indent=1, default=str)
    return result


def report(result: dict) -> tuple[str, bool]:
    """lds-run's report of the ldsopt module, with the comparison to PyTorch's outputs."""
    text, ok = lds_replay.format_report(result)
    lines = text.splitlines()
    verdict = lines.pop()
    for c in result["against_torch"]:
        lines.append(f"{c['name']} against PyTorch's: max abs error {c['max_abs']:.3g}, max rel error "
                     f"{c['max_rel']:.3g}; {'within' if c['ok'] else 'OUT OF'} the tolerance")
    if not result["passed_torch"]:
        verdict = verdict.replace("PASS", "FAIL", 1) + ("; " if ":" in verdict else ": ") + \
            "outputs differ from PyTorch's"
    return "\n".join(lines + [verdict]), ok and result["passed_torch"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldsopt.run.torch_replay", description=__doc__.split("\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--no-time", action="store_true", help="check the values only")
    ap.add_argument("--repetitions", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=20, help="calls between two CUDA events")
    args = ap.parse_args(argv)
    try:
        device = _manifest(os.path.join(args.folder, "ldsopt"))["device"]
        result = replay(args.folder, time=device == "cuda" and not args.no_time,
                        repetitions=args.repetitions, batch=args.batch_size)
    except (OSError, RuntimeError, KeyError, ValueError) as e:
        print(f"{args.folder}: error: {e}", file=sys.stderr)
        return 1
    if "times" in result:
        t = result["times"]
        us = {k: v["us"] for k, v in t.items() if isinstance(v, dict) and "us" in v}
        if "ldsopt" in us:
            print("speed of ldsopt: " + ", ".join(f"{us[k] / us['ldsopt']:.2f}x {k}" for k in us if k != "ldsopt"))
        print("times (us per call): " + ", ".join(f"{k} {v:.1f}" for k, v in us.items()) + "; median of "
              f"{args.repetitions}" + "".join(f"; {k}: {v['error']}" for k, v in t.items()
                                              if isinstance(v, dict) and "error" in v))
    print(("PASS" if result["ok"] else "FAIL") + f" {args.folder}")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
