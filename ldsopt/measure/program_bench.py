"""Whole-program times: the function of folders prepared by `lds-run --prepare` (a model, or
any program), run by `iree-benchmark-module` on the folder's own inputs; and the replay of
a folder prepared by `lds-bench PROGRAM --prepare DIR`, which adds the per-dispatch table.

    lds-run model.onnx --target cuda --prepare DIR/ldsopt             # here: the ldsopt module
    lds-run model.onnx --target cuda --prepare DIR/iree --baseline    # IREE's default module
    python -m ldsopt.measure.program_bench DIR/ldsopt DIR/iree [--out OUT]    # there: the times

Prints, per folder, the median time per call and which pipeline made it, then each time as a
ratio to the first folder's; writes `program_bench.json` into OUT. Like `ldsopt.run.replay`, it
needs only the IREE runtime and numpy, so it runs on a GPU machine without the compiler.

    lds-bench model.onnx --target cuda --prepare DIR                  # here
    python -m ldsopt.measure.program_bench DIR [--out OUT]                    # there (= lds-bench --replay DIR)

times, in one run: the ldsopt module's outputs checked against the reference (as `lds-run
--replay`); each dispatch's benchmark module, ldsopt's and IREE's (`iree-benchmark-module
--batch_size=N`, the time per dispatch, median of the repetitions); the two whole-program
modules (`benchmark`); the PyTorch twin where the folder has one (CUDA events around N calls,
its output checked against the same reference); with `--stack N`, the N-layer modules per layer
(ldsopt's also with its calls issued back to back, `back_to_back`), the twin stacked the same
way, and the ldsopt stack's values against the twin's N layers in f32 (`stack_values`: the
stack has no reference of its own). Writes OUT/program_results.{json,md,png};
exits 1 where a value check fails.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

from ldsopt.run import iree_tools
from ldsopt.cli import output_file
from ldsopt.measure import stack_values, timing
from ldsopt.run import parameters, replay, value_check
from ldsopt.measure.timing import parse_benchmark_json
from ldsopt.run.iree_tools import tool
from ldsopt.run.tensor_file import DTYPES, Tensor


def _benchmark_command(folder: str) -> tuple[dict, list[str]]:
    """The folder's manifest, and iree-benchmark-module on its function and inputs."""
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    cmd = [tool("iree-benchmark-module"), f"--device={man['device']}", f"--module={os.path.join(folder, man['vmfb'])}",
           f"--function={man['function']}"]
    return man, cmd + [f"--input={t.spec}=@{os.path.join(folder, t.file)}" for t in (Tensor(**t) for t in man["inputs"])] \
        + iree_tools.parameter_flags(man, folder)


def benchmark(folder: str, repetitions: int = 10, min_time: str = "0.5s", flags: tuple[str, ...] = ()) -> dict:
    """The median time of one call of the folder's function, in us, with what made it;
    `flags` are the runtime's (timing.RUNTIME_MODES)."""
    man, cmd = _benchmark_command(folder)
    cmd += [*flags, f"--benchmark_repetitions={repetitions}", f"--benchmark_min_time={min_time}",
            "--benchmark_format=json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-benchmark-module failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    times = [t for ts in parse_benchmark_json(proc.stdout).values() for t in ts]
    per_call = replay.each_call(man["dispatches"])
    return {"folder": folder, "source": man["source"], "pipeline": man["pipeline"], "us": statistics.median(times),
            "repetitions": times, "ldsopt_dispatches": sum(1 for d in per_call if d["passes"]),
            "total_dispatches": len(per_call), "coverage": replay.coverage(man["dispatches"])}


def profile(folder: str, iterations: int = 50) -> dict[str, dict]:
    """Per dispatch function of the folder's module, its time inside the whole program:
    IREE's HAL profiling (`iree-benchmark-module --device_profiling_mode=dispatch-events`,
    device timestamps around each dispatch, no Tracy) over `iterations` calls, read back by
    `iree-profile statistics`. {function: {"calls": per call of the program, "us": mean per
    dispatch but for the slowest, "min_us"}}; RuntimeError where the device's HAL does not
    profile dispatches."""
    _, cmd = _benchmark_command(folder)
    with tempfile.TemporaryDirectory(prefix="lds-profile-") as work:
        capture = os.path.join(work, "dispatches.ireeprof")
        cmd += [f"--benchmark_min_time={iterations}x", "--benchmark_repetitions=1",
                "--device_profiling_mode=dispatch-events", f"--device_profiling_output={capture}"]
        for what, argv in (("iree-benchmark-module", cmd),
                           ("iree-profile", [tool("iree-profile"), "statistics", "--format=jsonl", capture])):
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
            if proc.returncode != 0:
                raise RuntimeError(f"{what} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    out = {}
    for r in rows:
        if r.get("row_type") == "dispatch_function" and r.get("has_timing") and r["sample_count"]:
            n, total = r["sample_count"], r["total_duration_ns"]
            if n > 1:  # the slowest call left out: the first one carries the device's first-use costs
                n, total = n - 1, total - r["maximum_duration_ns"]
            out[r["function_name"]] = {"calls": r["sample_count"] / iterations, "us": total / n / 1e3,
                                       "min_us": r["minimum_duration_ns"] / 1e3}
    if not out:
        raise RuntimeError("the profile holds no timed dispatch (the device's HAL may not record dispatch events)")
    return out


def is_program_folder(folder: str) -> bool:
    """Whether `folder` was prepared by `lds-bench PROGRAM` (not lds-run, not the cases)."""
    try:
        with open(os.path.join(folder, "manifest.json")) as f:
            return "program" in json.load(f)
    except (OSError, ValueError):
        return False


def _time_dispatch(folder: str, module: str | None, name: str, device: str, batch: int, repetitions: int,
                   min_time: str, error: str | None = None) -> dict:
    if module is None:  # the variant could not compile this dispatch (bench.dispatch_benchmarks)
        return {"error": error or "not compiled"}
    try:
        times = timing.run_benchmark_module(os.path.join(folder, module), device, batch, repetitions, min_time)
        mine = [t for fn, t in times.items() if fn.endswith(name)]
        if len(mine) != 1:
            raise KeyError(f"{module} has no single benchmark of {name} (it has {sorted(times)})")
        return {"us": statistics.median(mine[0]), "repetitions": mine[0]}
    except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
        return {"error": f"{type(e).__name__}: {e}"}


def _fastest(device: str, time_mode, say, label: str = "") -> dict:
    """`time_mode(mode, flags)` (a record with `us`) under each of the device's runtime modes
    (timing.RUNTIME_MODES; the default alone where it has none): the fastest mode's record,
    named, with every mode's time."""
    modes = timing.RUNTIME_MODES.get(device, {"default": ()})
    runs = {}
    for mode, flags in modes.items():
        runs[mode] = time_mode(mode, flags)
        say(f" ({mode}{label}): {runs[mode]['us']:.1f} us")
    best = min(runs, key=lambda m: runs[m]["us"])
    return {**runs[best], "mode": best, "flags": list(modes[best]), "modes": {m: r["us"] for m, r in runs.items()}}


def _fastest_mode(folder: str, device: str, repetitions: int, min_time: str, say) -> dict:
    """`benchmark` at the device's fastest runtime mode (`_fastest`)."""
    return _fastest(device, lambda mode, flags: benchmark(folder, repetitions, min_time, flags), say)


def back_to_back_timed(folder: str, device: str, say, against: str | None = None) -> dict:
    """A module whose functions take fences, its calls issued back to back (`back_to_back
    --both`, in a process of its own per runtime mode: the runtime's flags are a process's),
    each call waiting for the one before, at the fastest mode (`_fastest`), with the same for
    no call waiting for another as its `independent`; or its error, which a mode whose last
    call's outputs are not the awaited module `against`'s, bit for bit, is."""
    by_mode = {}

    def run(mode: str, independent: bool) -> dict:
        if mode not in by_mode:
            proc = subprocess.run([sys.executable, "-m", "ldsopt.measure.back_to_back", folder, "--mode", mode,
                                   "--both", *(["--against", against] if against else [])],
                                  capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                raise RuntimeError(f"back_to_back failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
            by_mode[mode] = {r["independent"]: r for r in map(json.loads, proc.stdout.strip().splitlines()[-2:])}
        return by_mode[mode][independent]

    try:
        r = _fastest(device, lambda mode, flags: run(mode, False), say, ", calls back to back")
        return {**r, "independent": _fastest(device, lambda mode, flags: run(mode, True), say,
                                             ", calls back to back, none waiting for another")}
    except (OSError, RuntimeError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
        say(f": calls back to back: error: {e}")
        return {"error": f"{type(e).__name__}: {e}"}


def twin_weights(folder: str, twin: dict) -> dict:
    """The twin's weights by initializer name: those of the folder's archive (the ones the
    modules read as parameters, `bench._twin`) from it, the rest from the .npz."""
    import numpy as np

    with np.load(os.path.join(folder, twin["weights"])) as w:
        weights = {k: w[k] for k in w.files}
    if "archive" in twin:
        held = twin["archive"]
        store = parameters.Store([parameters.Archive(held["scope"], os.path.join(folder, held["file"]))])
        for name, e in held["entries"].items():
            dtype = np.dtype(e["dtype"])
            raw = store.bytes_of(held["scope"], name, dtype.itemsize * int(np.prod(e["shape"], dtype=np.int64)))
            weights[name] = raw.view(dtype).reshape(e["shape"])
    return weights


def _twin(folder: str, man: dict, repetitions: int, batch: int) -> dict:
    """Times the PyTorch twin on the ldsopt folder's input and checks its output against the
    same reference, at the same tolerances."""
    ours = os.path.join(folder, man["whole"]["ldsopt"])
    with open(os.path.join(ours, "manifest.json")) as f:
        whole = json.load(f)
    timer = timing.TorchTimer(repetitions)
    torch = timer.torch
    (x,), (exp,), (tol,) = [Tensor(**t) for t in whole["inputs"]], [Tensor(**t) for t in whole["expected"]], \
        whole["tolerances"]
    dtype = timing.TORCH_DTYPES[x.dtype]
    twin = man["twin"]
    twins = timing.load_script(os.path.join(folder, twin["script"]), "ldsopt_torch_twins")
    weights = twin_weights(folder, twin)
    layer = getattr(twins, twin["function"])(weights, "cuda", dtype, **twin["kwargs"])
    xt = torch.from_numpy(x.load(ours)).to("cuda")
    with torch.inference_mode():
        y = layer(xt).float().cpu().numpy()
        us = timer.time_us(lambda: layer(xt), batch)
        # The twin as a PyTorch user runs it at its fastest: one CUDA graph of the whole call.
        graph, y_graph = captured(torch, lambda: layer(xt))
        graph.replay()
        y_graph = y_graph.float().cpu().numpy()
        us_graph = timer.time_us(graph.replay, batch)
        stack = _twin_stack(torch, timer, layer, xt, man["stack"]["layers"], batch) if man.get("stack") else None
    if stack and "ldsopt" in man["stack"]["whole"]:
        try:
            stack["values"] = stack_values.check(
                torch, os.path.join(folder, man["stack"]["whole"]["ldsopt"]), man["stack"]["layers"], layer,
                getattr(twins, twin["function"])(weights, "cuda", "float32", **twin["kwargs"]))
        except (RuntimeError, OSError, ValueError, KeyError) as e:
            stack["values"] = {"layers": man["stack"]["layers"], "error": f"{type(e).__name__}: {e}"}
    sensitivity = whole.get("sensitivity", [None])[0]
    ref, sens = exp.load(ours), Tensor(**sensitivity).load(ours) if sensitivity else None
    c, cg = (value_check.compare(out.astype(DTYPES[exp.dtype][0]), ref, exp.dtype, tol["atol"], tol["rtol"], what,
                                 ref_dtype=exp.dtype, sensitivity=sens)
             for out, what in ((y, "twin output"), (y_graph, "twin output (CUDA graph)")))
    return {"us": us, "graph_us": us_graph, "gpu": timer.gpu, "passed": c.ok and cg.ok, "max_abs": c.max_abs,
            "bad": c.bad, **({"stack": stack} if stack else {})}


def captured(torch, call) -> tuple:
    """`call` captured in one CUDA graph, warmed up first on a side stream (as
    torch.cuda.graph requires); the graph and the output tensor its replays write."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            call()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = call()
    return graph, out


def _twin_stack(torch, timer, layer, xt, layers: int, batch: int) -> dict:
    """The twin `layers` times in a row, each output the next input, eager and in one CUDA
    graph: us per layer. The graph is timed two ways: replays back to back between two CUDA
    events (`graph_us`), and each replay awaited before the next, on the host's clock
    (`graph_awaited_us`), as iree-benchmark-module times the IREE modules' synchronous calls."""
    def run(x):
        for _ in range(layers):
            x = layer(x)
        return x

    calls = max(1, batch // layers)
    eager = timer.time_us(lambda: run(xt), calls) / layers
    graph, _ = captured(torch, lambda: run(xt))
    return {"us": eager, "graph_us": timer.time_us(graph.replay, calls) / layers,
            "graph_awaited_us": timer.awaited_us(graph.replay, calls) / layers}


def replay_program(folder: str, out: str | None = None, *, batch: int | None = None, repetitions: int = 5,
                   min_time: str | None = None, use_torch: bool = True, dispatches_only: bool = False) -> dict:
    """Times a folder made by `lds-bench PROGRAM --prepare` (module docstring); writes
    program_results.{json,md,png} into `out` (default: the folder). `dispatches_only`: the
    per-dispatch table alone, from the manifest and `dispatches/` (no values, whole programs or
    twin: a folder carried without its weights, so that many models fit one GPU session)."""
    out = out or folder
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    device, lavapipe = man["device"], man["target"] == "lavapipe"
    batch = batch or (2 if lavapipe else 100)
    min_time = min_time or ("0.05s" if lavapipe else "0.2s")
    say = timing.say
    if dispatches_only:
        check = {"skipped": "--dispatches-only"}
    else:
        check = replay.replay(os.path.join(folder, man["whole"]["ldsopt"]))
        say(f"values of the ldsopt module: {'PASS' if check['passed'] else 'FAIL'} "
            + "; ".join(f"{o['name']} max abs error {o['max_abs']:.3g}" for o in check["outputs"]))
    rows = []
    for d in man["dispatches"]:
        if d.get("at_load"):  # not part of a call: listed, not timed
            rows.append({**d, **{v: {"skipped": "runs once, at load"} for v in timing.VARIANTS}})
            continue
        row = {**d, **{v: _time_dispatch(folder, d["modules"][v], d["name"], device, batch, repetitions, min_time,
                                         d.get("errors", {}).get(v))
                       for v in timing.VARIANTS}}
        say(f"{d['name']:<72} " + "  ".join(f"{v} {row[v]['us']:9.2f} us" if "us" in row[v] else f"{v} error"
                                              for v in timing.VARIANTS))
        rows.append(row)
    whole = {}
    whole_time = "0.05s" if lavapipe else "0.5s"

    def timed(sub: str, what: str) -> dict:
        """The whole-program module of subfolder `sub` at its fastest runtime mode, or its error."""
        try:
            return _fastest_mode(os.path.join(folder, sub), device, repetitions, whole_time,
                                 lambda line: say(f"{what}{line}"))
        except (OSError, RuntimeError, KeyError, ValueError, subprocess.TimeoutExpired) as e:
            say(f"{what}: error: {e}")
            return {"error": f"{type(e).__name__}: {e}"}

    if not dispatches_only:  # a module IREE could not compile when the folder was prepared
        whole.update({v: {"error": e, "at_prepare": True} for v, e in man.get("whole_errors", {}).items()})
    def issued(subs: dict, variant: str, what: str) -> dict:
        """An -async variant's calls back to back, chained and independent, checked against
        the awaited variant's outputs (its name without -async)."""
        def line(text: str) -> None:
            say(f"{what}{text}")
        sub, awaited = os.path.join(folder, subs[variant]), os.path.join(folder, subs[variant[:-len("-async")]])
        return back_to_back_timed(sub, device, line, against=awaited)

    for variant, sub in ({} if dispatches_only else man["whole"]).items():
        if variant.endswith("-async"):  # its calls issued back to back, not awaited one by one
            whole[variant] = issued(man["whole"], variant, f"whole program, {variant}")
            continue
        whole[variant] = timed(sub, f"whole program, {variant}")
        if "error" in whole[variant]:
            continue
        try:  # where the time goes inside it: a view of the program, not the table's measure
            whole[variant]["in_program"] = profile(os.path.join(folder, sub), 5 if lavapipe else 50)
        except (OSError, RuntimeError, KeyError, ValueError, subprocess.TimeoutExpired) as e:
            whole[variant]["in_program_error"] = f"{type(e).__name__}: {e}"
            say(f"whole program, {variant}: no dispatch profile: {e}")
    stack = None
    if man.get("stack") and not dispatches_only:
        layers = man["stack"]["layers"]
        stack = {"layers": layers, "whole": {v: {"error": e, "at_prepare": True}
                                             for v, e in man["stack"].get("errors", {}).items()}}
        for variant, sub in man["stack"]["whole"].items():
            if variant.endswith("-async"):
                r = issued(man["stack"]["whole"], variant, f"{layers} layers in one call, {variant}")
                free = r.get("independent", {})
                if "us" in free:
                    r["independent"] = {**free, "per_layer_us": free["us"] / layers}
            else:
                r = timed(sub, f"{layers} layers in one call, {variant}")
            stack["whole"][variant] = {**r, "per_layer_us": r["us"] / layers} if "us" in r else r
    twin = None
    if man.get("twin") and not dispatches_only:
        if not use_torch:
            twin = {"skipped": "--no-torch"}
        elif device != "cuda":
            twin = {"skipped": f"the twin runs on CUDA, this folder's device is {device}"}
        else:
            try:
                twin = _twin(folder, man, repetitions, batch)
                say(f"PyTorch twin: eager {twin['us']:.1f} us, one CUDA graph {twin['graph_us']:.1f} us, output "
                    f"{'PASS' if twin['passed'] else 'FAIL'} (max abs error {twin['max_abs']:.3g})")
                if "values" in twin.get("stack", {}):
                    say(stack_values.line(twin["stack"]["values"]))
            except Exception as e:  # noqa: BLE001 - a failing twin must not lose the IREE numbers
                twin = {"error": f"{type(e).__name__}: {e}"}
                say(f"PyTorch twin: error: {twin['error']}")
    report = {k: man[k] for k in ("program", "source", "target", "device", "commit", "dirty", "pipeline",
                                  "program_pipeline", "dispatch_formation")}
    report.update({"gpu": timing.gpu_name(None, device), "batch_size": batch, "repetitions": repetitions,
                   "min_time": min_time,
                   "values": check if dispatches_only else {"passed": check["passed"], "outputs": check["outputs"]},
                   "dispatches": rows, "whole": whole, "twin": twin, **({"stack": stack} if stack else {}),
                   "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")})
    per_call = replay.each_call(rows)
    for v in timing.VARIANTS:
        timed = [r for r in per_call if "us" in r[v]]
        report[f"dispatch_sum_{v}"] = sum(r["calls"] * r[v]["us"] for r in timed) if len(timed) == len(per_call) else None
    timing.write_report(report, out, "program_results", markdown, plot)
    return report


def why(row: dict) -> str:
    """The pass that lowered a dispatch, or each pass's reason for leaving it to IREE."""
    if row["passes"]:
        return ", ".join(row["passes"])
    return "IREE: " + "; ".join(f"{p}: {r}" for p, r in row["missed"].items()) if row["missed"] else "IREE (no remark)"


def short(name: str) -> str:
    """A dispatch's name without its function's: dispatch_N_<root op>."""
    return name[name.find("dispatch_"):] if "dispatch_" in name else name


def _mode(r: dict) -> str:
    """The runtime mode of a whole-program time, where several were timed."""
    return f", runtime mode '{r['mode']}' (`{' '.join(r['flags']) or 'no flags'}`)" if len(r.get("modes", {})) > 1 else ""


def _us(r: dict | None) -> str:
    return f"{r['us']:.1f}" if r and "us" in r else "error" if r and "skipped" not in r else "-"


def markdown(report: dict) -> str:
    whole, twin = report["whole"], report["twin"]
    ours, iree = whole.get("ldsopt", {}), whole.get("iree-default", {})
    speed = f" ({iree['us'] / ours['us']:.2f}x IREE's speed)" if "us" in ours and "us" in iree else ""
    lines = [f"# lds-bench {report['source']} on {report['gpu']} ({report['target']})", "",
             f"commit {report['commit']}{' (working tree had changes)' if report['dirty'] else ''}, {report['date']}; "
             f"ldsopt pipeline `{report['pipeline']}`, program pipeline `{report['program_pipeline'] or '(none)'}`.",
             "Values of the ldsopt module against the reference: " + (
                 f"not checked ({report['values']['skipped']})." if "skipped" in report["values"]
                 else "PASS." if report["values"]["passed"] else "FAIL."),
             "", "## Whole program (`iree-benchmark-module` on the function, median)", "",
             f"- ldsopt: {_us(ours)} us{speed}{_mode(ours)}; {replay.coverage(report['dispatches'])}",
             *([_back_to_back_line("ldsopt", whole["ldsopt-async"],
                                   lambda r: f"{_us(r)} us{_mode(r)}" if "us" in r else r.get("error", "-"))]
               if "ldsopt-async" in whole else []),
             "- IREE's default (its own dispatch formation): " + (
                 f"not timed: {iree['error']}" if iree.get("at_prepare") else f"{_us(iree)} us{_mode(iree)}")]
    if twin:
        lines.append("- PyTorch twin (same layer, same weights): " + (
            f"eager {twin['us']:.1f} us" + (f", one CUDA graph {twin['graph_us']:.1f} us" if "graph_us" in twin else "")
            + f", output {'PASS' if twin['passed'] else 'FAIL'} against the reference"
            if "us" in twin else twin.get("error") or "skipped: " + twin["skipped"]))
    if "modes" in ours and len(ours["modes"]) > 1:
        lines += ["", "Runtime modes (`iree-benchmark-module` flags; each whole-program line is its fastest): "
                  + "; ".join(f"{v}: " + ", ".join(f"{m} {us:.1f} us" for m, us in w["modes"].items())
                              for v, w in whole.items() if "modes" in w) + "."]
    if report.get("stack"):
        lines += _stack_lines(report["stack"], twin)
    s_ours, s_iree = report["dispatch_sum_ldsopt"], report["dispatch_sum_iree-default"]
    lines += ["", "## Per dispatch", "",
              "Each dispatch's own benchmark module (IREE's `--iree-hal-dump-executable-benchmarks-to`), "
              f"{report['batch_size']} dispatches back to back per batch, us per dispatch, median of "
              f"{report['repetitions']}. Both columns have the same dispatches: the program as the ldsopt variant "
              f"forms them (program pipeline, then `{' '.join(report['dispatch_formation']) or 'no flags'}`); "
              "the IREE column is IREE's configuration of each, the ldsopt column ldsopt's lowering. So they "
              "compare code generation; the whole-program line above compares with IREE's own formation. "
              + (f"Share: calls x time over the sum of the ldsopt column (sum: ldsopt {s_ours:.1f} us, "
                 f"IREE {s_iree:.1f} us)." if s_ours and s_iree else "Share: not computed (a dispatch failed to time)."),
              "In program: the ldsopt module's own dispatch, timed inside the whole program (HAL dispatch "
              "profiling, mean per call but for the slowest)" + ("." if "in_program" in ours else
                                              f": not available ({ours.get('in_program_error', 'no whole-program time')})."),
              "", "| # | dispatch | calls | ldsopt us | IREE us | IREE/ldsopt | share | in program us | "
              "lowered by / why not |", "|---|---|---|---|---|---|---|---|---|"]
    for i, r in enumerate(report["dispatches"]):
        o, b = r["ldsopt"], r["iree-default"]
        ratio = f"{b['us'] / o['us']:.2f}" if "us" in o and "us" in b else "-"
        share = f"{100 * r['calls'] * o['us'] / s_ours:.0f}%" if s_ours and "us" in o else "-"
        calls = "at load" if r.get("at_load") else r["calls"]
        lines.append(f"| {i} | `{short(r['name'])}` | {calls} | {_us(o)} | {_us(b)} | {ratio} | {share} | "
                     f"{_us(ours.get('in_program', {}).get(r['name']))} | {why(r).replace('|', '/')} |")
    if "in_program" in iree:
        theirs = iree["in_program"]
        total = sum(d["calls"] * d["us"] for d in theirs.values())
        lines += ["", "## IREE's default module, its own dispatches in the program", "",
                  "HAL dispatch profiling of the IREE-default whole-program module (its own dispatch formation, "
                  "so other dispatches than above); mean per call but for the slowest.", "",
                  "| dispatch | calls | us | share |", "|---|---|---|---|"]
        for n in sorted(theirs, key=dispatch_index):
            d = theirs[n]
            lines.append(f"| `{short(n)}` | {d['calls']:g} | {d['us']:.1f} | {100 * d['calls'] * d['us'] / total:.0f}% |")
    return "\n".join(lines) + "\n"


def _back_to_back_line(who: str, a: dict, figure) -> str:
    """The report's line of an -async variant's calls issued back to back, `figure(record)` its time."""
    return (f"- {who}, calls issued back to back (its functions taking fences and their storage, IREE's "
            f"async-external model; each call waits in the queue for the one before): {figure(a)}"
            + (f"; no call waiting for another: {figure(a['independent'])}" if "independent" in a else "")
            + ("; in every runtime mode the last call's outputs are the awaited call's, bit for bit"
               if "us" in a and "same_as_awaited" in a else ""))


def _stack_lines(stack: dict, twin: dict | None) -> list[str]:
    """The section of `--stack`: per layer, N layers in one call."""
    n, w = stack["layers"], stack["whole"]

    def per_layer(r: dict) -> str:
        return f"{r['per_layer_us']:.1f} us per layer ({r['us']:.1f} us a call){_mode(r)}" if "us" in r \
            else r.get("error", "-")

    lines = ["", f"## {n} layers in one call (each output the next input), per layer", "",
             f"- ldsopt: {per_layer(w.get('ldsopt', {}))}"]
    if "ldsopt-async" in w:
        lines.append(_back_to_back_line("ldsopt", w["ldsopt-async"], per_layer))
    lines.append(f"- IREE's default: {per_layer(w.get('iree-default', {}))}")
    if "iree-default-async" in w:
        lines.append(_back_to_back_line("IREE's default", w["iree-default-async"], per_layer))
    if twin and "stack" in twin:
        awaited = twin["stack"].get("graph_awaited_us")
        lines.append(f"- PyTorch twin, {n} layers a call: eager {twin['stack']['us']:.1f} us per layer, "
                     f"one CUDA graph {twin['stack']['graph_us']:.1f} us per layer (replays back to back)"
                     + (f", {awaited:.1f} us per layer with each call awaited (as the awaited IREE lines time a call)"
                        if awaited is not None else ""))
        if "values" in twin["stack"]:
            lines.append(f"- {stack_values.line(twin['stack']['values'])}")
    return lines


def dispatch_index(name: str) -> int:
    """A dispatch's position in its program, from its name (dispatch_N_...)."""
    tail = name[name.find("dispatch_") + len("dispatch_"):] if "dispatch_" in name else ""
    return int(tail.split("_")[0]) if tail.split("_")[0].isdigit() else -1


def plot(report: dict, path: str) -> bool:
    """program_results.png: per dispatch, its time in one run of the program (calls x us) by
    its benchmark module, ldsopt's and IREE's, and inside the ldsopt module where profiled; the
    whole-program times in the title. False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = report["dispatches"]
    labels = [short(r["name"]) + ("" if r["passes"] else " (IREE)") for r in rows]
    series = [(label, [r["calls"] * r[v]["us"] if "us" in r[v] else 0.0 for r in rows])
              for v, label in (("ldsopt", "ldsopt, own benchmark"), ("iree-default", "IREE, own benchmark"))]
    in_program = report["whole"].get("ldsopt", {}).get("in_program")
    if in_program:
        series.append(("ldsopt, in the program", [r["calls"] * in_program[r["name"]]["us"]
                                                  if r["name"] in in_program else 0.0 for r in rows]))
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.15 * len(series) * len(rows)))
    height = 0.8 / len(series)
    for i, (label, vals) in enumerate(series):
        ax.barh([y + (i - (len(series) - 1) / 2) * height for y in range(len(rows))], vals, height, label=label)
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("us in one run of the program (calls x us per dispatch); (IREE): left to IREE by ldsopt")
    whole = report["whole"]
    title = f"{report['source']}, {report['gpu']}, commit {report['commit'][:10]}\nwhole program: " + ", ".join(
        f"{v} {_us(whole.get(v))} us" for v in ("ldsopt", "iree-default"))
    if report["twin"] and "us" in report["twin"]:
        title += f", PyTorch {report['twin']['us']:.1f} us"
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    timing.save_figure(fig, path)
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldsopt.measure.program_bench", description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="*", help="folders prepared by lds-run --prepare, or one by lds-bench PROGRAM")
    ap.add_argument("--replot", metavar="RESULTS_JSON", help="instead of timing: write the .md and .png of a "
                    "program_results.json again, beside it (where the GPU machine had no matplotlib)")
    ap.add_argument("--out", help="write the results here")
    ap.add_argument("--repetitions", type=int, default=10)
    ap.add_argument("--batch-size", type=int, help="lds-bench folder: dispatches per batch (default 100; 2 on lavapipe)")
    ap.add_argument("--min-time", help="lds-bench folder: google-benchmark min time per repetition")
    ap.add_argument("--no-torch", action="store_true", help="lds-bench folder: skip the PyTorch twin")
    ap.add_argument("--dispatches-only", action="store_true", help="lds-bench folder: the per-dispatch table alone "
                    "(needs only manifest.json and dispatches/; no values, whole programs or twin)")
    args = ap.parse_args(argv)
    if args.replot:
        with open(args.replot) as f:
            report = json.load(f)
        stem = os.path.splitext(args.replot)[0]
        output_file.write(stem + ".md", markdown(report))
        if not plot(report, stem + ".png"):
            print("error: --replot needs matplotlib", file=sys.stderr)
            return 1
        return 0
    if not args.folders:
        ap.error("folders to time, or --replot")
    if len(args.folders) == 1 and is_program_folder(args.folders[0]):
        try:
            report = replay_program(args.folders[0], args.out, batch=args.batch_size, repetitions=args.repetitions,
                                    min_time=args.min_time, use_torch=not args.no_torch,
                                    dispatches_only=args.dispatches_only)
        except (OSError, RuntimeError, KeyError, ValueError) as e:
            print(f"{args.folders[0]}: error: {e}", file=sys.stderr)
            return 1
        print(markdown(report), flush=True)
        # A dispatch IREE's own pipeline cannot compile (recorded when it was prepared) is a
        # result of the comparison, not a failure of the run.
        failed = [r["name"] for r in replay.each_call(report["dispatches"])
                  if any("us" not in r[v] and v not in r.get("errors", {}) for v in timing.VARIANTS)]
        failed += [v for v, w in report["whole"].items() if "us" not in w and not w.get("at_prepare")]
        stacked = ((report.get("twin") or {}).get("stack") or {}).get("values", {"passed": True})
        wrong = None if report["values"].get("passed", True) else "the ldsopt module gives wrong values"
        wrong = wrong or (None if stacked.get("passed") else stack_values.line(stacked))
        if failed or wrong:
            print(f"error: {'failed to time: ' + ', '.join(failed) if failed else wrong}", file=sys.stderr)
            return 1
        return 0
    results = []
    for folder in args.folders:
        try:
            results.append(benchmark(folder, args.repetitions))
        except (OSError, RuntimeError, KeyError, ValueError, subprocess.TimeoutExpired) as e:
            print(f"{folder}: error: {e}", file=sys.stderr)
            return 1
    first = results[0]["us"]
    for r in results:
        print(f"{r['folder']}: {r['us']:.1f} us ({first / r['us']:.2f}x the first's speed); "
              f"{r['coverage']}; {r['pipeline']}")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        output_file.write_json(os.path.join(args.out, "program_bench.json"), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
