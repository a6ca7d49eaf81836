"""Weights as parameters: the archives (`.irpa`, also `.safetensors` and `.gguf`, as
`iree-run-module --parameters` reads them) that a program's `util.global`s name
(`#flow.parameter.named<"scope"::"key">`, turbine's `externalize_module_parameters`).

`--parameters [SCOPE=]FILE` gives lds-run and lds-bench an archive as iree-run-module takes
it. A prepared folder holds each archive once (`place`), and every module of the folder
runs on it: the ldsopt module, IREE's default, the llvm-cpu reference; the numpy reference
reads the same values (`values`). A program that names a parameter no archive holds is
refused before anything is compiled (`check`).
"""

from __future__ import annotations

import dataclasses
import os
import re

import numpy as np

from ldsopt.cli import output_file

# A parameter a global's initial value names: #flow.parameter.named<"scope"::"key"> or
# <"key"> (the global scope); stream's spelling is IREE's older one.
_NAMED = re.compile(r'#(?:flow|stream)\.parameter\.named<"((?:[^"\\]|\\.)*)"(?:::"((?:[^"\\]|\\.)*)")?')


class ParameterError(Exception):
    """An archive that cannot be given, or a program whose parameters it lacks."""


@dataclasses.dataclass
class Archive:
    scope: str  # "" for the global scope
    path: str

    @property
    def flag(self) -> str:
        return f"--parameters={self.scope + '=' if self.scope else ''}{self.path}"


def parse(spec: str) -> Archive:
    """`--parameters [SCOPE=]FILE`."""
    scope, sep, path = spec.partition("=")
    if not sep:
        scope, path = "", spec
    if not os.path.isfile(path):
        raise ParameterError(f"--parameters {spec}: no such file")
    return Archive(scope, path)


def named(attr_text: str) -> tuple[str, str] | None:
    """(scope, key) of a parameter attribute's text; None for another value."""
    m = _NAMED.search(attr_text)
    if not m:
        return None
    return (m.group(1), m.group(2)) if m.group(2) is not None else ("", m.group(1))


def referenced(text: str) -> list[tuple[str, str]]:
    """The (scope, key) of every parameter program `text` names, in order, once each."""
    out = []
    for m in _NAMED.finditer(text):
        ref = (m.group(1), m.group(2)) if m.group(2) is not None else ("", m.group(1))
        if ref not in out:
            out.append(ref)
    return out


def _index(path: str):
    from iree import runtime
    index = runtime.ParameterIndex()
    try:
        index.load(path)
    except (RuntimeError, ValueError, OSError) as e:
        raise ParameterError(f"{path}: not a parameter archive IREE reads: {e}") from None
    return index


class Store:
    """The archives' entries by (scope, key), loaded once."""

    def __init__(self, archives: list[Archive]):
        self.entries = {}
        for a in archives:
            for key, entry in _index(a.path).items():
                self.entries.setdefault((a.scope, key), entry)

    def bytes_of(self, scope: str, key: str, nbytes: int) -> np.ndarray:
        """The entry's `nbytes` bytes (a splat repeated)."""
        from iree import runtime
        entry = self.entries.get((scope, key))
        if entry is None:
            raise ParameterError(f"no archive holds parameter {scope!r}::{key!r}")
        if entry.is_splat:
            pattern = np.frombuffer(entry.splat_pattern, np.uint8)
            return np.resize(pattern, nbytes)
        flat = np.asarray(runtime.parameter_index_entry_as_numpy_flat_ndarray(entry))
        if flat.size < nbytes:
            raise ParameterError(f"parameter {scope!r}::{key!r} holds {flat.size} bytes, the program reads {nbytes}")
        return flat[:nbytes]


def check(text: str, archives: list[Archive]) -> None:
    """Refuses a program that names a parameter no archive holds."""
    refs = referenced(text)
    if not refs:
        return
    if not archives:
        scopes = sorted({s for s, _ in refs})
        raise ParameterError(f"the program reads {len(refs)} parameter(s) from an archive (scope(s) "
                             f"{', '.join(repr(s) for s in scopes)}, e.g. {refs[0][1]!r}): give it with "
                             f"--parameters {scopes[0] + '=' if scopes[0] else ''}FILE.irpa")
    store = Store(archives)
    missing = [r for r in refs if r not in store.entries]
    if missing:
        raise ParameterError(f"{len(missing)} parameter(s) the program reads are in no archive given, e.g. scope "
                             f"{missing[0][0]!r} key {missing[0][1]!r}")


def place(archives: list[Archive], folder: str, base: str) -> list[dict]:
    """Copies (hard-links where it can) each archive into `folder` once; returns the
    manifest's records, each archive's path relative to `base` (the manifest's folder).
    Without archives nothing is made."""
    if archives:
        os.makedirs(folder, exist_ok=True)
    out = []
    for a in archives:
        dest = os.path.join(folder, (a.scope or "global") + "_" + os.path.basename(a.path))
        if os.path.samefile(os.path.dirname(os.path.abspath(a.path)), folder):
            dest = a.path  # already there (ldsopt.torch saves its archive in place)
        elif not (os.path.exists(dest) and os.path.samefile(dest, a.path)):
            if os.path.exists(dest):
                os.remove(dest)
            try:
                os.link(a.path, dest)
            except OSError:
                output_file.copy(a.path, dest)
        out.append({"scope": a.scope, "file": os.path.relpath(dest, base)})
    return out
