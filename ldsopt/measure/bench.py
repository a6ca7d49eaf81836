"""The compile half of lds-bench: dispatch benchmark modules for ldsopt and for IREE's default.

For each case of `ldsopt/measure/cases.py`:

    program --iree-compile --compile-to=executable-configurations
              --iree-hal-dump-executable-benchmarks-to=...--> one *_benchmark.mlir per executable
    each benchmark module, as IREE configured it     --iree-compile--> iree-default/<x>.vmfb
    program after the ldsopt program pipeline (in process, e.g. a reduction split in two
      dispatches) --the same dump--> each module after the ldsopt pipeline (in process)
                                                      --iree-compile--> ldsopt/<x>.vmfb

The benchmarks are dumped at configuration time and ldsopt runs on them, not on the
program: `--compile-from=executable-configurations` dumps no benchmarks, and this way the
two variants share one harness (same buffers, same dispatch loop) and differ only in the
dispatch code (and, where the program pipeline split the program, in the dispatches: a
case's time is the sum over its dispatches). The modules carry their own device target and need no inputs, so the
prepared folder (vmfbs, `manifest.json`, a copy of `cases.py`) stays a few MB and travels
to the GPU machine, where `ldsopt.measure.bench_replay` times it.
"""

from __future__ import annotations

import collections
import datetime
import glob
import io
import os
import re
import shutil
import subprocess
import tempfile

from iree.compiler import ir, passmanager

from ldsopt.cli import output_file
from ldsopt import shared_context
from ldsopt.measure import cases as bench_cases
from ldsopt.measure import dispatch_work, isa, program_bench
from ldsopt.run import driver, replay
from ldsopt import target as target_model

IREE_DEFAULT = "iree-default"  # the variant of IREE's own pipeline, which may fail to compile a case
# The cases module travels into each prepared folder as a copy of this file.
CASES_FILE = bench_cases.__file__


def select(cases, names: list[str] | None, target: str) -> list:
    """The named cases; without names, all of them (GPUs) or the smoke subset (lavapipe)."""
    by_name = {c.name: c for c in cases.CASES}
    if not names:
        names = list(cases.SMOKE) if target == "lavapipe" else list(by_name)
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise driver.DriverError(f"unknown case(s) {', '.join(unknown)}; known: {', '.join(by_name)}")
    return [by_name[n] for n in names]


def git_state() -> tuple[str, bool]:
    """HEAD of the checkout this code runs from, and whether its working tree had changes."""
    repo = os.path.dirname(os.path.abspath(__file__))
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=repo,
                                    capture_output=True, text=True, check=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        return "unknown", False
    return head, dirty


def _count(report: list[dict]) -> tuple[int, int]:
    return sum(1 for d in report if d["passes"]), len(report)


def _benchmark_modules(program: str, tgt: target_model.KnownTarget, work: str,
                       flags: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(stem, text) of each dispatch benchmark module IREE dumps while configuring `program`
    with `flags`."""
    os.makedirs(work)
    dumps = os.path.join(work, "benchmarks")
    driver.configure(program, tgt, work, extra=(f"--iree-hal-dump-executable-benchmarks-to={dumps}", *flags))
    out = []
    for src in sorted(glob.glob(os.path.join(dumps, "*_benchmark.mlir"))):
        with open(src) as f:
            out.append((os.path.basename(src).removesuffix("_benchmark.mlir"), f.read()))
    return out


def _as_configured(text: str, pipeline_text: str) -> tuple[str, list[dict]]:
    """IREE's default variant: the module as IREE configured it (`pipeline_text` unused; the
    signature of driver.apply_ldsopt); each dispatch's record also holds its work (the bytes
    and FLOPs a bound counts: `dispatch_work`)."""
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        work = dispatch_work.dispatch_work(module)
        return text, [{**d, "work": work[d["name"]]} for d in driver.dispatch_report(module)]


def dispatch_benchmarks(name: str, variants, tgt: target_model.KnownTarget, folder: str, work: str,
                        pipeline_text: str) -> dict:
    """Per variant (name, program, lower, dispatch-formation flags): the dispatch benchmark
    modules IREE dumps for the program, each lowered by `lower` (ldsopt's pipeline, or IREE's
    configuration as it is) and compiled into folder/<name>/<variant>/<stem>.vmfb; for gfx942
    also its ISA, <stem>.rocmasm beside it. Each dispatch record names the module it is in
    (and the ISA file)."""
    out = {}
    for variant, program, lower, flags in variants:
        try:
            out[variant] = _variant(name, variant, program, lower, flags, tgt, folder, work, pipeline_text)
        except driver.DriverError as e:
            if variant != IREE_DEFAULT:
                raise
            # IREE's own pipeline cannot compile it (attention's index regions): a result too.
            out[variant] = {"modules": [], "dispatches": [], "ldsopt_dispatches": 0, "total_dispatches": 0,
                            "error": f"IREE's default pipeline failed: {str(e).splitlines()[0]}"}
    return out


def _variant(name, variant, program, lower, flags, tgt, folder, work, pipeline_text) -> dict:
    """One variant of `dispatch_benchmarks`."""
    modules = _benchmark_modules(program, tgt, os.path.join(work, variant), flags)
    if not modules:
        raise driver.DriverError(f"{name}: IREE dumped no dispatch benchmark modules")
    entry = {"modules": [], "dispatches": []}
    for stem, text in modules:
        text, report = lower(text, pipeline_text)
        rel = os.path.join(name, variant, stem + ".vmfb")
        os.makedirs(os.path.dirname(os.path.join(folder, rel)), exist_ok=True)
        mlir = os.path.join(work, variant, stem + ".mlir")
        output_file.write(mlir, text)
        # From the configurations it holds: compiled from the start, IREE would drop a unit
        # dim of a configured op again and lose its lowering_config ("missing lowering
        # configuration" on a 1xMxN batch matmul).
        dump = os.path.join(work, variant, stem + "_files")
        try:
            driver.iree_compile([mlir, "--compile-from=executable-configurations", "-o", os.path.join(folder, rel)]
                                + ([f"--iree-hal-dump-executable-files-to={dump}"] if tgt.name == "gfx942" else []),
                                f"{name}: compile {variant} {stem}")
        except driver.DriverError as e:
            if variant != IREE_DEFAULT:
                raise
            # IREE's own pipeline cannot compile this dispatch (attention on Vulkan, attention's
            # index regions): its cell is the error, the other dispatches are timed as usual.
            error = f"IREE's default pipeline failed: {str(e).splitlines()[0]}"
            entry["dispatches"] += [{**d, "module": None, "error": error} for d in report]
            continue
        entry["modules"].append(rel)
        isa_file = _keep_isa(dump, os.path.join(folder, rel)) if tgt.name == "gfx942" else None
        entry["dispatches"] += [{**d, "module": rel, **({"isa": os.path.relpath(isa_file, folder)} if isa_file else {})}
                                for d in report]
    entry["ldsopt_dispatches"], entry["total_dispatches"] = _count(entry["dispatches"])
    return entry


def _keep_isa(dump: str, vmfb: str) -> str:
    """The one `.rocmasm` of a benchmark module's dump, copied beside its .vmfb (the dump's
    LLVM IR and code objects are left behind: the report reads the ISA only)."""
    found = isa.rocmasm_files(dump)
    if len(found) != 1:
        raise driver.DriverError(f"{vmfb}: expected one .rocmasm in the executable dump, found {len(found)}")
    dest = os.path.splitext(vmfb)[0] + ".rocmasm"
    output_file.copy(found[0], dest)
    return dest


def prepare_case(case, tgt: target_model.KnownTarget, folder: str, pipeline_text: str,
                 program_pipeline: str = driver.PROGRAM_PIPELINE) -> dict:
    """Compiles one case's benchmark modules both ways into folder/<case>/<variant>/: IREE's
    default on the case's program, ldsopt on the program after `program_pipeline`."""
    with tempfile.TemporaryDirectory(prefix=f"lds-bench-{case.name}-") as work:
        ours = driver.apply_program_pipeline(case.mlir, program_pipeline, tgt.name)
        os.makedirs(os.path.join(work, "choice"))
        flags = driver.dispatch_flags(ours, tgt, os.path.join(work, "choice"), pipeline_text)
        variants = dispatch_benchmarks(case.name, (("ldsopt", ours, driver.apply_ldsopt, flags),
                                                   (IREE_DEFAULT, case.mlir, _as_configured, ())),
                                       tgt, folder, work, pipeline_text)
    return {"name": case.name, "what": case.what, "bytes": case.bytes, "flops": case.flops, "variants": variants}


def prepare(target: str, folder: str, names: list[str] | None = None,
            pipeline_text: str = driver.DEFAULT_PIPELINE, program_pipeline: str = driver.PROGRAM_PIPELINE,
            progress=print) -> dict:
    """Compiles the selected cases for `target` into `folder` and writes its manifest.json."""
    tgt = target_model.known(target)
    cases = select(bench_cases, names, target)
    os.makedirs(folder, exist_ok=True)
    output_file.copy(CASES_FILE, os.path.join(folder, "cases.py"))
    commit, dirty = git_state()
    entries = []
    for case in cases:
        entry = prepare_case(case, tgt, folder, pipeline_text, program_pipeline)
        ours = entry["variants"]["ldsopt"]
        progress(f"prepared {case.name}: {ours['total_dispatches']} dispatch(es), "
                 f"{ours['ldsopt_dispatches']} lowered by ldsopt")
        entries.append(entry)
    manifest = {"target": target, "device": tgt.device, "commit": commit, "dirty": dirty,
                "pipeline": pipeline_text, "program_pipeline": program_pipeline,
                "prepared": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "cases": entries}
    output_file.write_json(os.path.join(folder, "manifest.json"), manifest)
    return manifest


# A program or model (`lds-bench PROGRAM`): its whole-program modules, prepared as `lds-run
# --prepare` does, in these subfolders; its dispatch benchmarks in DISPATCHES/. An `-async`
# variant's functions take fences (driver.ASYNC_CALLS) and their storage from the caller
# (ldsopt/run/caller_storage.py): `back_to_back` issues its calls without awaiting each, and
# checks them against the awaited variant's outputs (its name without `-async`).
WHOLE = {"ldsopt": "ldsopt", "ldsopt-async": "ldsopt-async", "iree-default": "iree"}
DISPATCHES = "dispatches"
ASYNC = "-async"

# `--stack N`: the whole-program modules of N layers in one call, in these subfolders, each
# also as an `-async` variant.
STACK = {"ldsopt": "ldsopt-stack", "ldsopt-async": "ldsopt-async-stack", "iree-default": "iree-stack",
         "iree-default-async": "iree-async-stack"}


def stacked(text: str, layers: int, path: str) -> tuple[str, str]:
    """The program with one more function, `<entry>_stack<layers>`, that applies the entry
    function `layers` times, each output the next input (a model of that many layers of
    these weights), and its name. The layers are inlined into it, as a model of that many
    layers holds them (and IREE would inline them): the program passes then see each
    layer's ops, as they would a real model's. The entry must take one tensor and return
    one of the same type: DriverError if not."""
    sig = driver.signature(text, None, path)
    if len(sig.inputs) != 1 or sig.outputs != sig.inputs:
        raise driver.DriverError(f"--stack needs a layer: a function of one tensor to one tensor of the same type; "
                                 f"@{sig.function} takes {len(sig.inputs)} and returns {len(sig.outputs)}", path)
    name = f"{sig.function}_stack{layers}"
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        entry = next(op.operation for op in module.body.operations if op.operation.name == "func.func"
                     and ir.StringAttr(op.operation.attributes["sym_name"]).value == sig.function)
        # the layer's type as written (a PyTorch export's is a !torch.vtensor); the declaration lets
        # the new function parse alone before it moves into the module
        t = str(ir.FunctionType(ir.TypeAttr(entry.attributes["function_type"]).value).inputs[0])
        calls = [f"  %x{i + 1} = func.call @{sig.function}(%x{i}) : ({t}) -> {t}" for i in range(layers)]
        func = "\n".join([f"func.func private @{sig.function}(%x: {t}) -> {t}",
                          f"func.func @{name}(%x0: {t}) -> {t} {{", *calls, f"  return %x{layers} : {t}", "}"])
        parsed = ir.Module.parse(func, ctx)  # alive while its function moves: its ops are freed with it
        module.body.append(parsed.body.operations[1])
        passmanager.PassManager.parse("builtin.module(inline)").run(module.operation)
        return str(module), name


def dispatch_calls(configured: str) -> collections.Counter:
    """How many times the program runs each dispatch (by export name): IREE keeps one
    executable for identical dispatches, e.g. the Q, K and V projections of a layer."""
    return collections.Counter(re.findall(r"stream\.cmd\.dispatch @[\w.$-]+::@[\w.$-]+::@([\w.$-]+)", configured))


def _slim(folder: str, man: dict) -> None:
    """Leaves in a prepared folder only what its replay reads: the intermediate MLIR and the
    reference module carry the model's weights again, which the GPU machine does not need."""
    read = man["inputs"] + man["expected"] + man.get("sensitivity", []) + sum(man.get("as_written", []), [])
    keep = {"manifest.json", man["vmfb"]} | {t["file"] for t in read if t}
    for name in os.listdir(folder):
        if name not in keep:
            os.remove(os.path.join(folder, name))


def _twin(path: str, folder: str, archive: dict | None) -> dict | None:
    """The model's PyTorch twin where its ONNX metadata names one (models/suite.py does):
    the twin module and the model's weights go into the folder. The weights the folder's
    `archive` holds (its manifest record: scope, file) are read from it there, by initializer
    name, with the dtype and shape recorded here; the rest go to an .npz."""
    if not path.endswith(".onnx"):
        return None
    import numpy as np
    import onnx
    from onnx import numpy_helper

    from ldsopt.models import torch_twins as twins
    from ldsopt.run import parameters
    model = onnx.load(path)
    named = twins.named_twin(model)
    if named is None:
        return None
    function, kwargs = named
    if not callable(getattr(twins, function, None)):
        raise driver.DriverError(f"the model names the PyTorch twin '{function}', which models/torch_twins.py lacks", path)
    arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    held = {}
    if archive:
        store = parameters.Store([parameters.Archive(archive["scope"], os.path.join(folder, archive["file"]))])
        held = {name: {"dtype": a.dtype.str, "shape": list(a.shape)} for name, a in arrays.items()
                if (archive["scope"], name) in store.entries}
    weights = io.BytesIO()
    np.savez(weights, **{name: a for name, a in arrays.items() if name not in held})
    output_file.write(os.path.join(folder, "twin_weights.npz"), weights.getbuffer())
    output_file.copy(twins.__file__, os.path.join(folder, "torch_twins.py"))
    return {"script": "torch_twins.py", "function": function, "kwargs": kwargs, "weights": "twin_weights.npz",
            **({"archive": {**archive, "entries": held}} if held else {})}


def prepare_program(path: str, target: str, folder: str, pipeline_text: str = driver.DEFAULT_PIPELINE,
                    program_pipeline: str = driver.PROGRAM_PIPELINE, progress=print, given=None,
                    archives=(), weights_to_archive: bool = False, stack: int = 0) -> dict:
    """Prepares `lds-bench PROGRAM` (any program or model lds-run takes) into `folder`:
    - ldsopt/ and iree/: the whole program through ldsopt and through IREE's default, as
      `lds-run --prepare` (and `--baseline`) make them, for `program_bench`;
    - dispatches/<variant>/: a benchmark module per dispatch of the program as the ldsopt
      variant forms them (its program pipeline, its dispatch-formation flags), lowered by
      ldsopt and as IREE configured it: the same dispatches both ways, so the per-dispatch
      table compares code generation only;
    - the PyTorch twin, where the model names one;
    and manifest.json, whose `dispatches` are the table's rows in program order. `given`
    (inputs.Options) and the parameter `archives` are lds-run's: the archives are placed once,
    in folder/parameters, and both whole-program modules read them there. `weights_to_archive`:
    an ONNX model's weights become parameters of one more such archive, which the twin reads
    too (`model_import.import_onnx`), so the folder holds them once. `stack` (a layer: one
    tensor in, one of its type out): also the whole-program modules of `stack` layers in one
    call (`stacked`; STACK's subfolders), timed per layer without the per-call costs a model of
    many layers pays once, and the twin stacked the same way."""
    from ldsopt.run import inputs, model_import
    tgt = target_model.known(target)
    name = os.path.splitext(os.path.basename(path))[0]
    os.makedirs(folder, exist_ok=True)
    # A model is imported once, for every module made of it (with its weights' archive: they read it).
    weights = None
    if weights_to_archive:
        text, weights = driver.read_to_archive(path, os.path.join(folder, "parameters"))
        archives = [*archives, weights]
    else:
        text = driver.read_source(path)
    try:  # at its inputs' shapes (an export with dynamic dims), for the dispatch benchmarks too
        text = driver.program_inputs(text, None, path, given or inputs.Options())[0]
    except (inputs.InputsError, model_import.ModelImportError) as e:
        raise driver.DriverError(str(e), path) from None
    whole = {}
    with tempfile.TemporaryDirectory(prefix=f"lds-bench-{name}-") as work:
        def prepare_whole(src: str, variant: str, sub: str, **kwargs) -> tuple[dict, collections.Counter]:
            """`lds-run --prepare` of `src` into subfolder `sub` (`variant`: ldsopt or IREE's
            default), slimmed to what the replay reads; its manifest and `dispatch_calls`."""
            sub_folder = os.path.join(folder, sub)
            man = driver.prepare(src, target, sub_folder, pipeline_text=pipeline_text,
                                 program_pipeline=program_pipeline, baseline=variant.startswith("iree-default"),
                                 given=given, archives=archives, parameters_folder=os.path.join(folder, "parameters"),
                                 **kwargs)
            with open(os.path.join(sub_folder, "configured.mlir")) as f:
                calls = dispatch_calls(f.read())
            man["source"] = os.path.basename(path)
            output_file.write_json(os.path.join(sub_folder, "manifest.json"), man)
            _slim(sub_folder, man)
            return man, calls

        def left_out(sub: str, variant: str, e: driver.DriverError) -> str:
            """A module other than ldsopt's awaited one failing to prepare (IREE's default: its own
            defect, an LLVM crash on a 50257-wide arg_compare; ldsopt's async: a function whose
            results' storage cannot come from the caller) is a result to report, not the end of
            the bench."""
            shutil.rmtree(os.path.join(folder, sub), ignore_errors=True)
            lines = str(e).splitlines()
            cause = next((x.strip() for x in lines[1:] if "error" in x.lower()), "")
            said = f"{lines[0]} {cause}".strip()[:400]
            who = "IREE's default" if variant.startswith("iree-default") else variant
            progress(f"{who} cannot compile {os.path.basename(path)}: {said}")
            return said

        src = os.path.join(work, name + ".mlir")
        output_file.write(src, text)
        errors, stack_errors = {}, {}
        for variant, sub in WHOLE.items():
            try:
                whole[variant], variant_calls = prepare_whole(src, variant, sub, run_reference=variant == "ldsopt",
                                                              async_calls=variant.endswith(ASYNC))
            except driver.DriverError as e:
                if variant == "ldsopt":
                    raise
                errors[variant] = left_out(sub, variant, e)
                continue
            if variant == "ldsopt":
                calls = variant_calls
            progress(f"prepared the whole program, {variant}: {len(whole[variant]['dispatches'])} dispatch(es)")
        if stack > 1:
            stack_text, stack_function = stacked(text, stack, path)
            stack_src = os.path.join(work, f"{name}_stack.mlir")
            output_file.write(stack_src, stack_text)
            for variant, sub in STACK.items():
                try:
                    prepare_whole(stack_src, variant, sub, function=stack_function, run_reference=False,
                                  async_calls=variant.endswith(ASYNC))
                except driver.DriverError as e:
                    if not variant.startswith("iree-default"):
                        raise
                    stack_errors[variant] = left_out(sub, variant, e)
                    continue
                progress(f"prepared {stack} layers in one call, {variant}")
        flags = whole["ldsopt"]["compile_flags"]
        assert flags[:len(tgt.compile_flags)] == list(tgt.compile_flags), flags
        formation = tuple(flags[len(tgt.compile_flags):])
        program = driver.apply_program_pipeline(text, program_pipeline, target)
        variants = dispatch_benchmarks(DISPATCHES, (("ldsopt", program, driver.apply_ldsopt, formation),
                                                    ("iree-default", program, _as_configured, formation)),
                                       tgt, folder, work, pipeline_text)
    by_variant = {v: {d["name"]: d for d in e["dispatches"]} for v, e in variants.items()}
    at_load = {d["name"] for d in whole["ldsopt"]["dispatches"] if d.get("at_load")}
    names = sorted(by_variant["ldsopt"], key=lambda n: (n in at_load, program_bench.dispatch_index(n)))
    expected = sorted(d["name"] for d in whole["ldsopt"]["dispatches"])
    if sorted(by_variant["iree-default"]) != sorted(names) or sorted(names) != expected or set(calls) != set(names):
        raise driver.DriverError(f"{path}: the dispatch benchmarks do not form the program's dispatches "
                                 f"(benchmarks {names}, program {expected}, dispatched {sorted(calls)})")
    rows = []
    for n in names:
        ours, iree = by_variant["ldsopt"][n], by_variant["iree-default"][n]
        # A dispatch of the initializers runs once, at load: no calls per call of the program.
        rows.append({"name": n, "calls": 0 if n in at_load else calls[n], **({"at_load": True} if n in at_load else {}),
                     "passes": ours["passes"], "missed": ours["missed"],
                     "modules": {"ldsopt": ours["module"], "iree-default": iree["module"]},
                     **({"errors": {"iree-default": iree["error"]}} if "error" in iree else {}),
                     "pipelines": {"ldsopt": ours["pipeline"], "iree-default": iree["pipeline"]},
                     "bank_conflicts": ours["bank_conflicts"], "work": iree["work"],
                     **({"isa": {"ldsopt": ours["isa"], "iree-default": iree.get("isa")}} if "isa" in ours else {})})
    twin = _twin(path, folder, weights and {"scope": weights.scope, "file": os.path.relpath(weights.path, folder)})
    commit, dirty = git_state()
    manifest = {"program": name, "source": os.path.basename(path), "target": target, "device": tgt.device,
                "commit": commit, "dirty": dirty, "pipeline": pipeline_text, "program_pipeline": program_pipeline,
                "dispatch_formation": list(formation), "whole": {v: s for v, s in WHOLE.items() if v not in errors},
                **({"whole_errors": errors} if errors else {}), "dispatches": rows, "twin": twin,
                **({"stack": {"layers": stack, "whole": {v: s for v, s in STACK.items() if v not in stack_errors},
                              **({"errors": stack_errors} if stack_errors else {})}} if stack > 1 else {}),
                "prepared": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    output_file.write_json(os.path.join(folder, "manifest.json"), manifest)
    progress(f"prepared {len(rows)} dispatch benchmarks; {replay.coverage(rows)}"
             + (f"; PyTorch twin {twin['function']}" if twin else "; no PyTorch twin"))
    return manifest
