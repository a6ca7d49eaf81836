"""SIGINT and SIGTERM as an exit the tools clean up after.

Under `handled()`, either signal raises `Interrupted` in the main thread, so that every
`finally` on the way out runs: a temporary folder is removed, a `subprocess.run` kills and
waits for its child (iree-compile, iree-run-module). The tool then prints one line,
`Interrupted.line` (`lds-run: interrupted (SIGTERM)`), and exits with `exit_status`, 128 plus
the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell reports a process the signal
ended. `Interrupted` is a BaseException, as KeyboardInterrupt is, so that the `except
Exception` of a fallback does not swallow it.

`shielded()` runs a block that neither signal interrupts (removing a temporary folder: cut
short, it left half the folder behind); a signal that comes meanwhile is raised when the block
ends. (The handler defers it: Python runs signal handlers in the main thread whichever thread
the signal came to, and MLIR's and numpy's threads do not block signals, so a thread's signal
mask would not hold them off.) Standard library only.
"""

from __future__ import annotations

import contextlib
import signal

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum

    def line(self, tool: str) -> str:
        return f"{tool}: interrupted ({signal.Signals(self.signum).name})"


class _Shield:
    depth = 0                  # shielded() blocks open
    pending: int | None = None  # the first signal that came in one


def _raise(signum, frame):
    if _Shield.depth:
        _Shield.pending = _Shield.pending or signum
        return
    raise Interrupted(signum)


@contextlib.contextmanager
def handled():
    """SIGINT and SIGTERM raise Interrupted within the block (the previous handlers after)."""
    previous = {sig: signal.signal(sig, _raise) for sig in SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def shielded():
    """Neither signal interrupts the block; one that came meanwhile is raised after it."""
    _Shield.depth += 1
    try:
        yield
    finally:
        _Shield.depth -= 1
        if not _Shield.depth and _Shield.pending is not None:
            signum, _Shield.pending = _Shield.pending, None
            raise Interrupted(signum)
