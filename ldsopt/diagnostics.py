"""Diagnostics as the user sees them: `file:line:col: error: message`, then the source line
and a caret under the column, like mlir-opt.

MLIR reports parse and pass failures through `ir.MLIRError`; its diagnostics carry
locations whose file name is whatever the buffer was parsed as. Tools parse with the
real line numbers (see lds_opt's split) and substitute the real file name here.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import re
import sys

from iree.compiler import ir

_FILE_LOC = re.compile(r'"([^"]*)":(\d+):(\d+)')


@dataclasses.dataclass
class Diagnostic:
    severity: str  # error | warning | remark | note
    line: int | None
    col: int | None
    message: str
    notes: list["Diagnostic"] = dataclasses.field(default_factory=list)

    def format(self, filename: str, source: str | None = None, parent: "Diagnostic | None" = None) -> str:
        """With the text of `filename` as `source`, the line it points at and a caret under
        the column follow, as MLIR's SourceMgr prints them (not for a note at its error's place)."""
        where = f"{filename}:{self.line}:{self.col}" if self.line is not None else filename
        out = [f"{where}: {self.severity}: {self.message}"]
        if source is not None and not (parent and (parent.line, parent.col) == (self.line, self.col)):
            out += excerpt(source, self.line, self.col)
        return "\n".join(out + [n.format(filename, source, self) for n in self.notes])


def excerpt(source: str, line: int | None, col: int | None) -> list[str]:
    """[the source line, a caret under `col`] (1-based), or [] where there is no such line."""
    lines = source.split("\n")
    if line is None or col is None or not 1 <= line <= len(lines) or col < 1:
        return []
    return [lines[line - 1].rstrip("\r"), " " * (col - 1) + "^"]


_SEVERITY = {
    ir.DiagnosticSeverity.ERROR: "error",
    ir.DiagnosticSeverity.WARNING: "warning",
    ir.DiagnosticSeverity.REMARK: "remark",
    ir.DiagnosticSeverity.NOTE: "note",
}


def from_mlir(d) -> Diagnostic:
    """Converts an ir.Diagnostic or ir.DiagnosticInfo (from MLIRError)."""
    line = col = None
    m = _FILE_LOC.search(str(d.location))
    if m:
        line, col = int(m.group(2)), int(m.group(3))
    return Diagnostic(_SEVERITY[d.severity], line, col, d.message, [from_mlir(n) for n in d.notes])


def at(location: ir.Location, severity: str, message: str) -> Diagnostic:
    """A diagnostic of our own (a remark, say) at an op's location."""
    m = _FILE_LOC.search(str(location))
    return Diagnostic(severity, int(m.group(2)) if m else None, int(m.group(3)) if m else None, message)


def from_error(e: ir.MLIRError) -> list[Diagnostic]:
    diags = [from_mlir(d) for d in e.error_diagnostics]
    return diags or [Diagnostic("error", None, None, e.message)]


class InputError(Exception):
    """An input that cannot be read as text; `format` locates it like a Diagnostic."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic("error", line, col, message)

    def format(self, filename: str) -> str:
        return self.diagnostic.format(filename)


_CHUNK = 1 << 20


def _position(data: bytes, at: int) -> tuple[int, int]:
    """(line, column) of byte `at` of `data`, 1-based."""
    return data.count(b"\n", 0, at) + 1, at - (data.rfind(b"\n", 0, at) + 1) + 1


def read_text(path: str) -> str:
    """The UTF-8 text of file `path` (- for stdin); InputError says why not: a file that cannot
    be read, standard input closed, and at its line and column, the first byte that is not
    UTF-8 or is NUL (never in MLIR text). Read a chunk at a time and checked as it comes, so
    that an endless stream of such bytes (/dev/zero, /dev/urandom) fails at once."""
    if path == "-" and sys.stdin is None:
        raise InputError("cannot read input: standard input is closed")
    decoder = codecs.getincrementaldecoder("utf-8")()
    data = bytearray()
    try:
        with open(path, "rb") if path != "-" else contextlib.nullcontext(sys.stdin.buffer) as f:
            while chunk := f.read(_CHUNK):
                data += chunk
                if b"\0" in chunk:
                    break
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError:
                    break
    except OSError as e:
        raise InputError(f"cannot read input: {e.strerror}") from None
    except ValueError:  # a closed stream
        raise InputError("cannot read input: standard input is closed") from None
    nul = data.find(b"\0")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        if nul < 0 or e.start < nul:
            raise InputError(f"input is not UTF-8 text (byte 0x{data[e.start]:02x})", *_position(data, e.start)) \
                from None
    if nul >= 0:
        raise InputError("input holds a NUL byte: it is not MLIR text", *_position(data, nul))
    return text


def report(filename: str, diags: list[Diagnostic], source: str | None = None, stream=None) -> None:
    for d in diags:
        print(d.format(filename, source), file=stream or sys.stderr)
