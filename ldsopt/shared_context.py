"""The one MLIR context of a tool's process (`get`).

Making an `ir.Context` loads every dialect IREE's bindings register, which costs more than
most of what a short command then does with it, and one lds-run made nine. A tool's modules
are parsed, transformed and printed within its one command, so they share one context. It is
made on first use in the process that uses it, never before a fork: a context starts its
thread pool lazily, and threads do not survive a fork.

No tool makes a second one. lds-opt sets its parser's flags on this context and attaches each
input chunk's diagnostic handler to it for that chunk alone.
"""

from __future__ import annotations

from iree.compiler import ir

_context: ir.Context | None = None


def get() -> ir.Context:
    """This process's context (enter it with `with`)."""
    global _context
    if _context is None:
        _context = ir.Context()
    return _context
