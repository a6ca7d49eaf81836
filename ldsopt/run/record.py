"""What lds-run leaves for machines and for people: its `--json` record and the README of
the folders it keeps (`--emit-dir`, `--prepare`). docs/lds-run-output.md describes both.

The record has one shape for every target and outcome (`FIELDS`: every key is always
present; a value that does not apply is null), versioned by `SCHEMA`, which changes when a
key is removed or changes meaning (added keys do not change it). Like replay.py, this module
needs only the standard library: the replay machine prints the same record.
"""

from __future__ import annotations

import fnmatch
import json
import os

from ldsopt.cli import output_file

SCHEMA = 1

# key -> (JSON types it may hold, what it means). null is allowed where "null" is listed.
FIELDS: dict[str, tuple[tuple[str, ...], str]] = {
    "schema": (("int",), "the version of this record's shape (SCHEMA)"),
    "status": (("str",), "PASS, FAIL (values or --require-ldsopt), COMPILED (gfx942 without an AMD GPU: "
                         "compiled, ISA summarized, not run) or PREPARED (compiled for a device not here)"),
    "verdict": (("str",), "the last line of the text report"),
    "source": (("str",), "the input file's name"),
    "target": (("str",), "lavapipe, cuda or gfx942"),
    "device": (("str",), "the IREE runtime device it runs on (vulkan, cuda, hip)"),
    "function": (("str",), "the entry function"),
    "seed": (("int",), "the seed of the random inputs"),
    "special_values": (("bool",), "whether the float inputs hold inf, NaN, -0.0 and subnormals"),
    "pipeline": (("str",), "the ldsopt pipeline run on the dispatches, or iree-default (--baseline)"),
    "program_pipeline": (("str",), "the passes run on the program before IREE forms dispatches"),
    "compile_flags": (("list",), "the iree-compile flags of the target and of dispatch formation"),
    "dispatches": (("list",), "per dispatch: name, IREE pipeline, the ldsopt passes that lowered it (passes), "
                              "for one left to IREE why each pass left it (missed), and the bank model's "
                              "conflicts of the LDS buffers an ldsopt pass planned (bank_conflicts)"),
    "reference": (("dict", "null"), "the reference that ran: engine (numpy or llvm-cpu), precision (f64 or "
                                    "program), not_promoted (why not in f64), numpy_refused (why numpy did not "
                                    "evaluate it), reduction_length, computes_in, rounds_to, windows_trimmed (compiled "
                                    "with its windows' inputs trimmed to what they read); null if none ran"),
    "tolerances": (("list",), "per output, the atol and rtol it is held to"),
    "outputs": (("list", "null"), "per output as compared: name, dtype, max_abs, max_rel, ok, bad, special, "
                                  "atol, rtol, scale (the most an element's own scale may be), elements (how "
                                  "many were compared), overflow and f64_finite (elements judged against the "
                                  "program as written); null if not run"),
    "passed": (("bool", "null"), "whether every output is within its tolerances; null if not run"),
    "isa": (("list", "null"), "gfx942: per kernel, name, lds_bytes, vgprs, sgprs, vgpr_spills, sgpr_spills, "
                              "barriers, v_perm, lds_direct_loads, mfma, ds_ops, global_ops, agprs, "
                              "scratch_bytes, workgroup_size, descriptor_vgprs; null for other targets"),
    "folder": (("str", "null"), "the folder kept (--emit-dir, --prepare, or a folder PREPARED for a device "
                                "not here); null if none is kept"),
}

_TYPES = {"int": int, "str": str, "bool": bool, "list": list, "dict": dict}


def record(manifest: dict, *, status: str, verdict: str, result: dict | None = None,
           isa: list[dict] | None = None, folder: str | None = None) -> dict:
    """The --json record of a run: `manifest` (driver.prepare's), `result` (replay.replay's)
    if it ran, the gfx942 ISA summary (`isa.KernelIsa` as dicts) if compiled for it."""
    out = {
        "schema": SCHEMA, "status": status, "verdict": verdict,
        "device": result["device"] if result else manifest["device"],
        **{k: manifest[k] for k in ("source", "target", "function", "seed", "special_values", "pipeline",
                                    "program_pipeline", "compile_flags", "dispatches", "reference", "tolerances")},
        "outputs": result["outputs"] if result else None,
        "passed": result["passed"] if result else None,
        "isa": isa, "folder": folder,
    }
    problems = check(out)
    assert not problems, problems
    return {k: out[k] for k in FIELDS}


def check(rec: dict) -> list[str]:
    """What in `rec` does not have the record's shape: a missing or unknown key, a value of
    another type; [] if none."""
    problems = [f"missing key '{k}'" for k in FIELDS if k not in rec]
    problems += [f"unknown key '{k}'" for k in rec if k not in FIELDS]
    for key, (types, _) in FIELDS.items():
        value = rec.get(key)
        if key in rec and not any(value is None if t == "null" else
                                  isinstance(value, _TYPES[t]) and not (t == "int" and isinstance(value, bool))
                                  for t in types):
            problems.append(f"'{key}' is {type(value).__name__}, not {' or '.join(types)}")
    return problems


# The files of a folder lds-run keeps, in the order the README lists them: (name pattern, what).
FILES: list[tuple[str, str]] = [
    ("README.md", "this file"),
    ("manifest.json", "what `lds-run --replay` needs: target, device, function, seed, pipelines, compile flags, "
                      "dispatches and who lowered them, the input/output/reference files, the reference that "
                      "ran and each output's tolerances"),
    ("result.json", "the outcome of the run: each output's errors and the tolerances applied, passed"),
    ("commands.sh", "every IREE command run for this folder, in order, exactly as run (iree-compile to "
                    "configure the dispatches, once per fusion setting tried and once for the one kept; "
                    "iree-compile of the ldsopt module and of the reference; iree-run-module)"),
    ("parameters", "the parameter archives (`--parameters`, IREE's .irpa) that the modules and the reference read, "
                   "one copy each; only where the program reads parameters"),
    ("source.mlir", "the program (after the program pipeline) with the target's device attached, as given to "
                    "iree-compile --compile-to=executable-configurations"),
    ("configured.mlir", "IREE's output at executable-configurations: one func per dispatch, which the ldsopt "
                        "pipeline runs on (errors of the pipeline are located in this file)"),
    ("ldsopt.mlir", "configured.mlir after the ldsopt pipeline, as given to iree-compile "
                    "--compile-from=executable-configurations"),
    ("baseline.mlir", "--baseline: configured.mlir unchanged (IREE's pipeline only)"),
    ("ldsopt.vmfb", "the compiled module"),
    ("baseline.vmfb", "--baseline: the compiled module"),
    ("input*.bin", "a seeded random input, raw little-endian in its element type (bf16 as uint16)"),
    ("reference_input*.bin", "an input widened to f64 for the promoted llvm-cpu reference"),
    ("reference_source.mlir", "the reference program compiled for llvm-cpu (promoted to f64 where it can be); "
                              "absent where numpy computed the reference"),
    ("reference.vmfb", "the reference module (llvm-cpu)"),
    ("expected*.bin", "a reference output (f64 for a float output of a promoted reference)"),
    ("sensitivity*.bin", "per element of a float output, how far its reference moves when the inputs move by a "
                         "rounding's worth (f64): the scale the check judges it at beyond its own value"),
    ("written*.bin", "an output of the program as written (written_ftz*: with subnormals flushed to 0), where its "
                     "f32/f16 arithmetic overflows or underflows and the f64 reference does not (or the reverse): "
                     "those elements are judged against it too"),
    ("output*.bin", "an output of the run on the device"),
    (".ldsopt.lock", "locked by the run writing this folder, so that no other run writes it at the same time"),
    ("executables", "gfx942: IREE's executable dumps (.rocmasm, .hsaco, LLVM IR) the ISA summary is read from"),
]


def describe(name: str) -> str | None:
    return next((what for pattern, what in FILES if fnmatch.fnmatchcase(name, pattern)), None)


def write_readme(folder: str) -> None:
    """Writes folder/README.md: each file there and what it is, the tolerances used (from
    result.json after a run, else as the manifest records them) and the commands file."""
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    result = None
    if os.path.exists(os.path.join(folder, "result.json")):
        with open(os.path.join(folder, "result.json")) as f:
            result = json.load(f)
    names = set(os.listdir(folder)) | {"README.md"}
    order = {pattern: i for i, (pattern, _) in enumerate(FILES)}
    listed = sorted(names, key=lambda n: (min((order[p] for p in order if fnmatch.fnmatchcase(n, p)),
                                              default=len(order)), n))
    lines = [f"# lds-run: {man['source']} for {man['target']} ({man['device']})", "",
             "Made by lds-run (ldsopt); docs/lds-run-output.md in the ldsopt repository describes these files "
             "and the --json record. Run it again with `lds-run --replay <this folder>`.", "", "## Files", ""]
    lines += [f"- `{n}`: {describe(n) or 'not made by lds-run'}" for n in listed]
    lines += ["", "## Tolerances", ""]
    if result:
        lines += [f"- {c['name']} ({c['dtype']}): atol {c['atol']:g}, rtol {c['rtol']:g} (applied; passed: "
                  f"{str(c['ok']).lower()})" for c in result["outputs"]]
    else:
        lines += [f"- output {i} ({t['dtype']}): atol {tol['atol']:g}, rtol {tol['rtol']:g} (recorded; not run yet)"
                  for i, (t, tol) in enumerate(zip(man["outputs"], man["tolerances"]))]
    lines += ["", "Floats: |out - ref| <= atol + rtol*max(|ref|, s), s the element's own scale (4x its sensitivity, "
              "at most the RMS of the output's reference); integers equal; inf/NaN by class.", "", "## Commands", "",
              "`commands.sh` holds every IREE command run for this folder, in order, exactly as run."]
    output_file.write(os.path.join(folder, "README.md"), "\n".join(lines) + "\n")
