"""lds-run: compile a program through IREE with ldsopt, run it, and check it against llvm-cpu.

    lds-run prog.mlir [--target lavapipe|cuda|gfx942] [--require-ldsopt] [--emit-dir DIR]
    lds-run prog.mlir --target cuda --prepare DIR      # compile here ...
    lds-run --replay DIR                               # ... run there (runtime only)
    lds-run a.mlir b.mlir --target cuda --prepare DIR  # a suite: DIR/a, DIR/b; --replay DIR runs all

Prints, per dispatch, which pipeline lowered it (the ldsopt passes, or `iree-default`),
the max abs/rel error per output, and a last line starting PASS or FAIL (exit 0 only on
PASS). For gfx942 with no AMD GPU present it compiles, prints an ISA summary per
dispatch and ends with a line starting COMPILED.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from ldsopt import replay as replay_mod


def available_devices() -> set[str]:
    try:
        out = subprocess.run([replay_mod.tool("iree-run-module"), "--list_devices"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return {line.split(":")[0].strip() for line in out.splitlines() if "://" in line}


def default_target(devices: set[str]) -> str:
    for dev, name in (("hip", "gfx942"), ("cuda", "cuda"), ("vulkan", "lavapipe")):
        if dev in devices:
            return name
    raise SystemExit("lds-run: error: no GPU device found (hip, cuda or vulkan); name one with --target")


def program_pipeline(args) -> str:
    """--program-pipeline, where '' means none and leaving it out the default."""
    from ldsopt import driver
    return driver.PROGRAM_PIPELINE if args.program_pipeline is None else args.program_pipeline


def prepare_suite(args) -> int:
    """Prepares each input into its own subfolder; prints one line each."""
    from ldsopt import driver
    failed = 0
    for path in args.inputs:
        folder = os.path.join(args.prepare, os.path.splitext(os.path.basename(path))[0])
        try:
            driver.prepare(path, args.target or "cuda", folder, function=args.function, seed=args.seed,
                           pipeline_text=args.pipeline or driver.DEFAULT_PIPELINE,
                           program_pipeline=program_pipeline(args), baseline=args.baseline,
                           atol=args.atol, rtol=args.rtol)
            print(f"PREPARED {folder}", flush=True)
        except (driver.DriverError, FileNotFoundError) as e:
            failed += 1
            print(f"{path}: error: {e}", file=sys.stderr, flush=True)
    return 1 if failed else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="lds-run", description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="*", metavar="input", help="program .mlir (functions on tensors)")
    ap.add_argument("--target", choices=["gfx942", "cuda", "lavapipe"])
    ap.add_argument("--function", help="entry function (default: the only public one)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--atol", type=float)
    ap.add_argument("--rtol", type=float)
    ap.add_argument("--emit-dir", help="keep every intermediate (sources, vmfb, inputs, outputs) here")
    ap.add_argument("--baseline", action="store_true", help="IREE's default pipeline only")
    ap.add_argument("--pipeline", help="ldsopt pass pipeline (default: the full ldsopt pipeline)")
    ap.add_argument("--program-pipeline", help="ldsopt passes run on the program before IREE forms dispatches "
                    "(default: the split of long reductions; '' for none)")
    ap.add_argument("--require-ldsopt", action="store_true", help="fail if a dispatch fell back to IREE's default")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--prepare", metavar="DIR", help="compile, make inputs and reference outputs into DIR; do not run")
    ap.add_argument("--replay", metavar="DIR", help="run a folder made by --prepare (needs only the IREE runtime)")
    args = ap.parse_args(argv)

    if args.replay:
        return replay_mod.main([args.replay] + (["--require-ldsopt"] if args.require_ldsopt else [])
                               + (["--json"] if args.json else []))
    if not args.inputs:
        ap.error("an input file is required")
    if len(args.inputs) > 1:
        if not args.prepare:
            ap.error("several inputs need --prepare DIR (each goes to DIR/<name>)")
        return prepare_suite(args)
    args.input = args.inputs[0]
    from ldsopt import driver  # the compiler is needed from here on

    devices = available_devices()
    target = args.target or default_target(devices)
    scratch = not (args.prepare or args.emit_dir)
    folder = args.prepare or args.emit_dir or tempfile.mkdtemp(prefix="lds-run-")
    device = driver.target_model.known(target).device
    run_here = args.prepare is None and device in devices
    rc = 1
    try:
        rc = prepare_and_run(args, target, folder, run_here)
        return rc
    finally:
        # A scratch folder outlives the run only as the prepared folder it names for --replay.
        if scratch and (rc != 0 or run_here or target == "gfx942"):
            shutil.rmtree(folder, ignore_errors=True)


def prepare_and_run(args, target: str, folder: str, run_here: bool) -> int:
    """Compiles into `folder`, runs there if `run_here`, prints the report; the exit status."""
    from ldsopt import driver, isa

    try:
        man = driver.prepare(args.input, target, folder, function=args.function, seed=args.seed,
                             pipeline_text=args.pipeline or driver.DEFAULT_PIPELINE,
                             program_pipeline=program_pipeline(args), baseline=args.baseline,
                             dump=target == "gfx942", atol=args.atol, rtol=args.rtol, run_reference=run_here
                             or args.prepare is not None)
    except (driver.DriverError, FileNotFoundError) as e:
        print(f"{args.input}: error: {e}", file=sys.stderr)
        return 1
    if run_here:
        try:
            result = replay_mod.replay(folder)
        except RuntimeError as e:
            print(f"{args.input}: error: {e}", file=sys.stderr)
            return 1
        text, ok = replay_mod.format_report(result, args.require_ldsopt)
        print(json.dumps(result, indent=1) if args.json else text)
        return 0 if ok else 1

    lines = [f"dispatch {d['name']}: " + ("ldsopt: " + ", ".join(d["passes"]) if d["passes"]
                                         else f"iree-default ({d['pipeline']})") for d in man["dispatches"]]
    fell_back = [d for d in man["dispatches"] if not d["passes"]]
    if target == "gfx942":
        kernels = isa.from_dump_dir(os.path.join(folder, "executables"))
        lines += [k.summary() for k in kernels]
        verdict = f"COMPILED {args.input} for gfx942 ({len(kernels)} kernels; no AMD GPU here, not run)"
    else:
        verdict = f"PREPARED {folder} for {target}: run it with `lds-run --replay {folder}`"
    if args.require_ldsopt and fell_back:
        lines.append(f"FAIL --require-ldsopt: {len(fell_back)} dispatch(es) fell back to IREE's default pipeline")
        print("\n".join(lines))
        return 1
    if args.json:
        print(json.dumps({**man, "verdict": verdict}, indent=1))
    else:
        print("\n".join(lines + [verdict]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
