"""A folder prepared by lds-run (`--prepare`, `--emit-dir`), checked before anything runs in it.

A replay runs a module and writes its outputs where the manifest says, then compares them: a
manifest that names no outputs, no references or tolerances, files outside the folder or files
of the wrong size would run, write or compare something else than what was prepared (a
manifest with `"tolerances": []` used to PASS with nothing compared; an output named
`../x.bin` was written outside the folder). `load(folder)` returns the manifest only if:
- the folder is a folder holding manifest.json, a JSON object;
- the keys replay reads are there, of their types: `source`, `target`, `device`, `function`,
  `vmfb` strings, `special_values` a bool, `dispatches` a list of objects with a `name` and a
  list of `passes` (and where present a `ptxas` object of `registers`, an integer or null,
  `spill_bytes`, an integer, and `warnings`, strings: ptxas_check.py), `reference` an object, `inputs`, `outputs`, `expected` and `tolerances`
  lists, `sensitivity` (a tensor or null an output) and `as_written` (a list of tensors an
  output) lists where present (older folders have none), `parameters` (archives: a `scope`
  and an existing `file`, relative to the folder: only read, it may be shared by a suite's
  folders, `../parameters/`) where present;
- a tensor is {"shape": integers of 0 or more, "dtype": one of replay.DTYPES, "file": a name};
  a name (the vmfb's, every tensor's) is a file's name in the folder itself: no folder part,
  not `.` or `..`, not one of the folder's own records (RECORDS), and no two tensors share one;
- there is at least one output, and one expected output and one tolerance a output: the
  expected of the output's shape, in its dtype or f64 for a float output (a promoted
  reference); tolerances {"atol", "rtol"} finite numbers of 0 or more; a sensitivity a f64
  tensor of the output's shape, each as_written a tensor of the output's shape and type;
- the vmfb is a file, and every file read (inputs, expected, sensitivity, as_written) is a file
  of its shape's elements times its dtype's size in bytes.
Anything else is a FolderError, located at the folder or the manifest
(`DIR/manifest.json:LINE:COL` for JSON that does not parse, else `DIR/manifest.json` and the
key, e.g. `outputs[0].file`). Standard library and numpy only, like replay.py.
"""

from __future__ import annotations

import json
import math
import os

from ldsopt.run.tensor_file import DTYPES, FLOATS, nbytes

MANIFEST = "manifest.json"
# Files of the folder that are not tensors: a tensor of one of these names would overwrite it.
RECORDS = (MANIFEST, "result.json", "README.md", "commands.sh")


class FolderError(Exception):
    """A prepared folder that cannot be run: `where` (the folder or manifest) and why."""

    def __init__(self, where: str, message: str):
        super().__init__(message)
        self.where = where

    def format(self) -> str:
        return f"{self.where}: error: {self}"


class _Manifest:
    """Reads the manifest's values, each check failing as FolderError at its key."""

    def __init__(self, folder: str, value: dict):
        self.folder, self.value = folder, value
        self.where = os.path.join(folder, MANIFEST)
        self.names: set[str] = set()

    def fail(self, key: str, message: str):
        raise FolderError(self.where, f"{key}: {message}")

    def get(self, key: str, types: tuple[type, ...], container: dict | None = None, name: str | None = None):
        container = self.value if container is None else container
        name = name or key
        if key not in container:
            self.fail(name, "missing")
        v = container[key]
        if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
            self.fail(name, f"expected {' or '.join(t.__name__ for t in types)}, got {json.dumps(v)[:40]}")
        return v

    def file_name(self, key: str, name: str) -> str:
        if not name or os.path.basename(name) != name or name in (".", "..") or "\\" in name:
            self.fail(key, f"'{name}' is not the name of a file in the folder")
        if name in RECORDS:
            self.fail(key, f"'{name}' would overwrite the folder's {name}")
        if name in self.names:
            self.fail(key, f"'{name}' is named twice")
        self.names.add(name)
        return name

    def tensor(self, t, key: str) -> dict:
        if not isinstance(t, dict):
            self.fail(key, "expected a tensor: {\"shape\": [...], \"dtype\": ..., \"file\": ...}")
        shape = self.get("shape", (list,), t, f"{key}.shape")
        if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
            self.fail(f"{key}.shape", f"expected integers of 0 or more, got {json.dumps(shape)[:40]}")
        dtype = self.get("dtype", (str,), t, f"{key}.dtype")
        if dtype not in DTYPES:
            self.fail(f"{key}.dtype", f"unknown element type '{dtype}' (known: {', '.join(DTYPES)})")
        self.file_name(f"{key}.file", self.get("file", (str,), t, f"{key}.file"))
        return t

    def sized(self, t: dict, key: str) -> None:
        """The tensor's file is there, of its shape and dtype's size."""
        path = os.path.join(self.folder, t["file"])
        want = nbytes(t["shape"], t["dtype"])
        if not os.path.isfile(path):
            self.fail(f"{key}.file", f"{t['file']} is not in the folder")
        if os.path.getsize(path) != want:
            self.fail(f"{key}.file", f"{t['file']} holds {os.path.getsize(path)} bytes; "
                                     f"{'x'.join(map(str, t['shape'])) or 'a scalar'} of {t['dtype']} is {want}")


def read_manifest(folder: str) -> dict:
    """The folder's manifest.json as JSON, unchecked; FolderError if there is none or it is not
    a JSON object."""
    if not os.path.exists(folder):
        raise FolderError(folder, "no such folder")
    if not os.path.isdir(folder):
        raise FolderError(folder, "not a folder (lds-run --prepare makes one)")
    where = os.path.join(folder, MANIFEST)
    try:
        with open(where, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise FolderError(folder, f"no {MANIFEST} here: not a folder lds-run prepared") from None
    except OSError as e:
        raise FolderError(where, f"cannot read it: {e.strerror}") from None
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise FolderError(where, f"not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise FolderError(f"{where}:{e.lineno}:{e.colno}", f"not JSON: {e.msg}") from None
    if not isinstance(value, dict):
        raise FolderError(where, "expected a JSON object")
    return value


def load(folder: str) -> dict:
    """The folder's manifest, checked as the module's docstring says; FolderError if not."""
    m = _Manifest(folder, read_manifest(folder))
    if "tolerances" not in m.value:
        raise FolderError(m.where, "prepared by an older lds-run (no reference record, no tolerances): prepare it "
                                   "again")
    if m.value.get("expected") == [] and m.value.get("outputs"):
        raise FolderError(m.where, "holds no reference outputs (prepared without a reference run): nothing would "
                                   "be compared")
    for key in ("source", "target", "device", "function"):
        m.get(key, (str,))
    m.get("special_values", (bool,))
    m.get("reference", (dict,))
    for i, d in enumerate(m.get("dispatches", (list,))):
        if not isinstance(d, dict):
            m.fail(f"dispatches[{i}]", "expected an object")
        m.get("name", (str,), d, f"dispatches[{i}].name")
        m.get("passes", (list,), d, f"dispatches[{i}].passes")
        if "ptxas" in d:
            k = m.get("ptxas", (dict,), d, f"dispatches[{i}].ptxas")
            m.get("registers", (int, type(None)), k, f"dispatches[{i}].ptxas.registers")
            m.get("spill_bytes", (int,), k, f"dispatches[{i}].ptxas.spill_bytes")
            if not all(isinstance(w, str) for w in m.get("warnings", (list,), k, f"dispatches[{i}].ptxas.warnings")):
                m.fail(f"dispatches[{i}].ptxas.warnings", "expected strings")
            if set(k) - {"registers", "spill_bytes", "warnings"}:
                m.fail(f"dispatches[{i}].ptxas", f"unknown keys {sorted(set(k) - {'registers', 'spill_bytes', 'warnings'})}")
    vmfb = m.file_name("vmfb", m.get("vmfb", (str,)))
    inputs = [m.tensor(t, f"inputs[{i}]") for i, t in enumerate(m.get("inputs", (list,)))]
    outputs = [m.tensor(t, f"outputs[{i}]") for i, t in enumerate(m.get("outputs", (list,)))]
    if not outputs:
        m.fail("outputs", "none: nothing would be compared")
    expected = m.get("expected", (list,))
    tolerances = m.get("tolerances", (list,))
    for key, listed in (("expected", expected), ("tolerances", tolerances)):
        if len(listed) != len(outputs):
            m.fail(key, f"{len(listed)} for {len(outputs)} outputs: every output is compared with its own")
    for i, (out, tol) in enumerate(zip(outputs, tolerances)):
        exp = m.tensor(expected[i], f"expected[{i}]")
        _matches(m, f"expected[{i}]", exp, out, ("f64",) if out["dtype"] in FLOATS else ())
        if not isinstance(tol, dict):
            m.fail(f"tolerances[{i}]", "expected {\"atol\": ..., \"rtol\": ...}")
        for k in ("atol", "rtol"):
            v = m.get(k, (int, float), tol, f"tolerances[{i}].{k}")
            if not (math.isfinite(v) and v >= 0):
                m.fail(f"tolerances[{i}].{k}", f"expected a finite number of 0 or more, got {v}")
    for key in ("sensitivity", "as_written"):
        listed = m.get(key, (list,)) if key in m.value else [None if key == "sensitivity" else []] * len(outputs)
        if len(listed) != len(outputs):
            m.fail(key, f"{len(listed)} for {len(outputs)} outputs")
        for i, (entry, out) in enumerate(zip(listed, outputs)):
            if key == "as_written" and not isinstance(entry, list):
                m.fail(f"{key}[{i}]", "expected a list of tensors")
            for j, t in enumerate(entry if key == "as_written" else [entry] if entry is not None else []):
                where = f"{key}[{i}]" + (f"[{j}]" if key == "as_written" else "")
                _matches(m, where, m.tensor(t, where), out, (), "f64" if key == "sensitivity" else None)
                m.sized(t, where)
    for i, r in enumerate(m.get("parameters", (list,)) if "parameters" in m.value else []):
        if not isinstance(r, dict):
            m.fail(f"parameters[{i}]", "expected {\"scope\": ..., \"file\": ...}")
        m.get("scope", (str,), r, f"parameters[{i}].scope")
        path = m.get("file", (str,), r, f"parameters[{i}].file")
        if not os.path.isfile(os.path.join(folder, path)):
            m.fail(f"parameters[{i}].file", f"'{path}' is not a file")
    if not os.path.isfile(os.path.join(folder, vmfb)):
        m.fail("vmfb", f"{vmfb} is not in the folder")
    for key, tensors in (("inputs", inputs), ("expected", expected)):
        for i, t in enumerate(tensors):
            m.sized(t, f"{key}[{i}]")
    return m.value


def _matches(m: _Manifest, key: str, t: dict, out: dict, also: tuple[str, ...], dtype: str | None = None) -> None:
    """`t` is of `out`'s shape, and of `dtype` (default: `out`'s, or one of `also`)."""
    if t["shape"] != out["shape"]:
        m.fail(f"{key}.shape", f"{t['shape']} where the output is {out['shape']}")
    allowed = (dtype,) if dtype else (out["dtype"], *also)
    if t["dtype"] not in allowed:
        m.fail(f"{key}.dtype", f"{t['dtype']} where {' or '.join(allowed)} is expected")
