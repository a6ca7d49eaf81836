"""The run half of lds-run: run a compiled module on seeded inputs and compare.

This module imports nothing but the standard library and numpy, and calls IREE's
`iree-run-module` (from the iree-base-runtime wheel): it runs on machines that have no
compiler, such as the lent H200 (compiled here, run there). A prepared
folder holds `manifest.json`, the `.vmfb`, the inputs and the reference outputs as raw
binary files; `python -m ldsopt.run.replay DIR` (or `lds-run --replay DIR`) runs it.

The check (`compare`): the reference is the program on llvm-cpu, computed in f64 where
ldsopt/run/reference.py can promote it (then its float outputs are f64), else as written with
tolerances grown with the longest reduction. Each output is held to the tolerances of the
loosest of its element type and the float types the program rounds in (TOLERANCES, or the
user's; an f32 output of f16 math gets f16's), recorded in the manifest and in result.json:
- integers must be equal;
- finite floats: |out - ref| <= atol + rtol*max(|ref|, s), s the RMS of the output's finite
  reference values (at least atol), since the rounding error of a sum is relative to the size
  of its terms, not of its value; the relative error reported is |out - ref| / max(|ref|, s);
- inf and NaN by class: a +inf, -inf or NaN output passes only where the reference, rounded
  to the output's type, is the same; a finite output never passes an infinite or NaN one.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig

import numpy as np

from ldsopt.run import record as run_record

# IREE element type -> (numpy storage dtype, compare-in dtype). bf16 is stored as uint16.
DTYPES = {
    "f32": (np.float32, np.float64), "f16": (np.float16, np.float64), "bf16": (np.uint16, np.float64),
    "f64": (np.float64, np.float64), "i32": (np.int32, np.int64), "i16": (np.int16, np.int64),
    "i8": (np.int8, np.int64), "i64": (np.int64, np.int64), "i1": (np.bool_, np.int64),
}

FLOATS = ("f32", "f16", "bf16", "f64")
# Default (atol, rtol) per float output element type (`compare` says how they apply).
TOLERANCES = {"f32": (1e-4, 1e-4), "f64": (1e-9, 1e-9), "f16": (1e-2, 1e-2), "bf16": (5e-2, 2e-2)}


@dataclasses.dataclass
class Tensor:
    shape: list[int]
    dtype: str  # IREE element type name
    file: str

    @property
    def spec(self) -> str:
        return "x".join(map(str, self.shape + [self.dtype])) if self.shape else self.dtype

    def load(self, folder: str) -> np.ndarray:
        raw = np.fromfile(os.path.join(folder, self.file), dtype=DTYPES[self.dtype][0])
        return raw.reshape(self.shape)

    def save(self, folder: str, array: np.ndarray) -> None:
        np.ascontiguousarray(array.astype(DTYPES[self.dtype][0])).tofile(os.path.join(folder, self.file))


def as_float64(a: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(DTYPES[dtype][1])


# Where IREE's wheels keep their binaries: the runtime's, then the compiler's.
_WHEEL_BIN_DIRS = (os.path.join("iree", "_runtime_libs"), os.path.join("iree", "compiler", "_mlir_libs"))


def tool(name: str) -> str:
    """An IREE tool: the binary inside the installed wheel (iree-base-runtime or
    iree-base-compiler, on sys.path, also when installed with `pip --target` onto PYTHONPATH),
    else `name` beside this interpreter or on PATH. The wheel's binary comes first because the
    console script in front of it is a Python launcher that costs an interpreter start a call."""
    in_wheel = (os.path.join(p, d, name) for p in sys.path if p for d in _WHEEL_BIN_DIRS)
    found = next((p for p in in_wheel if os.path.isfile(p) and os.access(p, os.X_OK)), None)
    if not found:
        here = os.path.join(sysconfig.get_path("scripts"), name)
        found = here if os.path.exists(here) else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} not found (pip install iree-base-runtime iree-base-compiler)")
    return found


@functools.cache
def available_devices() -> frozenset[str]:
    """The IREE runtime's device kinds here, e.g. {"local-task", "vulkan"} (cached: the tool
    server asks once, before its forks)."""
    try:
        out = subprocess.run([tool("iree-run-module"), "--list_devices"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(line.split(":")[0].strip() for line in out.splitlines() if "://" in line)


# The IREE commands run for a folder, in order, as a shell script (`log_command`).
COMMANDS = "commands.sh"


def log_command(folder: str, what: str, cmd: list[str]) -> None:
    """Appends `cmd`, exactly as run, to the folder's COMMANDS, under a comment saying `what`."""
    with open(os.path.join(folder, COMMANDS), "a") as f:
        f.write(f"# {what}\n{shlex.join(cmd)}\n")


def run_module(vmfb: str, function: str, device: str, inputs: list[Tensor], outputs: list[Tensor],
               folder: str, extra: tuple[str, ...] = ()) -> None:
    cmd = [tool("iree-run-module"), f"--device={device}", f"--module={vmfb}", f"--function={function}"]
    cmd += [f"--input={t.spec}=@{os.path.join(folder, t.file)}" for t in inputs]
    cmd += [f"--output=@{os.path.join(folder, t.file)}" for t in outputs]
    log_command(folder, f"iree-run-module on {device}", cmd + list(extra))
    proc = subprocess.run(cmd + list(extra), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-run-module failed ({proc.returncode}):\n{proc.stderr.strip()}")


def parameter_flags(man: dict, folder: str) -> list[str]:
    """iree-run-module's --parameters flags of a prepared folder's archives (paths in the
    manifest relative to the folder, as `parameters.place` records them)."""
    flags = []
    for r in man.get("parameters", []):
        path = os.path.join(folder, r["file"])
        flags.append(f"--parameters={r['scope'] + '=' if r['scope'] else ''}{path}")
    return flags


@dataclasses.dataclass
class Comparison:
    name: str
    dtype: str      # the output's element type, whose tolerances apply
    max_abs: float  # over elements where output and reference are both finite
    max_rel: float  # |out - ref| / max(|ref|, scale) over the same elements
    ok: bool
    bad: int        # elements that fail
    special: int    # of them, an inf/NaN against a reference of another class (or the reverse)
    atol: float
    rtol: float
    scale: float    # the RMS of the finite reference values, at least atol (floats only)


def round_to(values: np.ndarray, dtype: str) -> np.ndarray:
    """`values` (float64) rounded to the float type `dtype`, back in float64: a value past the
    type's range becomes inf, as a kernel computing in that type would give."""
    with np.errstate(over="ignore"):
        if dtype != "bf16":
            return values.astype(DTYPES[dtype][0]).astype(np.float64)
        bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = np.where(np.isnan(values), bits, bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # to nearest even
    return as_float64(rounded.astype(np.uint16), "bf16")


def rms(values: np.ndarray) -> float:
    """The root mean square of `values` (0 if none), without overflow."""
    top = float(np.abs(values).max()) if values.size else 0.0
    return top * float(np.sqrt(np.mean((values / top) ** 2))) if top > 0 else 0.0


def compare(out: np.ndarray, ref: np.ndarray, dtype: str, atol: float, rtol: float, name: str,
            ref_dtype: str | None = None) -> Comparison:
    """Compares an output of element type `dtype` with a reference of `ref_dtype` (the same,
    or f64 from the promoted program). Integers must be equal. A float element passes if
    - both are finite and |out - ref| <= atol + rtol*max(|ref|, scale), scale the RMS of the
      output's finite reference values (at least atol): a sum's rounding error is relative to
      the size of its terms, not of its value, so an element that cancels to near 0 is judged
      at the scale of the output, not at its own; or
    - it is of the same special class as the reference rounded to `dtype`: +inf matches +inf
      only, -inf -inf only, NaN NaN only (a finite reference past the type's range rounds to
      inf). A finite output never passes where the reference is inf or NaN, nor the reverse."""
    o, r = as_float64(out, dtype), as_float64(ref, ref_dtype or dtype)
    if dtype not in FLOATS:  # integers and i1
        diff = np.abs(o - r)
        bad = int((diff != 0).sum())
        worst = float(diff.max()) if diff.size else 0.0
        rel = float((diff / np.maximum(np.abs(r), 1)).max()) if diff.size else 0.0
        return Comparison(name, dtype, worst, rel, bad == 0, bad, 0, atol, rtol, 0.0)
    r_class = round_to(r, dtype) if ref_dtype not in (None, dtype) else r
    both_finite = np.isfinite(o) & np.isfinite(r)
    scale = max(rms(r[np.isfinite(r)]), atol)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(both_finite, np.abs(o - r), 0.0)
        size = np.maximum(np.abs(np.where(both_finite, r, 0.0)), scale)
        within = both_finite & (diff <= atol + rtol * size)
        same_class = (np.isnan(o) & np.isnan(r_class)) | (np.isinf(o) & (o == r_class))
    failed = ~(within | same_class)
    special = failed & ~both_finite
    rel = diff / np.maximum(size, np.finfo(np.float64).tiny)
    return Comparison(name, dtype, float(diff.max()) if diff.size else 0.0, float(rel.max()) if rel.size else 0.0,
                      not failed.any(), int(failed.sum()), int(special.sum()), atol, rtol, scale)


def tolerances(dtype: str, atol: float | None, rtol: float | None) -> tuple[float, float]:
    """(atol, rtol) of an output of `dtype`: the given ones, else TOLERANCES; 0 for integers."""
    if dtype not in FLOATS:
        return 0.0, 0.0
    da, dr = TOLERANCES[dtype]
    return (da if atol is None else atol, dr if rtol is None else rtol)


def replay(folder: str, device: str | None = None, atol: float | None = None, rtol: float | None = None) -> dict:
    """Runs a prepared folder; returns the result record (also written as result.json).
    `atol`/`rtol` replace the tolerances the manifest records."""
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    if "tolerances" not in man:
        raise RuntimeError(f"{folder} was prepared by an older lds-run (no reference record, no tolerances): "
                           "prepare it again")
    inputs = [Tensor(**t) for t in man["inputs"]]
    outputs = [Tensor(**t) for t in man["outputs"]]
    expected = [Tensor(**t) for t in man["expected"]]
    if len(expected) != len(outputs):
        raise RuntimeError(f"{folder} holds no reference outputs (prepared without a reference run)")
    device = device or man["device"]
    run_module(os.path.join(folder, man["vmfb"]), man["function"], device, inputs, outputs, folder,
               tuple(parameter_flags(man, folder)))
    comps = []
    for i, (out, exp, tol) in enumerate(zip(outputs, expected, man["tolerances"])):
        a = tol["atol"] if atol is None else atol
        r = tol["rtol"] if rtol is None else rtol
        comps.append(compare(out.load(folder), exp.load(folder), out.dtype, a, r, f"output {i}", ref_dtype=exp.dtype))
    result = {**{k: man[k] for k in ("source", "target", "function", "dispatches", "reference", "special_values")},
              "device": device, "outputs": [dataclasses.asdict(c) for c in comps], "passed": all(c.ok for c in comps)}
    with open(os.path.join(folder, "result.json"), "w") as f:
        json.dump(result, f, indent=1)
    run_record.write_readme(folder)
    return result


def dispatch_lines(dispatches: list[dict]) -> list[str]:
    """Per dispatch, who lowered it; under one left to IREE, why each ldsopt pass left it;
    then how many ldsopt lowered."""
    lines = []
    for d in dispatches:
        how = "ldsopt: " + ", ".join(d["passes"]) if d["passes"] else f"iree-default ({d['pipeline']})"
        lines.append(f"dispatch {d['name']}: {how}")
        lines += [f"  {name}: {why}" for name, why in d.get("missed", {}).items()]
    lowered = sum(1 for d in dispatches if d["passes"])
    lines.append(f"ldsopt lowered {lowered} of {len(dispatches)} dispatches")
    return lines


def describe_reference(ref: dict) -> str:
    engine = ref.get("engine", "llvm-cpu")
    if ref["precision"] == "f64":
        return f"reference: {engine}, the program with its float arithmetic in f64"
    how = f"reference: {engine}, the program as written ({ref['not_promoted']})"
    if ref.get("reduction_length"):
        how += f"; float tolerances scaled for reductions of {ref['reduction_length']} terms"
    return how


def format_report(result: dict, require_ldsopt: bool = False) -> tuple[str, bool]:
    """The human report; the last line starts with PASS or FAIL."""
    lines = dispatch_lines(result["dispatches"])
    fell_back = [d["name"] for d in result["dispatches"] if not d["passes"]]
    lines.append(describe_reference(result["reference"]))
    if result["special_values"]:
        lines.append("inputs: seeded random, with +inf, -inf, NaN, -0.0 and subnormals among the floats")
    for c in result["outputs"]:
        line = f"{c['name']} ({c['dtype']}): max abs error {c['max_abs']:.3g}"
        if c["dtype"] in FLOATS:
            line += (f", max rel error {c['max_rel']:.3g} (|out - ref| / max(|ref|, s), s = {c['scale']:.3g} the RMS"
                     f" of the reference); tolerance |out - ref| <= {c['atol']:g} + {c['rtol']:g}*max(|ref|, s),"
                     " inf/NaN by class")
        else:
            line += "; integers must be equal"
        if not c["ok"]:
            line += f"; {c['bad']} elements out of tolerance"
            if c["special"]:
                line += f" ({c['special']} of them inf/NaN against a reference of another class)"
        lines.append(line)
    ok = result["passed"] and not (require_ldsopt and fell_back)
    why = []
    if not result["passed"]:
        why.append("values differ from the reference")
    if require_ldsopt and fell_back:
        why.append(f"--require-ldsopt: {len(fell_back)} dispatch(es) fell back to IREE's default pipeline")
    lines.append(("PASS" if ok else "FAIL") + f" {result['source']} on {result['target']} ({result['device']})"
                 + (": " + "; ".join(why) if why else ""))
    return "\n".join(lines), ok


def prepared_folders(folder: str) -> list[str]:
    """`folder` itself if prepared, else its prepared subfolders (a suite)."""
    if os.path.exists(os.path.join(folder, "manifest.json")):
        return [folder]
    return sorted(os.path.join(folder, d) for d in os.listdir(folder)
                  if os.path.exists(os.path.join(folder, d, "manifest.json")))


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m ldsopt.run.replay",
                                 description="run folders prepared by lds-run --prepare (one, or a suite of them)")
    ap.add_argument("folder")
    ap.add_argument("--device")
    ap.add_argument("--require-ldsopt", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    folders = prepared_folders(args.folder)
    if not folders:
        print(f"{args.folder}: error: no manifest.json here or in its subfolders", file=sys.stderr)
        return 1
    passed = failed = 0
    for folder in folders:
        try:
            result = replay(folder, args.device)
            text, ok = format_report(result, args.require_ldsopt)
        except (RuntimeError, FileNotFoundError) as e:
            text, ok = f"FAIL {folder}: error: {e}", False
            result = None
        if args.json and result is not None:
            with open(os.path.join(folder, "manifest.json")) as f:
                man = json.load(f)
            verdict = text.splitlines()[-1]
            text = json.dumps(run_record.record(man, status=verdict.split()[0], verdict=verdict, result=result,
                                                folder=folder), indent=1)
        print(text, flush=True)
        passed, failed = passed + ok, failed + (not ok)
    if len(folders) > 1:
        print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
