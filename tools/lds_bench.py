"""lds-bench: time ldsopt's dispatches against IREE's default pipeline and PyTorch.

    lds-bench --target cuda --prepare DIR [--cases a,b]   # compile here ...
    lds-bench --replay DIR [--out OUT]                    # ... time there (runtime only)
    lds-bench --target lavapipe [--cases a,b] [--out OUT] # compile and time here (smoke)
    lds-bench --list
    lds-bench PROGRAM --target cuda --prepare DIR         # any program or model (.mlir, .onnx)
    lds-bench [PROGRAM] --target gfx942 [--out OUT]       # no HIP device here: the static report

Cases live in ldsopt/measure/cases.py. Results: OUT/results.json, results.md (a table of times
and fractions of the copy bandwidth measured in the same run) and results.png.
A PROGRAM (linalg MLIR, a torch export of iree-turbine lowered by IREE's torch input pipeline,
IREE's ONNX import, or ONNX; its weights inline or in --parameters archives; its inputs as
lds-run's --input, --input-range, --input-shape give them) gives OUT/program_results.{json,md,png}:
per dispatch, its time through ldsopt and through IREE and who lowered it (or why ldsopt
did not); the whole program through ldsopt and through IREE's default; the PyTorch twin
where the model names one (`ldsopt.measure.program_bench`).
gfx942 where no HIP device is: the kernels are compiled and their ISA read instead of run,
ldsopt's beside IREE's default per case or dispatch (registers, occupancy, LDS, scratch,
MFMA, LDS and global accesses by width, waits and barriers, per kernel and per main-loop
iteration; bounds at the MI300X's peaks): OUT/gfx942_report.{json,md,png}
(`ldsopt.measure.gfx942_report`). With a HIP device the times run and that report joins them.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import shutil
import sys
import tempfile

from ldsopt.cli import arguments, folder_lock, interrupts, output_file


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="lds-bench", description=__doc__.split("\n")[0])
    ap.add_argument("program", nargs="?", help="a program or model to time instead of the cases (.mlir, .onnx)")
    ap.add_argument("--parameters", action="append", metavar="[SCOPE=]FILE",
                    help="PROGRAM: a parameter archive its util.globals name, as lds-run takes it; repeatable")
    ap.add_argument("--weights-to-archive", action="store_true",
                    help="PROGRAM (.onnx): its weights as parameters of one archive in the folder, which both "
                         "modules and the PyTorch twin read: the weights once, not once per module")
    ap.add_argument("--stack", type=int, default=0, metavar="N",
                    help="PROGRAM (a layer: one tensor in, one of its type out): also time N layers in one call, "
                         "each output the next input, per layer (as a model of N layers runs), and the twin so")
    ap.add_argument("--input", action="append", dest="input_values", metavar="NAME_OR_INDEX=VALUE",
                    help="PROGRAM: an input's value, as lds-run takes it (@file.npy, SHAPExTYPE=...); repeatable")
    ap.add_argument("--input-range", action="append", metavar="NAME_OR_INDEX=LO:HI",
                    help="PROGRAM: draw this input in [LO, HI]; repeatable")
    ap.add_argument("--input-shape", action="append", metavar="NAME_OR_INDEX=SHAPE",
                    help="PROGRAM: the shape of a random input of dynamic dims; repeatable")
    ap.add_argument("--target", choices=["cuda", "cuda-sm90a", "lavapipe", "gfx942"],
                    help="what to compile for (required unless --replay or --list)")
    ap.add_argument("--cases", help="comma-separated case names (default: all; lavapipe: a small subset)")
    ap.add_argument("--pipeline", help="ldsopt pass pipeline (default: the full ldsopt pipeline)")
    ap.add_argument("--program-pipeline", help="ldsopt passes run on the program before IREE forms dispatches, "
                    "ldsopt variant only (default: raising and splitting attention, splitting K of matmuls with few "
                    "tiles, splitting long reductions; '' for none)")
    ap.add_argument("--prepare", metavar="DIR", help="compile the benchmark modules into DIR; do not run")
    ap.add_argument("--replay", metavar="DIR", help="time a folder made by --prepare (needs only the IREE runtime)")
    ap.add_argument("--out", help="results folder (default: the prepared folder)")
    ap.add_argument("--batch-size", type=int, help="dispatches per batch (default: from each case's bytes)")
    ap.add_argument("--repetitions", type=int, default=5, help="benchmark repetitions of each dispatch; a "
                    "case's time sums each dispatch's median (default: 5)")
    ap.add_argument("--min-time", help="google-benchmark min time per repetition (default 0.2s on GPUs)")
    ap.add_argument("--no-torch", action="store_true", help="skip the PyTorch column and the copy bandwidth")
    ap.add_argument("--list", action="store_true", help="list the cases and their bytes")
    return ap


def lds_run_usage_error() -> type:
    from ldsopt.tools import lds_run
    return lds_run.UsageError


def check_arguments(args) -> list[str | None]:
    """The argument values, before any compile (`ldsopt.cli.arguments`); --prepare and --out are
    made here if they are not there: the folders made, which a failed run that wrote nothing
    there removes."""
    arguments.count("--repetitions", args.repetitions, low=1)
    arguments.count("--batch-size", args.batch_size, low=1)
    arguments.count("--stack", args.stack or None, low=2)  # 0: not asked; one layer is the program itself
    arguments.min_time("--min-time", args.min_time)
    return [arguments.folder_to_write(flag, folder)
            for flag, folder in (("--prepare", args.prepare), ("--out", args.out)) if folder is not None]


def main(argv=None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if args.program and args.cases:
        ap.error("a PROGRAM or --cases, not both")
    if not (args.replay or args.list or args.target):
        ap.error("--target is required to compile")
    try:
        made = check_arguments(args)
    except arguments.ArgumentError as e:
        print(e.format("lds-bench"), file=sys.stderr)
        return 1
    rc = 1
    with interrupts.handled():
        try:
            rc = checked_main(args)
            return rc
        except interrupts.Interrupted as e:
            print(e.line("lds-bench"), file=sys.stderr)
            return e.exit_status
        except folder_lock.FolderBusy as e:
            print(e.format(), file=sys.stderr)
            return 1
        finally:
            if rc != 0:  # a failed or interrupted run leaves no empty folder it made
                with interrupts.shielded():
                    arguments.remove_made(made, kept=(folder_lock.LOCK,))


def checked_main(args) -> int:
    """main's work once the arguments are checked: the folder written (--prepare, --out, or a
    temporary one that holds the results) is locked for the run; a temporary one is removed if
    the run fails or is interrupted."""
    from ldsopt.measure import bench_replay, gfx942_report  # numpy and the runtime: after the arguments parse
    replay_args = ["--repetitions", str(args.repetitions)] + (["--out", args.out] if args.out else []) \
        + (["--batch-size", str(args.batch_size)] if args.batch_size else []) \
        + (["--min-time", args.min_time] if args.min_time else []) + (["--no-torch"] if args.no_torch else [])
    if args.replay:  # the results go to --out, else into the replayed folder
        written = args.out or args.replay
        with folder_lock.held(written, "--out" if args.out else "--replay") if os.path.isdir(written) \
                else contextlib.nullcontext():
            rc = bench_replay.main([args.replay] + replay_args)
            gfx942_report.join(args.replay, args.out)
            return rc

    from ldsopt.measure import bench
    from ldsopt.run import driver  # the compiler is needed from here on

    if args.list:
        for c in bench.bench_cases.CASES:
            print(f"{c.name:<32} {c.bytes:>12} bytes  {c.what}")
        return 0
    temporary = None
    rc = 1
    try:
        if not (args.prepare or args.out):
            # Without --out the results go to a new folder of the working directory, named for
            # the target and the time, which the tool names before it starts (removed if it fails).
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
            with interrupts.shielded():
                temporary = tempfile.mkdtemp(prefix=f"lds-bench-{args.target}-{stamp}-", dir=os.getcwd())
            print(f"lds-bench: results go to {os.path.relpath(temporary)} (--out names another folder)", flush=True)
        folder = args.prepare or args.out or temporary
        with folder_lock.held(folder, "--prepare" if args.prepare else "--out"):
            rc = prepare_and_time(args, folder, replay_args, bench, driver)
        return rc
    finally:
        if temporary is not None and rc != 0:
            with interrupts.shielded():
                shutil.rmtree(temporary, ignore_errors=True)


def prepare_and_time(args, folder: str, replay_args: list[str], bench, driver) -> int:
    from ldsopt.measure import bench_replay, gfx942_report
    from ldsopt.run import iree_tools
    try:
        if args.program:
            from ldsopt.tools import lds_run
            bench.prepare_program(args.program, args.target, folder, args.pipeline or driver.DEFAULT_PIPELINE,
                                  driver.PROGRAM_PIPELINE if args.program_pipeline is None else args.program_pipeline,
                                  progress=lambda m: print(m, flush=True),
                                  given=lds_run.input_options(args, args.program), archives=lds_run.archives(args),
                                  weights_to_archive=args.weights_to_archive, stack=args.stack)
        else:
            bench.prepare(args.target, folder, args.cases.split(",") if args.cases else None,
                          args.pipeline or driver.DEFAULT_PIPELINE,
                          driver.PROGRAM_PIPELINE if args.program_pipeline is None else args.program_pipeline,
                          progress=lambda m: print(m, flush=True))
    except (driver.DriverError, FileNotFoundError, output_file.OutputError, lds_run_usage_error()) as e:
        where = getattr(e, "where", None)
        print(f"{where + ': ' if where else 'lds-bench: '}error: {e}", file=sys.stderr)
        return 1
    if args.prepare:
        print(f"PREPARED {folder} for {args.target}: time it with `lds-bench --replay {folder}` "
              f"or `python -m ldsopt.measure.bench_replay {folder}`"
              + (f"; its static report: `python -m ldsopt.measure.gfx942_report {folder}`" if args.target == "gfx942"
                 else ""))
        return 0
    if args.target == "gfx942" and "hip" not in iree_tools.available_devices():
        out = args.out or folder
        print(f"lds-bench: no HIP device here, so the gfx942 kernels are not run: writing their static report "
              f"(from the ISA) to {os.path.join(out, gfx942_report.STEM)}.{{json,md,png}}", flush=True)
        return gfx942_report.main([folder] + (["--out", args.out] if args.out else []))
    rc = bench_replay.main([folder] + replay_args)
    if args.target == "gfx942":
        gfx942_report.join(folder, args.out)
    return rc


if __name__ == "__main__":
    sys.exit(main())
