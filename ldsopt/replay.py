"""The run half of lds-run: run a compiled module on seeded inputs and compare.

This module imports nothing but the standard library and numpy, and calls IREE's
`iree-run-module` (from the iree-base-runtime wheel): it runs on machines that have no
compiler, such as the lent H200 ("compile here, run there" in DESIGN.md). A prepared
folder holds `manifest.json`, the `.vmfb`, the inputs and the reference outputs as raw
binary files; `python -m ldsopt.replay DIR` (or `lds-run --replay DIR`) runs it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import sysconfig

import numpy as np

# IREE element type -> (numpy storage dtype, compare-in dtype). bf16 is stored as uint16.
DTYPES = {
    "f32": (np.float32, np.float64), "f16": (np.float16, np.float64), "bf16": (np.uint16, np.float64),
    "f64": (np.float64, np.float64), "i32": (np.int32, np.int64), "i16": (np.int16, np.int64),
    "i8": (np.int8, np.int64), "i64": (np.int64, np.int64), "i1": (np.bool_, np.int64),
}

# Default tolerances per output element type: |out - ref| <= atol + rtol * |ref|.
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


def run_module(vmfb: str, function: str, device: str, inputs: list[Tensor], outputs: list[Tensor],
               folder: str, extra: tuple[str, ...] = ()) -> None:
    cmd = [tool("iree-run-module"), f"--device={device}", f"--module={vmfb}", f"--function={function}"]
    cmd += [f"--input={t.spec}=@{os.path.join(folder, t.file)}" for t in inputs]
    cmd += [f"--output=@{os.path.join(folder, t.file)}" for t in outputs]
    proc = subprocess.run(cmd + list(extra), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-run-module failed ({proc.returncode}):\n{proc.stderr.strip()}")


@dataclasses.dataclass
class Comparison:
    name: str
    max_abs: float
    max_rel: float
    ok: bool
    bad: int  # elements outside tolerance


def compare(out: np.ndarray, ref: np.ndarray, dtype: str, atol: float, rtol: float, name: str) -> Comparison:
    o, r = as_float64(out, dtype), as_float64(ref, dtype)
    diff = np.abs(o - r)
    with np.errstate(invalid="ignore"):
        bad = ~(diff <= atol + rtol * np.abs(r))  # NaN never passes
    denom = np.maximum(np.abs(r), np.finfo(np.float64).tiny)
    max_abs = float(np.nanmax(diff)) if diff.size else 0.0
    max_rel = float(np.nanmax(diff / denom)) if diff.size else 0.0
    if np.isnan(o).any() and not np.isnan(max_abs):
        max_abs = max_rel = float("nan")
    return Comparison(name, max_abs, max_rel, not bad.any(), int(bad.sum()))


def tolerances(dtype: str, atol: float | None, rtol: float | None) -> tuple[float, float]:
    da, dr = TOLERANCES.get(dtype, (0.0, 0.0))
    return (da if atol is None else atol, dr if rtol is None else rtol)


def replay(folder: str, device: str | None = None, atol: float | None = None, rtol: float | None = None) -> dict:
    """Runs a prepared folder; returns the result record (also written as result.json)."""
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    inputs = [Tensor(**t) for t in man["inputs"]]
    expected = [Tensor(**t) for t in man["expected"]]
    actual = [dataclasses.replace(t, file="actual_" + t.file) for t in expected]
    device = device or man["device"]
    run_module(os.path.join(folder, man["vmfb"]), man["function"], device, inputs, actual, folder)
    comps = []
    for i, (exp, act) in enumerate(zip(expected, actual)):
        a, r = tolerances(exp.dtype, atol if atol is not None else man.get("atol"),
                          rtol if rtol is not None else man.get("rtol"))
        comps.append(compare(act.load(folder), exp.load(folder), exp.dtype, a, r, f"output {i}"))
    result = {**{k: man[k] for k in ("source", "target", "function", "dispatches")}, "device": device,
              "outputs": [dataclasses.asdict(c) for c in comps], "passed": all(c.ok for c in comps)}
    with open(os.path.join(folder, "result.json"), "w") as f:
        json.dump(result, f, indent=1)
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


def format_report(result: dict, require_ldsopt: bool = False) -> tuple[str, bool]:
    """The human report; the last line starts with PASS or FAIL."""
    lines = dispatch_lines(result["dispatches"])
    fell_back = [d["name"] for d in result["dispatches"] if not d["passes"]]
    for c in result["outputs"]:
        lines.append(f"{c['name']}: max abs error {c['max_abs']:.3g}, max rel error {c['max_rel']:.3g}"
                     + ("" if c["ok"] else f", {c['bad']} elements out of tolerance"))
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
    ap = argparse.ArgumentParser(prog="python -m ldsopt.replay",
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
        print(json.dumps(result, indent=1) if args.json and ok else text, flush=True)
        passed, failed = passed + ok, failed + (not ok)
    if len(folders) > 1:
        print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
