"""Timing on the GPU machine, shared by the replays of lds-bench (bench_replay: dispatch
benchmark modules; program_bench: whole programs): iree-benchmark-module runs and their JSON,
PyTorch timed the same way between CUDA events, and the report files.

Runs where only the IREE runtime wheel is installed: the standard library, plus torch when it
imports.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import statistics
import subprocess
import sys
import time
import types

from ldsopt.cli import output_file
from ldsopt.run.iree_tools import tool

VARIANTS = ("ldsopt", "iree-default")
TORCH_DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}
COPY_BYTES = 1 << 30
TIME_UNITS_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}

# The IREE runtime's ways to run a whole program, by device: iree-benchmark-module flags
# (the CUDA HAL's, from `iree-run-module --help`). The runtime's own defaults are "default";
# lds-bench PROGRAM times each and reports the fastest, named.
RUNTIME_MODES = {
    "cuda": {"default": (), "graphs": ("--cuda_use_streams=false",), "no tracing": ("--cuda_tracing=0",),
             "graphs, no tracing": ("--cuda_use_streams=false", "--cuda_tracing=0"),
             "inline, no tracing": ("--cuda_allow_inline_execution=true", "--cuda_tracing=0")},
}


def say(msg: str) -> None:
    print(msg, flush=True)


def load_script(path: str, name: str) -> types.ModuleType:
    """A Python file by path, as module `name` (a script folder's file, or its copy in a
    prepared folder)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def batch_size(nbytes: int, target: str, flops: int = 0) -> int:
    """Dispatches per batch: about 2 ms of work at 4 TB/s (or 500 TFLOP/s for a compute-bound
    case) on a GPU, so launch and the batch's own overhead vanish; 2 on lavapipe (a CPU),
    which is only a smoke test."""
    if target == "lavapipe":
        return 2
    if flops:
        return max(10, min(1000, int(1e12 // flops)))
    return max(10, min(1000, int(8e9 // max(nbytes, 1))))


def run_benchmark_module(vmfb: str, device: str, batch: int, repetitions: int, min_time: str,
                         timeout: float = 120) -> dict[str, list[float]]:
    """Per benchmark function of the module, each repetition's time per dispatch in us."""
    cmd = [tool("iree-benchmark-module"), f"--device={device}", f"--module={vmfb}", f"--batch_size={batch}",
           f"--benchmark_repetitions={repetitions}", f"--benchmark_min_time={min_time}",
           "--benchmark_format=json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-benchmark-module failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return parse_benchmark_json(proc.stdout)


def parse_benchmark_json(text: str) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    for b in json.loads(text)["benchmarks"]:
        if b.get("run_type", "iteration") == "iteration":
            name = b.get("run_name", b["name"]).split("/")[0].removeprefix("BM_")
            times.setdefault(name, []).append(b["real_time"] * TIME_UNITS_US[b["time_unit"]])
    return times


class TorchTimer:
    """Times PyTorch callables like the IREE batches: `batch` calls back to back between
    two CUDA events, per call, median over `repetitions`."""

    def __init__(self, repetitions: int):
        import torch
        self.torch = torch
        self.repetitions = repetitions
        self.gpu = torch.cuda.get_device_name()

    def _warm_up(self, fn) -> None:
        for _ in range(3):
            fn()
        self.torch.cuda.synchronize()

    def time_us(self, fn, batch: int) -> float:
        torch = self.torch
        self._warm_up(fn)
        times = []
        for _ in range(self.repetitions):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(batch):
                fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1e3 / batch)
        return statistics.median(times)

    def awaited_us(self, fn, calls: int) -> float:
        """Host wall time of one call awaited before the next (`fn()`, then a synchronize),
        as `iree-benchmark-module` times a synchronous function: per call, median over
        `repetitions` runs of `calls`."""
        torch = self.torch
        self._warm_up(fn)
        times = []
        for _ in range(self.repetitions):
            start = time.perf_counter()
            for _ in range(calls):
                fn()
                torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1e6 / calls)
        return statistics.median(times)

    def copy_bandwidth(self) -> float:
        """Device-to-device copy bandwidth in bytes/s (read + written)."""
        x = self.torch.empty(COPY_BYTES // 4, dtype=self.torch.float32, device="cuda")
        us = self.time_us(x.clone, 20)
        del x
        return 2 * COPY_BYTES / (us * 1e-6)

    def case_us(self, case, batch: int) -> float:
        torch = self.torch
        args = [torch.randn(o.shape, device="cuda", dtype=getattr(torch, TORCH_DTYPES[o.dtype])) for o in case.inputs]
        out = case.torch(*args)
        if tuple(out.shape) != case.output.shape or not out.is_contiguous():
            raise RuntimeError(f"the PyTorch equivalent returned {tuple(out.shape)} "
                               f"(contiguous: {out.is_contiguous()}), expected {case.output.shape}")
        return self.time_us(lambda: case.torch(*args), batch)


def gpu_name(timer: TorchTimer | None, device: str) -> str:
    if timer is not None:
        return timer.gpu
    if device == "cuda":
        try:
            return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                                  text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "unknown CUDA GPU"
    return device


def write_report(report: dict, out: str, stem: str, to_markdown, to_plot) -> None:
    """OUT/STEM.json (the report), STEM.md (`to_markdown`'s table) and STEM.png (`to_plot`'s)."""
    output_file.write_json(os.path.join(out, f"{stem}.json"), report)
    output_file.write(os.path.join(out, f"{stem}.md"), to_markdown(report))
    if not to_plot(report, os.path.join(out, f"{stem}.png")):
        say(f"{stem}.png skipped: matplotlib is not installed")


def save_figure(fig, path: str) -> None:
    """Writes a matplotlib figure as PNG through `output_file`, and closes it."""
    import matplotlib.pyplot as plt
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=120)
    plt.close(fig)
    output_file.write(path, png.getvalue())
