"""Textual pass pipelines that mix ldsopt's Python passes with MLIR/IREE C++ passes.

`builtin.module(ldsopt-lower-elementwise, func.func(canonicalize), cse)` becomes one
`PassManager` on `builtin.module`: C++ elements are added as text, each ldsopt pass as a
Python pass (`ExternalPass`). The pass manager verifies the IR after every pass.
A pass failure or a verifier failure comes out as `ir.MLIRError` with located
diagnostics; a pipeline that does not parse raises `PipelineError`.
"""

from __future__ import annotations

import dataclasses
import re

from iree.compiler import ir, passmanager

from ldsopt import registry
from ldsopt.registry import ModulePass, OptionError, PassError


class PipelineError(ValueError):
    """An unknown pass, a bad option or unbalanced brackets; `col` (1-based) is where in the
    pipeline text, where known."""

    def __init__(self, message: str, col: int | None = None):
        super().__init__(message)
        self.col = col

    def where(self, name: str) -> str:
        """`name:1:col` (a pipeline is one line), or `name` where the column is unknown."""
        return f"{name}:1:{self.col}" if self.col is not None else name


@dataclasses.dataclass
class Element:
    text: str  # as written, for C++ elements
    py_pass: ModulePass | None = None
    col: int | None = None  # where it starts in the pipeline text (1-based)


_NAME = re.compile(r"\s*([A-Za-z_][\w.\-]*)")


def split_top_level(text: str) -> list[tuple[int, str]]:
    """Splits on commas that are not inside (), {} or quotes: (offset in `text`, stripped part)."""
    parts, depth, start, quote = [], 0, 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            quote = not quote
        elif quote:
            continue
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth < 0:
                raise PipelineError(f"unbalanced '{ch}' in pipeline '{text}'", i + 1)
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth or quote:
        raise PipelineError(f"unbalanced brackets in pipeline '{text}'")
    parts.append(text[start:])
    out, offset = [], 0
    for p in parts:
        if p.strip():
            out.append((offset + len(p) - len(p.lstrip()), p.strip()))
        offset += len(p) + 1
    return out


def parse(text: str) -> list[Element]:
    """Parses `builtin.module(a, b{opt=1}, func.func(c))` or a bare `a, b`."""
    base = len(text) - len(text.lstrip())
    text = text.strip()
    m = re.fullmatch(r"builtin\.module\s*\((.*)\)", text, re.S)
    if m:
        base += m.start(1)
        text = m.group(1)
    try:
        parts = split_top_level(text)
    except PipelineError as e:
        raise PipelineError(str(e), base + e.col if e.col else None) from None
    elements = []
    for offset, part in parts:
        col = base + offset + 1
        name_m = _NAME.match(part)
        if not name_m:
            raise PipelineError(f"expected a pass name, got '{part}'", col)
        name = name_m.group(1)
        rest = part[name_m.end():].strip()
        if name.startswith("ldsopt-") and not registry.is_registered(name):
            raise PipelineError(f"unknown ldsopt pass '{name}' (ldsopt passes: {', '.join(registry.pass_names())})",
                                col)
        if registry.is_registered(name):
            try:
                elements.append(Element(part, _build_python_pass(name, rest)))
            except OptionError as e:  # at the option where it names one
                at = part.find(e.option + "=", name_m.end()) if e.option else -1
                raise PipelineError(str(e), col + max(at, 0)) from None
            continue
        for inner in re.findall(r"[A-Za-z_][\w.\-]*", rest):
            if registry.is_registered(inner):
                raise PipelineError(
                    f"ldsopt pass '{inner}' cannot be nested under '{name}': "
                    "ldsopt passes run on builtin.module and visit every function themselves", col)
        elements.append(Element(part, col=col))
    return elements


def _build_python_pass(name: str, rest: str) -> ModulePass:
    if rest and not (rest.startswith("{") and rest.endswith("}")):
        raise OptionError(f"expected '{{options}}' after '{name}', got '{rest}'")
    return registry.lookup(name).from_options(rest[1:-1] if rest else "")


def _as_external(p: ModulePass):
    def run(op, ext_pass):
        with op.context, ir.Location.unknown():
            try:
                p.run(op)
            except PassError as e:
                e.location.emit_error(e.message)
                ext_pass.signal_pass_failure()
    return run


def _parses(text: str, context: ir.Context) -> bool:
    try:
        passmanager.PassManager("builtin.module", context).add(text)
        return True
    except ValueError:
        return False


def build(elements: list[Element], context: ir.Context, print_ir_after_all: bool = False):
    pm = passmanager.PassManager("builtin.module", context)
    pm.enable_verifier(True)
    if print_ir_after_all:
        pm.enable_ir_printing()
    cpp: list[Element] = []

    def flush():
        if cpp:
            text = ",".join(el.text for el in cpp)
            try:
                pm.add(text)
            except ValueError as e:  # located at the first element that does not parse alone
                bad = next((el for el in cpp if not _parses(el.text, context)), cpp[0])
                raise PipelineError(f"'{bad.text}': {e}", bad.col) from None
            cpp.clear()

    for el in elements:
        if el.py_pass is None:
            cpp.append(el)
            continue
        flush()
        pm.add(_as_external(el.py_pass), name=type(el.py_pass).__name__, argument=el.py_pass.NAME,
               description=el.py_pass.SUMMARY)
    flush()
    return pm


def check(pipeline: str) -> None:
    """Raises PipelineError unless `pipeline` parses and every pass in it (C++ ones too) exists
    and takes its options: for tools to refuse a bad pipeline before any work."""
    build(parse(pipeline), ir.Context())


def run(module: ir.Module, pipeline: str, print_ir_after_all: bool = False) -> None:
    """Runs `pipeline` on `module` in place. Raises PipelineError or ir.MLIRError."""
    pm = build(parse(pipeline), module.context, print_ir_after_all)
    pm.run(module.operation)
