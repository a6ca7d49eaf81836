"""lds-run: compile a program through IREE with ldsopt, run it, and check it against a reference.

    lds-run prog.mlir [--target lavapipe|cuda|gfx942] [--require-ldsopt] [--emit-dir DIR]
    lds-run prog.mlir --target cuda --prepare DIR      # compile here ...
    lds-run --replay DIR                               # ... run there (runtime only)
    lds-run a.mlir b.mlir --target cuda --prepare DIR  # a suite: DIR/a, DIR/b; --replay DIR runs all

Prints, per dispatch, which pipeline lowered it (the ldsopt passes, or `iree-default`),
the reference that ran (the program promoted to f64 where it can be, see ldsopt/run/reference.py,
evaluated by numpy, ldsopt/run/numpy_reference.py, or where numpy cannot, by IREE's llvm-cpu),
the max abs/rel error and the tolerance per output, and a last line starting PASS or FAIL
(exit 0 only on PASS). For gfx942 with no AMD GPU present it compiles, prints an ISA summary per
dispatch and ends with a line starting COMPILED.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import sys
import tempfile

from ldsopt.cli import arguments, folder_lock, interrupts, output_file
from ldsopt.run import pipelines


def program_pipeline(args) -> str:
    """--program-pipeline, where '' means none and leaving it out the default."""
    from ldsopt.run import driver
    return driver.PROGRAM_PIPELINE if args.program_pipeline is None else args.program_pipeline


def prepare_suite(args) -> int:
    """Prepares each input into its own subfolder; prints one line each."""
    from ldsopt.run import driver, ptxas_check
    failed = 0
    for path in args.inputs:
        folder = os.path.join(args.prepare, os.path.splitext(os.path.basename(path))[0])
        try:
            manifest = driver.prepare(
                path, args.target or "cuda", folder, function=args.function, seed=args.seed,
                pipeline_text=args.pipeline or driver.DEFAULT_PIPELINE, program_pipeline=program_pipeline(args),
                baseline=args.baseline, atol=args.atol, rtol=args.rtol, special_values=args.special_values,
                given=input_options(args, path), archives=archives(args),
                weights_to_archive=args.weights_to_archive, keep_dynamic=args.keep_dynamic)
            for d in manifest["dispatches"]:
                for finding in ptxas_check.findings(d):
                    print(f"{path}: warning: dispatch {d['name']}: ptxas: {finding}", file=sys.stderr, flush=True)
            print(f"PREPARED {folder}", flush=True)
        except (driver.DriverError, FileNotFoundError, UsageError, output_file.OutputError) as e:
            failed += 1
            print(f"{getattr(e, 'where', None) or path}: error: {e}", file=sys.stderr, flush=True)
    return 1 if failed else 0


class UsageError(Exception):
    """A bad --parameters or --input option."""


def archives(args) -> list:
    from ldsopt.run import parameters
    try:
        return [parameters.parse(spec) for spec in args.parameters or []]
    except parameters.ParameterError as e:
        raise UsageError(str(e)) from None


def input_options(args, path: str):
    """The --input/--input-range/--input-shape options, with the argument names of an ONNX
    model's graph (`model_import.input_names`)."""
    from ldsopt.run import inputs, model_import
    names = model_import.input_names(path) if path.endswith(".onnx") else None
    return inputs.Options(args.input_values or [], args.input_range or [], args.input_shape or [], names)


def check_arguments(args) -> list[str | None]:
    """The argument values, before any compile (`ldsopt.cli.arguments`); the folder to keep is made
    here if it is not there. Returns the folders made, which a failed run that wrote nothing
    there removes."""
    arguments.count("--seed", args.seed)
    arguments.tolerance("--atol", args.atol)
    arguments.tolerance("--rtol", args.rtol)
    return [arguments.folder_to_write(flag, folder)
            for flag, folder in (("--prepare", args.prepare), ("--emit-dir", args.emit_dir)) if folder is not None]


def check_pipelines(args) -> str | None:
    """The located error of a --pipeline or --program-pipeline that does not parse, or whose
    passes or options do not exist or are out of range; None if both are good."""
    from ldsopt import diagnostics, pipeline
    for flag, text in (("--pipeline", args.pipeline), ("--program-pipeline", args.program_pipeline)):
        if text:
            try:
                pipeline.check(text)
            except pipeline.PipelineError as e:
                return "\n".join([f"{e.where(flag)}: error: {e}"] + diagnostics.excerpt(text, 1, e.col))
    return None


class _Parser(argparse.ArgumentParser):
    def format_help(self) -> str:
        self.epilog = (f"default pipelines:\n  --pipeline '{pipelines.DEFAULT_PIPELINE}'\n"
                       f"  --program-pipeline '{pipelines.PROGRAM_PIPELINE}'\n\n"
                       "--json prints one record of the same shape for every target (with a \"schema\" "
                       "version),\nand a kept folder holds a README.md naming its files: both are described "
                       "in\ndocs/lds-run-output.md.\n\nInputs that would read a table out of bounds (a value "
                       "given, or a table index the program\nreaches through arithmetic, whose bound is not "
                       "derived) are refused with the reason;\nnothing is run.")
        return super().format_help()


def parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="lds-run", description=__doc__.split("\n")[0],
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*", metavar="input",
                    help="program: .mlir of functions on tensors (linalg, weights inline or as util.globals); "
                         "a torch export (iree-turbine's aot.export(...).save_mlir(), lowered by IREE's torch input "
                         "pipeline torch-to-iree as iree-compile --iree-input-type=torch lowers it); torch-dialect "
                         ".mlir of IREE's ONNX importer or a .onnx file (lowered by IREE's ONNX pipelines); "
                         "several with --prepare")
    ap.add_argument("--target", choices=["gfx942", "cuda", "cuda-sm90a", "lavapipe"],
                    help="what to compile for (default: the first device present of hip -> gfx942, cuda -> cuda, "
                         "vulkan -> lavapipe); without its device here it is compiled only (gfx942: ISA summary, "
                         "COMPILED) or prepared to be replayed elsewhere (PREPARED)")
    ap.add_argument("--function", help="entry function (default: the only public one)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default: 0)")
    ap.add_argument("--input", action="append", dest="input_values", metavar="NAME_OR_INDEX=VALUE",
                    help="an input's value, as iree-run-module spells it: @file.npy, SHAPExTYPE=V1 V2 ..., "
                         "SHAPExTYPE=V (splat), SHAPExTYPE (zeros), TYPE=V; repeatable. The others are drawn at random: "
                         "floats unit normal, integers in [-1000, 1000] (i8: its range), integers that index a table "
                         "(embedding, gather) in [0, its extent), as the program's table reads bound them")
    ap.add_argument("--input-range", action="append", metavar="NAME_OR_INDEX=LO:HI",
                    help="draw this input in [LO, HI] (floats uniform, integers inclusive); repeatable")
    ap.add_argument("--input-shape", action="append", metavar="NAME_OR_INDEX=SHAPE",
                    help="the shape (e.g. 1x128) of a random input whose argument has dynamic dims (an export with "
                         "dynamic_shapes; the program is run at its inputs' shapes); repeatable")
    ap.add_argument("--keep-dynamic", action="store_true",
                    help="compile the program with its dynamic dims left dynamic (the kernels read the extents at "
                         "run time) and run it at the inputs' shapes (--input-shape); the reference runs the "
                         "program specialized to them. Without it a dynamic program is specialized before it "
                         "is compiled")
    ap.add_argument("--parameters", action="append", metavar="[SCOPE=]FILE",
                    help="a parameter archive (.irpa; .safetensors, .gguf), as iree-run-module takes it, holding the "
                         "weights the program's util.globals name (#flow.parameter.named<\"SCOPE\"::\"KEY\">); the "
                         "ldsopt module, IREE's and the reference all read it; repeatable")
    ap.add_argument("--weights-to-archive", action="store_true",
                    help="an ONNX model's weights as parameters of one archive (FOLDER/parameters/weights.irpa) that "
                         "every module reads, as a PyTorch export's are: IREE forms the dispatches of a model "
                         "whose weights are loaded, not constants it can fold")
    ap.add_argument("--atol", type=float, help="absolute tolerance of every float output (default: per element "
                    "type and the float types the program computes in: f32 1e-4, f16 1e-2, bf16 5e-2, f64 1e-9)")
    ap.add_argument("--rtol", type=float, help="relative tolerance of every float output, times max(|ref|, s), s "
                    "each element's own scale (README.md) (default: f32 1e-4, f16 1e-2, bf16 2e-2, f64 1e-9)")
    ap.add_argument("--reference", choices=["auto", "numpy", "llvm-cpu"], default="auto",
                    help="what computes the reference outputs: numpy (ldsopt/run/numpy_reference.py, in f64, for "
                         "the programs it evaluates), IREE's llvm-cpu backend, or auto: numpy where it can, "
                         "else llvm-cpu (default: auto)")
    ap.add_argument("--special-values", action="store_true",
                    help="float inputs also hold +inf, -inf, NaN, -0.0 and subnormals at seeded places")
    ap.add_argument("--emit-dir", metavar="DIR", help="keep every intermediate here (sources, modules, inputs, "
                    "outputs, the commands run; its README.md names each file)")
    ap.add_argument("--baseline", action="store_true", help="IREE's default pipeline only")
    ap.add_argument("--pipeline", help="ldsopt pass pipeline run on the dispatches (default below)")
    ap.add_argument("--program-pipeline", help="ldsopt passes run on the program before IREE forms dispatches "
                    "(default below; '' for none)")
    ap.add_argument("--require-ldsopt", action="store_true",
                    help="fail if a dispatch of a call fell back to IREE's default (not one that the "
                         "initializers run once, at load)")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON record (see below)")
    ap.add_argument("--prepare", metavar="DIR", help="compile, make inputs and reference outputs into DIR; do not run")
    ap.add_argument("--replay", metavar="DIR", help="run a folder made by --prepare (needs only the IREE runtime)")
    return ap


def main(argv=None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    from ldsopt.run import replay as replay_mod  # numpy and the runtime: after the arguments parse
    if args.replay:
        return replay_mod.main([args.replay] + (["--require-ldsopt"] if args.require_ldsopt else [])
                               + (["--json"] if args.json else []), tool="lds-run")
    if not args.inputs:
        ap.error("an input file is required")
    if len(args.inputs) > 1 and not args.prepare:
        ap.error("several inputs need --prepare DIR (each goes to DIR/<name>)")
    with interrupts.handled():
        try:
            return checked_main(args)
        except interrupts.Interrupted as e:
            print(e.line("lds-run"), file=sys.stderr)
            return e.exit_status


def checked_main(args) -> int:
    """main's work once the arguments parse: their values checked, then the run, in the folder
    kept (--prepare, --emit-dir: locked for the run) or a temporary one, removed on every exit
    unless it is the result (a folder PREPARED for a device not here)."""
    try:
        made = check_arguments(args)
    except arguments.ArgumentError as e:
        print(e.format("lds-run"), file=sys.stderr)
        return 1
    rc = 1
    try:
        rc = run_checked(args)
        return rc
    finally:
        if rc != 0:  # a failed or interrupted run leaves no empty folder it made
            with interrupts.shielded():
                arguments.remove_made(made, kept=(folder_lock.LOCK,))


def run_checked(args) -> int:
    """checked_main's run once the argument values are checked."""
    from ldsopt.run import iree_tools
    bad_pipeline = check_pipelines(args)
    if bad_pipeline:
        print(bad_pipeline, file=sys.stderr)
        return 1
    devices = iree_tools.available_devices()
    target = args.target or iree_tools.default_target(devices)
    if target is None:
        print("lds-run: error: no GPU device found (hip, cuda or vulkan); name one with --target", file=sys.stderr)
        return 1
    args.input = args.inputs[0]
    kept = args.prepare or args.emit_dir
    if kept:
        try:
            with folder_lock.held(kept, "--prepare" if args.prepare else "--emit-dir"):
                return prepare_suite(args) if len(args.inputs) > 1 else run_one(args, target, devices, kept)
        except folder_lock.FolderBusy as e:
            print(e.format(), file=sys.stderr)
            return 1
    from ldsopt import target as target_model
    # Without a kept folder nothing is kept, failed or not, except a folder prepared for a
    # device that is not here: it is the result (the PREPARED line names it).
    only_prepared = target != "gfx942" and target_model.known(target).device not in devices
    folder = None
    rc = 1
    try:
        with interrupts.shielded():
            folder = tempfile.mkdtemp(prefix="lds-run-")
        rc = run_one(args, target, devices, folder)
        return rc
    finally:
        if folder is not None and (rc != 0 or not only_prepared):
            with interrupts.shielded():
                shutil.rmtree(folder, ignore_errors=True)


def run_one(args, target: str, devices: frozenset[str], folder: str) -> int:
    from ldsopt.run import record as run_record
    from ldsopt.run import replay as replay_mod
    """Compiles args.input for `target` in `folder` and runs it if the device is here."""
    from ldsopt.run import driver
    from ldsopt.measure import isa  # the compiler is needed from here on

    device = driver.target_model.known(target).device
    run_here = args.prepare is None and device in devices
    # The folder the user keeps: asked for, or the result of a run prepared for elsewhere.
    kept = args.prepare or args.emit_dir or (folder if not run_here and target != "gfx942" else None)
    try:
        man = driver.prepare(args.input, target, folder, function=args.function, seed=args.seed,
                             pipeline_text=args.pipeline or driver.DEFAULT_PIPELINE,
                             program_pipeline=program_pipeline(args), baseline=args.baseline,
                             dump=target == "gfx942", atol=args.atol, rtol=args.rtol,
                             # every folder that may be replayed has its reference; gfx942 without
                             # a device is only compiled
                             run_reference=run_here or args.prepare is not None or target != "gfx942",
                             special_values=args.special_values, reference_engine=args.reference,
                             given=input_options(args, args.input), archives=archives(args),
                             weights_to_archive=args.weights_to_archive, keep_dynamic=args.keep_dynamic)
    except (driver.DriverError, FileNotFoundError, UsageError, output_file.OutputError) as e:
        print(f"{getattr(e, 'where', None) or args.input}: error: {e}", file=sys.stderr)
        return 1
    if run_here:
        try:
            result = replay_mod.replay(folder)
        except (RuntimeError, output_file.OutputError) as e:
            print(f"{args.input}: error: {e}", file=sys.stderr)
            return 1
        text, ok = replay_mod.format_report(result, args.require_ldsopt)
        verdict = text.splitlines()[-1]
        print(json.dumps(run_record.record(man, status=verdict.split()[0], verdict=verdict, result=result,
                                           folder=kept), indent=1) if args.json else text)
        return 0 if ok else 1

    lines = replay_mod.dispatch_lines(man["dispatches"])
    fell_back = replay_mod.left_to_iree(man["dispatches"])
    kernels = None
    if target == "gfx942":
        kernels = isa.from_dump_dir(os.path.join(folder, "executables"))
        lines += [k.summary() for k in kernels]
        verdict = f"COMPILED {args.input} for gfx942 ({len(kernels)} kernels; no AMD GPU here, not run)"
    else:
        verdict = f"PREPARED {folder} for {target}: run it with `lds-run --replay {folder}`"
    if args.require_ldsopt and fell_back:
        verdict = f"FAIL --require-ldsopt: {len(fell_back)} dispatch(es) fell back to IREE's default pipeline"
    if args.json:
        print(json.dumps(run_record.record(man, status=verdict.split()[0], verdict=verdict, folder=kept,
                                           isa=[dataclasses.asdict(k) for k in kernels] if kernels is not None
                                           else None), indent=1))
    else:
        print("\n".join(lines + [verdict]))
    return 1 if verdict.startswith("FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())
