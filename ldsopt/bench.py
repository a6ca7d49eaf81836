"""The compile half of lds-bench: dispatch benchmark modules for ldsopt and for IREE's default.

For each case of `bench/cases.py`:

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
to the GPU machine, where `ldsopt.bench_replay` times it.
"""

from __future__ import annotations

import datetime
import glob
import json
import os
import shutil
import subprocess
import tempfile

from iree.compiler import ir

from ldsopt import bench_replay, driver
from ldsopt import target as target_model

CASES_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench", "cases.py")


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
    repo = os.path.dirname(CASES_FILE)
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
    signature of driver.apply_ldsopt)."""
    with ir.Context() as ctx:
        return text, driver.dispatch_report(ir.Module.parse(text, ctx))


def prepare_case(case, tgt: target_model.KnownTarget, folder: str, pipeline_text: str,
                 program_pipeline: str = driver.PROGRAM_PIPELINE) -> dict:
    """Compiles one case's benchmark modules both ways into folder/<case>/<variant>/: IREE's
    default on the case's program, ldsopt on the program after `program_pipeline`."""
    variants = {}
    with tempfile.TemporaryDirectory(prefix=f"lds-bench-{case.name}-") as work:
        ours = driver.apply_program_pipeline(case.mlir, program_pipeline)
        os.makedirs(os.path.join(work, "choice"))
        flags = driver.dispatch_flags(ours, tgt, os.path.join(work, "choice"), pipeline_text)
        for variant, program, lower, flags in (("ldsopt", ours, driver.apply_ldsopt, flags),
                                               ("iree-default", case.mlir, _as_configured, ())):
            modules = _benchmark_modules(program, tgt, os.path.join(work, variant), flags)
            if not modules:
                raise driver.DriverError(f"{case.name}: IREE dumped no dispatch benchmark modules")
            entry = variants[variant] = {"modules": [], "dispatches": []}
            for stem, text in modules:
                text, report = lower(text, pipeline_text)
                rel = os.path.join(case.name, variant, stem + ".vmfb")
                os.makedirs(os.path.dirname(os.path.join(folder, rel)), exist_ok=True)
                mlir = os.path.join(work, variant, stem + ".mlir")
                with open(mlir, "w") as f:
                    f.write(text)
                driver.iree_compile([mlir, "-o", os.path.join(folder, rel)], f"{case.name}: compile {variant} {stem}")
                entry["modules"].append(rel)
                entry["dispatches"] += report
            entry["ldsopt_dispatches"], entry["total_dispatches"] = _count(entry["dispatches"])
    return {"name": case.name, "what": case.what, "bytes": case.bytes, "flops": case.flops, "variants": variants}


def prepare(target: str, folder: str, names: list[str] | None = None,
            pipeline_text: str = driver.DEFAULT_PIPELINE, program_pipeline: str = driver.PROGRAM_PIPELINE,
            progress=print) -> dict:
    """Compiles the selected cases for `target` into `folder` and writes its manifest.json."""
    tgt = target_model.known(target)
    cases = select(bench_replay.load_cases(CASES_FILE), names, target)
    os.makedirs(folder, exist_ok=True)
    shutil.copy(CASES_FILE, os.path.join(folder, "cases.py"))
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
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest
