"""Textual pass pipelines that mix ldsopt's Python passes with MLIR/IREE C++ passes.

`builtin.module(ldsopt-lower-elementwise, func.func(canonicalize), cse)` becomes one
`PassManager` on `builtin.module`: C++ elements are added as text, each ldsopt pass as a
Python pass (`ExternalPass`, named with its options so that MLIR's dumps and pipeline text
show them). The pass manager verifies the IR after every pass, and prints IR, times passes
and prints the pipeline as mlir-opt's flags ask (`Printing`, `run`); to print before or after
named passes only, `run` runs the pipeline as several pass managers in turn (`segments`).
A pass failure or a verifier failure comes out as `ir.MLIRError` with located
diagnostics; a pipeline that does not parse raises `PipelineError`.
"""

from __future__ import annotations

import dataclasses
import re
import sys

from iree.compiler import ir, passmanager

from ldsopt import registry, shared_context
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
    parts, opened, start, quote = [], [], 0, None  # opened: offsets of the brackets not yet closed
    for i, ch in enumerate(text):
        if ch == '"':
            quote = None if quote is not None else i
        elif quote is not None:
            continue
        elif ch in "({":
            opened.append(i)
        elif ch in ")}":
            if not opened:
                raise PipelineError(f"unbalanced '{ch}' in pipeline '{text}'", i + 1)
            opened.pop()
        elif ch == "," and not opened:
            parts.append(text[start:i])
            start = i + 1
    if quote is not None:
        raise PipelineError(f"unclosed '\"' in pipeline '{text}'", quote + 1)
    if opened:
        raise PipelineError(f"unclosed '{text[opened[-1]]}' in pipeline '{text}'", opened[-1] + 1)
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
                at = re.compile(rf"(?<=[{{\s,]){re.escape(e.option)}(?=[=\s,}}])").search(part, name_m.end()) \
                    if e.option else None
                raise PipelineError(str(e), col + (at.start() if at else 0)) from None
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


_MLIR_PARSER = re.compile(r"MLIR Textual PassPipeline Parser:1:(\d+): error: (.*)")


def _add_error(el: Element, context: ir.Context) -> PipelineError | None:
    """Why MLIR cannot add C++ element `el` on its own (None if it can), located in the
    pipeline: at the column MLIR's pipeline parser names, else at the element."""
    try:
        passmanager.PassManager("builtin.module", context).add(el.text)
        return None
    except ValueError as e:
        m = _MLIR_PARSER.match(str(e))
        if m:
            return PipelineError(m.group(2), el.col + int(m.group(1)) - 1 if el.col else None)
        return PipelineError(f"'{el.text}': " + "; ".join(ln.strip() for ln in str(e).splitlines() if ln.strip()),
                             el.col)


def build(elements: list[Element], context: ir.Context) -> passmanager.PassManager:
    """One PassManager running `elements` in order. An ldsopt pass is added with its options
    in its pipeline name (`ldsopt-matmul-lds{mma=true ...}`), so that the pass manager's own
    pipeline text and IR dumps show them as they show an MLIR pass's."""
    pm = passmanager.PassManager("builtin.module", context)
    pm.enable_verifier(True)
    cpp: list[Element] = []

    def flush():
        if cpp:
            text = ",".join(el.text for el in cpp)
            try:
                pm.add(text)
            except ValueError as e:  # located at the first element that does not parse alone
                raise next((err for err in map(lambda el: _add_error(el, context), cpp) if err),
                           PipelineError(str(e).strip(), cpp[0].col)) from None
            cpp.clear()

    for el in elements:
        if el.py_pass is None:
            cpp.append(el)
            continue
        flush()
        pm.add(_as_external(el.py_pass), name=type(el.py_pass).__name__, argument=el.py_pass.textual(),
               description=el.py_pass.SUMMARY)
    flush()
    return pm


@dataclasses.dataclass(frozen=True)
class Printing:
    """mlir-opt's IR printing flags, handed to `PassManager.enable_ir_printing`, which prints
    to stderr in MLIR's format. `before`/`after` name passes as a pipeline does (`cse`,
    `canonicalize`, `ldsopt-matmul-lds`); the bindings can only print before/after every pass
    of a pass manager, so `run` gives each named pass a pass manager of its own."""
    before: frozenset[str] = frozenset()
    after: frozenset[str] = frozenset()
    before_all: bool = False
    after_all: bool = False
    after_change: bool = False
    after_failure: bool = False
    module_scope: bool = False
    large_elements_limit: int | None = None
    debug_info: bool = False
    generic: bool = False

    def enable(self, pm: passmanager.PassManager, before: bool, after: bool) -> None:
        # As mlir-opt: after-failure prints after a pass only when it failed.
        after = after or self.after_failure
        if before or after:
            pm.enable_ir_printing(print_before_all=before, print_after_all=after,
                                  print_module_scope=self.module_scope, print_after_change=self.after_change,
                                  print_after_failure=self.after_failure,
                                  large_elements_limit=self.large_elements_limit,
                                  enable_debug_info=self.debug_info, print_generic_op_form=self.generic)


def _one_pass_each(text: str) -> list[str]:
    """A C++ element as one element per pass: `func.func(a, b)` -> `func.func(a)`, `func.func(b)`
    (the same work: a nested pass runs on each anchor op on its own)."""
    m = _NAME.match(text)
    rest = text[m.end():].strip()
    if not (rest.startswith("(") and rest.endswith(")")):
        return [text]
    return [f"{m.group(1)}({leaf})" for _, inner in split_top_level(rest[1:-1]) for leaf in _one_pass_each(inner)]


def _leaf_name(text: str) -> str:
    while True:
        m = _NAME.match(text)
        rest = text[m.end():].strip()
        if not rest.startswith("("):
            return m.group(1)
        text = rest[1:-1]


def segments(elements: list[Element], printing: Printing) -> list[tuple[list[Element], bool, bool]]:
    """(elements, print before each, print after each) for each pass manager to run in turn: a
    pass that `printing` names on its own, the passes between them together."""
    if not (printing.before or printing.after):
        return [(elements, printing.before_all, printing.after_all)]
    out: list[tuple[list[Element], bool, bool, bool]] = []  # ..., whether a named pass
    for el in elements:
        leaves = [el] if el.py_pass else [Element(t, col=el.col) for t in _one_pass_each(el.text)]
        for leaf in leaves:
            name = leaf.py_pass.NAME if leaf.py_pass else _leaf_name(leaf.text)
            named = name in printing.before or name in printing.after
            if not named and out and not out[-1][3]:
                out[-1][0].append(leaf)
            else:
                out.append(([leaf], printing.before_all or name in printing.before,
                            printing.after_all or name in printing.after, named))
    return [(els, before, after) for els, before, after, _ in out]


def check(pipeline: str) -> None:
    """Raises PipelineError unless `pipeline` parses and every pass in it (C++ ones too) exists
    and takes its options: for tools to refuse a bad pipeline before any work."""
    build(parse(pipeline), shared_context.get())


def run(module, pipeline: str, printing: Printing | None = None, timing: bool = False,
        dump_pipeline: bool = False) -> None:
    """Runs `pipeline` on `module` in place: IR printed as `printing` says, a timing report
    (`--mlir-timing`) and the pipeline itself (`--dump-pass-pipeline`) on stderr as MLIR
    prints them. Raises PipelineError or ir.MLIRError."""
    printing = printing or Printing()
    elements = parse(pipeline)
    whole = str(build(elements, module.context))  # every pass checked before any runs
    if dump_pipeline:
        print(f"Pass Manager with {len(elements)} passes:\n{whole}\n", file=sys.stderr, flush=True)
    # One thread: with MLIR's worker threads, lds-opt hung instead of failing on a dispatch that
    # a pass had left with a use before its definition (the verifier's diagnostic never reached
    # the tools' Python handler); one thread reports it. MLIR also prints the whole module only
    # from a single thread.
    module.context.enable_multithreading(False)
    for els, before, after in segments(elements, printing):
        pm = build(els, module.context)
        printing.enable(pm, before, after)
        if timing:
            pm.enable_timing()
        try:
            pm.run(module.operation)
        finally:
            del pm  # prints its timing report
