"""Calls of a prepared module issued back to back, as a model's loop or a server issues them.

The folder's function, compiled with IREE's coarse-fences ABI (`driver.ASYNC_CALLS`; `lds-bench
--stack` prepares ldsopt's stack so, `ldsopt-async-stack`), is invoked N times in a row on its
inputs in this process, each call waiting in the device's queue for the one before (its wait
fence the previous call's signal) while the host goes on to issue the next; the time is from
the first issue to the last call's completion, over N. The host's work of a call (arguments,
invocation, queue submissions) then overlaps the calls before it on the GPU, as CUDA graph
replays issued back to back do; iree-benchmark-module awaits every call instead. Every call's
results are held until the last completes (no buffer is released while the queue may use it).
Where the function takes its storage from the caller (ldsopt/run/caller_storage.py, as
`lds-bench --stack` prepares it), each call gets output buffers (from a ring, `caller_buffers`)
and all calls one transient buffer, allocated before the timing (the queue runs the calls one
after another): the calls then allocate and free nothing, which in IREE 3.13's CUDA HAL would
wait on the host for the call's own kernels.

    python -m ldsopt.measure.back_to_back FOLDER [--mode MODE] [--calls N] [--independent | --both]
                                         [--against AWAITED]

prints a JSON line (`--both`: one a way, the module loaded once). `--against` names a folder of the same program compiled to be awaited (the
stack's `ldsopt-stack`): its call, in the same process and mode, must return the last call's
outputs bit for bit (the same kernels on the same inputs), else the run fails: a figure of
calls that overlapped or raced on the GPU is not a call's time.

A function without fences is refused with an error (its folder was not prepared so).
Needs the IREE runtime; the mode's flags (timing.RUNTIME_MODES) are the process's, so
`program_bench` runs this in a process of its own per mode.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from ldsopt.measure import timing
from ldsopt.run import caller_storage
from ldsopt.run.tensor_file import Tensor, nbytes

COARSE_FENCES = "coarse-fences"


class NotAsync(ValueError):
    """The folder's function cannot be issued back to back: it takes no fences, or storage of
    no constant size."""


def load(folder: str, flags: tuple[str, ...] = ()):
    """(device, VM context, the manifest's function, its inputs as device arrays, manifest) of a
    prepared folder (its module and parameter archives), the runtime `flags` parsed first."""
    import iree.runtime as rt

    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    if flags:
        rt.flags.parse_flags(*flags)
    config = rt.Config(man["device"])
    modules = []
    for r in man.get("parameters", []):
        index = rt.ParameterIndex()
        index.load(os.path.join(folder, r["file"]))
        modules.append(rt.create_io_parameters_module(config.vm_instance, index.create_provider(scope=r["scope"])))
    main = rt.VmModule.mmap(config.vm_instance, os.path.join(folder, man["vmfb"]))
    modules += [rt.create_hal_module(config.vm_instance, config.device), main]
    context = rt.VmContext(config.vm_instance, modules=modules)
    function = main.lookup_function(man["function"])
    args = [rt.asdevicearray(config.device, Tensor(**t).load(folder)) for t in man["inputs"]]
    return config.device, context, function, args, man


def invoke(context, function, args, *more):
    """The function's results (a VmVariantList) called on device arrays `args`, then `more`
    (buffers, fences: anything with a VM ref)."""
    import iree.runtime as rt

    inputs = rt.VmVariantList(len(args) + len(more))
    for ref in [a._buffer_view.ref for a in args] + [m.ref for m in more]:
        inputs.push_ref(ref)
    results = rt.VmVariantList(1)
    context.invoke(function, inputs, results)
    return results


def calls(folder: str, n: int, flags: tuple[str, ...] = (), warmup: int = 3,
          independent: bool = False) -> tuple[float, list[np.ndarray]]:
    """Seconds a call of `n` issued back to back (after `warmup` calls, awaited), and the last
    call's outputs. `independent`: no call waits for another (each signals a semaphore of its
    own; the device's queue alone orders them), where by default each waits for the one before."""
    return ways(folder, n, flags, warmup, (independent,))[independent]


def ways(folder: str, n: int, flags: tuple[str, ...] = (), warmup: int = 3,
         independent: tuple[bool, ...] = (False, True)) -> dict[bool, tuple[float, list[np.ndarray]]]:
    """`calls` each way of `independent`, one after the other, the module loaded once."""
    import iree.runtime as rt

    device, context, function, args, man = load(folder, flags)
    if function.reflection.get("iree.abi.model") != COARSE_FENCES:
        raise NotAsync(f"{folder}: its function {function.name} takes no fences; prepare it with "
                       f"IREE's async-external execution model (lds-bench --stack makes ldsopt-async-stack)")
    storage = caller_buffers(device, function, man, warmup + n)  # a way's calls all end before the next way's
    out = {}
    for free in independent:
        chain = device.create_semaphore(0)

        def issue(i: int) -> tuple:  # (its results, the fence it signals)
            if free:
                wait, done = rt.HalFence(1), rt.HalFence.create_at(device.create_semaphore(0), 1)
            else:
                wait, done = rt.HalFence.create_at(chain, i), rt.HalFence.create_at(chain, i + 1)
            return invoke(context, function, args, *storage(i), wait, done), done

        for i in range(warmup):
            issue(i)[1].wait()
        start = time.perf_counter()
        held = [issue(warmup + i) for i in range(n)]
        for _, done in held if free else held[-1:]:
            done.wait()
        seconds = (time.perf_counter() - start) / n
        out[free] = seconds, outputs(device, held[-1][0])
    return out


def awaited_outputs(folder: str) -> list[np.ndarray]:
    """The outputs of one awaited call of a folder's function (taking no fences), in the
    process's runtime mode."""
    device, context, function, args, _ = load(folder)
    return outputs(device, invoke(context, function, args))


def outputs(device, results) -> list[np.ndarray]:
    """A call's results (its VmVariantList of buffer views), each copied to the host."""
    import iree.runtime as rt

    return [to_host(device, results.get_as_object(i, rt.HalBufferView)) for i in range(len(results))]


RING_BYTES = 256 << 20  # the calls' output buffers, at most (as many sets as fit, at least 2)


def caller_buffers(device, function, man: dict, calls: int):
    """`storage(i)`: the buffers call i passes after its arguments where the function takes its
    storage from the caller (caller_storage's arguments: outputs of its own, one transient
    buffer for all), else none. A model's logits would take gigabytes over a hundred calls, so
    the output sets are a ring of as many as RING_BYTES holds: call i reuses call i - k's,
    which the queue has completed before it starts, as it runs the calls one after another."""
    import iree.runtime as rt

    if f"{{{caller_storage.TRANSIENTS}" not in function.reflection.get("iree.abi.declaration", ""):
        return lambda i: ()
    if caller_storage.TRANSIENTS_SIZE not in function.reflection:
        raise NotAsync(f"{function.name}: the transient storage it takes has no constant size")

    def buffer(size: int):
        return device.allocator.allocate_buffer(memory_type=int(rt.MemoryType.DEVICE_LOCAL),
                                                allowed_usage=int(rt.BufferUsage.DEFAULT),
                                                allocation_size=max(size, 16))

    transients = buffer(int(function.reflection[caller_storage.TRANSIENTS_SIZE]))
    per_call = sum(nbytes(t["shape"], t["dtype"]) for t in man["outputs"])
    ring = min(calls, max(2, RING_BYTES // max(per_call, 1)))
    outputs = [[buffer(nbytes(t["shape"], t["dtype"])) for t in man["outputs"]] for _ in range(ring)]
    return lambda i: (*outputs[i % ring], transients)


def to_host(device, view) -> np.ndarray:
    """A buffer view's values, copied through a staging buffer the host maps (DeviceArray's
    to_host imports a numpy allocation instead, which Vulkan refuses unless 4096-aligned)."""
    import iree.runtime as rt

    source = view.get_buffer()
    staging = device.allocator.allocate_buffer(
        memory_type=int(rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE),
        allowed_usage=int(rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING_SCOPED),
        allocation_size=source.byte_length())
    semaphore = device.create_semaphore(0)
    device.queue_copy(source, staging, wait_semaphores=rt.HalFence.create_at(semaphore, 0),
                      signal_semaphores=rt.HalFence.create_at(semaphore, 1))
    rt.HalFence.create_at(semaphore, 1).wait()
    dtype = rt.HalElementType.map_to_dtype(view.element_type)
    return np.array(staging.map().asarray(view.shape, dtype))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldsopt.measure.back_to_back", description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--mode", default="default", help="a runtime mode of timing.RUNTIME_MODES for the folder's device")
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--independent", action="store_true",
                    help="no call waits for another (the device's queue alone orders them)")
    ap.add_argument("--both", action="store_true", help="each way, chained then independent, the module loaded "
                                                         "once: a JSON line each")
    ap.add_argument("--against", help="a folder of the same program whose awaited call must return the last call's "
                                      "outputs, bit for bit")
    args = ap.parse_args(argv)
    if args.calls < 1:
        ap.error(f"--calls: expected an integer 1 or more, got {args.calls}")
    try:
        with open(os.path.join(args.folder, "manifest.json")) as f:
            device = json.load(f)["device"]
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {args.folder}: not a prepared folder ({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    modes = timing.RUNTIME_MODES.get(device, {"default": ()})
    if args.mode not in modes:
        print(f"error: --mode: {args.mode!r} is not a runtime mode of {device} ({', '.join(modes)})", file=sys.stderr)
        return 1
    try:
        timed = ways(args.folder, args.calls, modes[args.mode],
                     independent=(False, True) if args.both else (args.independent,))
        want = awaited_outputs(args.against) if args.against else None
    except NotAsync as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (OSError, RuntimeError, ValueError, KeyError) as e:  # the module, its inputs or the device
        print(f"error: {args.folder}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    records = []
    for free, (seconds, outs) in timed.items():
        record = {"us": seconds * 1e6, "calls": args.calls, "mode": args.mode, "flags": list(modes[args.mode]),
                  "independent": free}
        if want is not None:
            if len(want) != len(outs) or any(a.tobytes() != b.tobytes() for a, b in zip(outs, want)):
                diff = max((float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))
                            for a, b in zip(outs, want) if a.shape == b.shape), default=float("nan"))
                print(f"error: {args.folder}: the last call's outputs differ from {args.against}'s awaited call's "
                      f"(mode {args.mode}{', independent calls' if free else ''}; at most {diff:g} apart)",
                      file=sys.stderr)
                return 1
            record["same_as_awaited"] = args.against
        records.append(record)
    for record in records:
        print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
