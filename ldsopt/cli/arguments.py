"""Checks of the tools' argument values, made before any work (a compile takes seconds).

argparse turns each argument's text into its type (`--seed abc` is its usage error, exit 2);
these checks take the values argparse accepted and refuse those out of range with
`ArgumentError`, which the tools print as `TOOL: error: FLAG: why` and exit 1, as they do
for the other errors of their arguments (a --pass-pipeline that does not parse). Folders the
tools are to write into are checked here too (`folder_to_write`): a file, a folder that cannot
be made or written is refused before any compile. Standard library only (the replay side
checks its arguments here too).
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile

# The largest count MLIR's `<uint>` options take (`--mlir-elide-elementsattrs-if-larger`).
UINT_MAX = 2**32 - 1


class ArgumentError(Exception):
    """An argument value out of range: `flag` and why, in words."""

    def __init__(self, flag: str, message: str):
        super().__init__(message)
        self.flag = flag

    def format(self, tool: str) -> str:
        return f"{tool}: error: {self.flag}: {self}"


def count(flag: str, value: int | None, low: int = 0, high: int | None = None) -> None:
    """An integer in [low, high] (None: not given, nothing to check)."""
    if value is None:
        return
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise ArgumentError(flag, f"expected an integer {span}, got {value}")


def tolerance(flag: str, value: float | None) -> None:
    """A finite tolerance of 0 or more (None: not given)."""
    if value is not None and not (math.isfinite(value) and value >= 0):
        raise ArgumentError(flag, f"expected a finite number of 0 or more, got {value}")


_MIN_TIME = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)s?|\d+x")


def min_time(flag: str, value: str | None) -> None:
    """A google-benchmark minimum time: seconds (`0.2`, `0.2s`) or iterations (`100x`)."""
    if value is not None and not _MIN_TIME.fullmatch(value):
        raise ArgumentError(flag, f"expected seconds (0.2s) or iterations (100x), got '{value}'")


def folder_to_write(flag: str, path: str) -> str | None:
    """Makes `path` (and the folders above it) if it is not there; ArgumentError if it is not a
    folder, cannot be made or cannot be written in (a file made and removed there tells).
    Returns the topmost folder it made, None if `path` was there: a run that fails before it
    writes anything there removes it (`remove_made`), so `--prepare NEW` of a program that does
    not load leaves no folder behind."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise ArgumentError(flag, f"{path} is not a folder")
    made = None
    top = os.path.abspath(path)
    while not os.path.exists(top):
        made, top = top, os.path.dirname(top)
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".write-check-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        remove_made([made])
        raise ArgumentError(flag, f"cannot write into {path}: {e.strerror}") from None
    return made


def remove_made(folders: list[str | None], kept: tuple[str, ...] = ()) -> None:
    """Removes each folder `folder_to_write` made (None: it made none) that holds no file but
    those named in `kept` (a folder lock's file), in it or in folders below it: what a run
    wrote there is its output, kept."""
    for folder in folders:
        if folder is None or not os.path.isdir(folder) or os.path.islink(folder):
            continue
        if all(name in kept for _, _, files in os.walk(folder) for name in files):
            shutil.rmtree(folder, ignore_errors=True)
