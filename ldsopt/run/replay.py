"""The run half of lds-run: run a compiled module on seeded inputs and compare.

This module imports nothing but the standard library and numpy, and calls IREE's
`iree-run-module` (from the iree-base-runtime wheel): it runs on machines that have no
compiler, such as the lent H200 (compiled here, run there). A prepared
folder holds `manifest.json`, the `.vmfb`, the inputs and the reference outputs as raw
binary files; `python -m ldsopt.run.replay DIR` (or `lds-run --replay DIR`) runs it.

Before anything runs, the folder is checked (`prepared_folder.load`): a folder whose manifest
names no outputs, references or tolerances, a file outside the folder or a file of the wrong
size is refused with a located error. Every output is then compared (`value_check.compare`,
whose docstring states the rule): the reference is the program computed in f64 where
ldsopt/run/reference.py can promote it (then its float outputs are f64), else as written with
tolerances grown with the longest reduction; each output is held to the tolerances of the
loosest of its element type and the float types the program rounds in (TOLERANCES, or the
user's), recorded in the manifest and in result.json; each float element is judged at its own
scale (its sensitivity, recorded beside the reference), never at the size of the output's
other elements. The report's last line is PASS or FAIL, and says how many outputs and elements
were compared.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys

from ldsopt.cli import folder_lock, interrupts, output_file
from ldsopt.run import prepared_folder, ptxas_check
from ldsopt.run.iree_tools import parameter_flags, run_module
from ldsopt.run import record as run_record
from ldsopt.run.tensor_file import FLOATS, Tensor, nbytes
from ldsopt.run.value_check import SENSITIVITY_MARGIN, compare


def replay(folder: str, device: str | None = None, atol: float | None = None, rtol: float | None = None) -> dict:
    """Runs a prepared folder, checked first (`prepared_folder.load`: a FolderError says what is
    wrong before anything runs); returns the result record (also written as result.json), with
    every output compared. `atol`/`rtol` replace the tolerances the manifest records.
    RuntimeError if the module fails or leaves an output unwritten."""
    man = prepared_folder.load(folder)
    inputs = [Tensor(**t) for t in man["inputs"]]
    outputs = [Tensor(**t) for t in man["outputs"]]
    expected = [Tensor(**t) for t in man["expected"]]
    sensitivity = [t and Tensor(**t) for t in man.get("sensitivity", [None] * len(outputs))]
    written = [[Tensor(**t) for t in ways] for ways in man.get("as_written", [[]] * len(outputs))]
    device = device or man["device"]
    got = run_outputs(folder, man, device)
    comps = []
    for i, (out, got_i, exp, tol, sens, wr) in enumerate(zip(outputs, got, expected, man["tolerances"], sensitivity,
                                                             written)):
        a = tol["atol"] if atol is None else atol
        r = tol["rtol"] if rtol is None else rtol
        comps.append(compare(got_i, exp.load(folder), out.dtype, a, r, f"output {i}", ref_dtype=exp.dtype,
                             sensitivity=sens.load(folder) if sens else None,
                             written=[t.load(folder) for t in wr]))
    assert len(comps) == len(outputs) > 0  # prepared_folder.load refuses a folder of no outputs
    result = {**{k: man[k] for k in ("source", "target", "function", "dispatches", "reference", "special_values")},
              "device": device, "outputs": [dataclasses.asdict(c) for c in comps], "passed": all(c.ok for c in comps),
              "run_at": [t.shape for t in inputs] if man.get("keep_dynamic") else None}
    output_file.write_json(os.path.join(folder, "result.json"), result)
    run_record.write_readme(folder)
    return result


def run_outputs(folder: str, man: dict, device: str, why: str = "") -> list:
    """Runs the function of a prepared folder's manifest `man` on its inputs, the outputs of an
    earlier run removed first: its outputs, loaded. RuntimeError if the module fails or leaves
    an output unwritten or of the wrong size."""
    inputs, outputs = [Tensor(**t) for t in man["inputs"]], [Tensor(**t) for t in man["outputs"]]
    for t in outputs:  # so that an output the module does not write is not an earlier run's
        if os.path.lexists(os.path.join(folder, t.file)):
            os.remove(os.path.join(folder, t.file))
    run_module(os.path.join(folder, man["vmfb"]), man["function"], device, inputs, outputs, folder,
               tuple(parameter_flags(man, folder)), why=why)
    for i, out in enumerate(outputs):
        path = os.path.join(folder, out.file)
        size = os.path.getsize(path) if os.path.isfile(path) else None
        if size != nbytes(out.shape, out.dtype):
            raise RuntimeError(f"iree-run-module left output {i} ({out.file}) "
                               + ("unwritten" if size is None else f"of {size} bytes, not {out.spec}"))
    return [out.load(folder) for out in outputs]


def dispatch_lines(dispatches: list[dict]) -> list[str]:
    """Per dispatch, who lowered it; under one left to IREE, why each ldsopt pass left it;
    then how many ldsopt lowered."""
    lines = []
    for d in dispatches:
        how = "ldsopt: " + ", ".join(d["passes"]) if d["passes"] else f"iree-default ({d['pipeline']})"
        lines.append(f"dispatch {d['name']}: {how}" + (" (once, at load)" if d.get("at_load") else ""))
        lines += [f"  {name}: {why}" for name, why in d.get("missed", {}).items()]
        lines += [f"  ptxas: {x}" for x in ptxas_check.findings(d)]
    lines.append(coverage(dispatches))
    return lines


def each_call(dispatches: list[dict]) -> list[dict]:
    """The dispatches each call runs: not those the module's initializers run once, at load
    (`driver.dispatch_report`), which are not the program's work."""
    return [d for d in dispatches if not d.get("at_load")]


def left_to_iree(dispatches: list[dict]) -> list[str]:
    """The names of each call's dispatches that no ldsopt pass lowered."""
    return [d["name"] for d in each_call(dispatches) if not d["passes"]]


def coverage(dispatches: list[dict]) -> str:
    """How many of the dispatches each call runs ldsopt lowered; those run at load are named apart."""
    per_call = each_call(dispatches)
    lowered = sum(1 for d in per_call if d["passes"])
    at_load = len(dispatches) - len(per_call)
    return (f"ldsopt lowered {lowered} of {len(per_call)} dispatches"
            + (f" of each call; {at_load} more run once, at load" if at_load else ""))


def describe_reference(ref: dict) -> str:
    engine = ref.get("engine", "llvm-cpu")
    trimmed = ", its windows' inputs trimmed to what they read" if ref.get("windows_trimmed") else ""
    if ref["precision"] == "f64":
        return f"reference: {engine}, the program with its float arithmetic in f64{trimmed}"
    how = f"reference: {engine}, the program as written{trimmed} ({ref['not_promoted']})"
    if ref.get("reduction_length"):
        how += f"; float tolerances scaled for reductions of {ref['reduction_length']} terms"
    return how


def _output_line(c: dict) -> str:
    line = f"{c['name']} ({c['dtype']}): max abs error {c['max_abs']:.3g}"
    if c["dtype"] in FLOATS:
        line += (f", max rel error {c['max_rel']:.3g} (|out - ref| / max(|ref|, s), s each element's own scale, "
                 f"{SENSITIVITY_MARGIN:g}x its sensitivity, at most {c['scale']:.3g} the RMS of the reference); "
                 f"tolerance |out - ref| <= {c['atol']:g} + {c['rtol']:g}*max(|ref|, s), inf/NaN by class")
    else:
        line += "; integers must be equal"
    if c.get("overflow"):
        finite, other = c.get("f64_finite", 0), c["overflow"] - c.get("f64_finite", 0)
        said = ([f"the f64 reference is finite where the program's own arithmetic overflows, or underflows to "
                 f"subnormals flushed to 0 ({finite} elements)"]
                if finite else []) + ([f"the f64 reference overflows where the program's own arithmetic does not "
                                       f"({other} elements)"] if other else [])
        line += "; " + ", ".join(said) + ": judged against the program as written"
    if c.get("zeros_pass"):
        line += ("; warning: an output of zeros would pass as well (its reference is within the tolerance of 0 "
                 "everywhere), so this comparison cannot tell these values from none written")
    if not c["ok"]:
        line += f"; {c['bad']} elements out of tolerance"
        if c["special"]:
            line += f" ({c['special']} of them inf/NaN against a reference of another class)"
    return line


def format_report(result: dict, require_ldsopt: bool = False) -> tuple[str, bool]:
    """The human report; the last line starts with PASS or FAIL and says how many outputs and
    elements were compared (a result that compared none FAILs)."""
    lines = dispatch_lines(result["dispatches"])
    fell_back = left_to_iree(result["dispatches"])
    lines.append(describe_reference(result["reference"]))
    if result.get("run_at"):
        lines.append("module: compiled with its dims dynamic, run at "
                     + ", ".join("x".join(map(str, s)) or "()" for s in result["run_at"]))
    if result["special_values"]:
        lines.append("inputs: seeded random, with +inf, -inf, NaN, -0.0 and subnormals among the floats")
    lines += [_output_line(c) for c in result["outputs"]]
    compared = result["outputs"]
    ok = result["passed"] and bool(compared) and not (require_ldsopt and fell_back)
    why = []
    if not compared:
        why.append("no output was compared")
    elif not result["passed"]:
        why.append("values differ from the reference")
    if require_ldsopt and fell_back:
        why.append(f"--require-ldsopt: {len(fell_back)} dispatch(es) fell back to IREE's default pipeline")
    count = f"{len(compared)} output{'s' * (len(compared) != 1)}, {sum(c.get('elements', 0) for c in compared)} " \
            "elements compared"
    vacuous = sum(1 for c in compared if c.get("zeros_pass"))
    if vacuous:
        count += f" ({vacuous} of the outputs compared vacuously: zeros would pass too)"
    lines.append(("PASS" if ok else "FAIL") + f" {result['source']} on {result['target']} ({result['device']}): "
                 + "; ".join([*why, count]))
    return "\n".join(lines), ok


def prepared_folders(folder: str) -> list[str]:
    """`folder` itself if prepared, else its prepared subfolders (a suite); FolderError if it is
    not a folder, or neither holds a manifest."""
    if os.path.isdir(folder) and os.path.exists(os.path.join(folder, prepared_folder.MANIFEST)):
        return [folder]
    if not os.path.isdir(folder):
        prepared_folder.read_manifest(folder)  # raises, saying what is there instead
    found = sorted(os.path.join(folder, d) for d in os.listdir(folder)
                   if os.path.exists(os.path.join(folder, d, prepared_folder.MANIFEST)))
    if not found:
        raise prepared_folder.FolderError(folder, "no manifest.json here or in its subfolders: not a folder "
                                                  "lds-run prepared")
    return found


def run_folder(folder: str, device: str | None, require_ldsopt: bool, as_json: bool) -> bool:
    """Replays one prepared folder, holding its lock; prints its report (or its --json record),
    or its located error and a FAIL line. Whether it passed."""
    try:
        with folder_lock.held(folder, "replay"):
            result = replay(folder, device)
    except (prepared_folder.FolderError, folder_lock.FolderBusy) as e:
        print(e.format(), file=sys.stderr, flush=True)
        print(f"FAIL {folder}: the folder cannot be replayed", flush=True)
        return False
    except (RuntimeError, output_file.OutputError) as e:
        print(f"{getattr(e, 'where', folder)}: error: {e}", file=sys.stderr, flush=True)
        print(f"FAIL {folder}: the run failed", flush=True)
        return False
    text, ok = format_report(result, require_ldsopt)
    if as_json:
        verdict = text.splitlines()[-1]
        text = json.dumps(run_record.record(prepared_folder.load(folder), status=verdict.split()[0], verdict=verdict,
                                            result=result, folder=folder), indent=1)
    print(text, flush=True)
    return ok


def main(argv=None, tool: str = "python -m ldsopt.run.replay") -> int:
    """The replay command (`tool` names it in the line an interrupt prints)."""
    import argparse
    ap = argparse.ArgumentParser(prog="python -m ldsopt.run.replay",
                                 description="run folders prepared by lds-run --prepare (one, or a suite of them)")
    ap.add_argument("folder")
    ap.add_argument("--device")
    ap.add_argument("--require-ldsopt", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with interrupts.handled():
        try:
            try:
                folders = prepared_folders(args.folder)
            except prepared_folder.FolderError as e:
                print(e.format(), file=sys.stderr)
                return 1
            passed = sum(run_folder(f, args.device, args.require_ldsopt, args.json) for f in folders)
        except interrupts.Interrupted as e:
            print(e.line(tool), file=sys.stderr)
            return e.exit_status
    if len(folders) > 1:
        print(f"{passed} passed, {len(folders) - passed} failed")
    return 0 if passed == len(folders) else 1


if __name__ == "__main__":
    sys.exit(main())
