"""Writing the files the tools make, without destroying what a path names.

Every file lds-opt, lds-run and lds-bench write goes through here: `-o`, the folders they
keep (`--emit-dir`, `--prepare`, `--out`), results, plots and the compile cache.

Contract, `write(path, data)` (`data` str, as UTF-8, or bytes-like):
- `-` is standard output, written and flushed there.
- An existing path that is not a regular file, or a symlink to one, is written through:
  opened for writing (not truncated, not created) and written, as a shell's `>` does, so a
  character device stays a device (`/dev/null` discards, `/dev/full` fails with "No space
  left on device"), a FIFO's reader gets the data (the open waits for one, as `>` does).
- A regular file, or a name not there yet, is replaced atomically: the data goes into a
  temporary file beside it, renamed over it once whole. A symlink is followed to the file it
  points to, which gets the data; the link stays a link. The file keeps its mode, and its owner
  and group where the writer may set them; a new file gets the mode `open` gives (0666 less
  the umask). On any failure, an interrupt included, the file is as it was and the temporary
  file is gone.
- A folder is refused. Every failure is an `OutputError`: the path as given (the location
  the tools print before `error:`) and why, in words (`strerror`), e.g. ENOSPC as "No space
  left on device".
Not guarded against: power loss right after the rename (no fsync: every output can be made
again by running again); a regular file's other hard links, which keep the old content.

`check(path)` refuses, before any work, a path `write` cannot write whatever the data.
`copy(source, path)` writes a file's content as `write` does, a chunk at a time;
`append(path, text)` appends (creating the file, following symlinks, writing through to
whatever is there); `write_json` writes a JSON document. Standard library only: the replay
side, which runs where only the IREE runtime is installed, writes through here too.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile

STDOUT = "-"


class OutputError(Exception):
    """A file that could not be written: `path` as given, `reason` in words."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"cannot write: {reason}")
        self.path = path
        self.reason = reason

    @property
    def where(self) -> str:
        """The location the tools print before `error:`."""
        return "<stdout>" if self.path == STDOUT else self.path

    def format(self) -> str:
        """`path: error: cannot write: reason`, as the tools print it."""
        return f"{self.where}: error: {self}"


def _bytes(data) -> memoryview:
    view = memoryview(data.encode("utf-8") if isinstance(data, str) else data)
    return view.cast("B") if view.nbytes else memoryview(b"")  # no cast of a view with a 0 in its shape


def _write_all(fd: int, data) -> None:
    """Writes a memoryview, or what a binary file object reads, to `fd`."""
    if not isinstance(data, memoryview):
        while chunk := data.read(1 << 24):
            _write_all(fd, memoryview(chunk))
        return
    while data:
        data = data[os.write(fd, data):]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write(path: str, data) -> None:
    """Writes `data` to `path` (see the module's contract); OutputError if it cannot."""
    _write(path, _bytes(data))


def copy(source: str, path: str) -> None:
    """Writes the file `source` to `path` as `write` writes data, read a chunk at a time (a
    parameter archive may not fit in memory); OutputError if `path` cannot be written (an
    OSError reading `source` is the caller's)."""
    with open(source, "rb") as f:
        _write(path, f)


def _write(path: str, view) -> None:
    """`write` of `view`, a memoryview or a binary file to read."""
    if path == STDOUT:
        return _write_stdout(view)
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(path, e.strerror) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(path, "it is a folder")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return _write_through(path, target, view)
    _replace(path, target, view, st)


def _write_stdout(view) -> None:
    if sys.stdout is None:
        raise OutputError(STDOUT, "standard output is closed")
    try:
        sys.stdout.flush()  # what was printed before comes first
        _write_all(sys.stdout.fileno(), view)
    except (OSError, ValueError) as e:  # ValueError: a closed stream
        raise OutputError(STDOUT, getattr(e, "strerror", None) or str(e)) from None


def _write_through(path: str, target: str, view) -> None:
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CLOEXEC)
    except OSError as e:
        raise OutputError(path, e.strerror) from None
    try:
        _write_all(fd, view)
    except OSError as e:
        raise OutputError(path, e.strerror) from None
    finally:
        os.close(fd)


def _replace(path: str, target: str, view, st: os.stat_result | None) -> None:
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise OutputError(path, f"there is no folder {folder}")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    except OSError as e:
        raise OutputError(path, f"cannot create a file in {folder} to replace it whole ({e.strerror})") from None
    try:
        try:
            _write_all(fd, view)
            if st is None:
                os.fchmod(fd, 0o666 & ~_umask())
            else:
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
                try:
                    os.fchown(fd, st.st_uid, st.st_gid)
                except PermissionError:  # not ours to give away: the writer's owner and group
                    pass
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(e, OSError):
            raise OutputError(path, e.strerror or str(e)) from None
        raise


def check(path: str) -> None:
    """OutputError where `write(path, ...)` cannot succeed whatever the data: a folder, a name in
    a folder that is not there. For checking arguments before any work; writes nothing."""
    if path == STDOUT:
        return
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise OutputError(path, "it is a folder")
    folder = os.path.dirname(target)
    if not os.path.exists(target) and not os.path.isdir(folder):
        raise OutputError(path, f"there is no folder {folder}")


def write_json(path: str, value) -> None:
    """`value` as an indented JSON document (json.dump's text, indent 1)."""
    write(path, json.dumps(value, indent=1))


def append(path: str, text: str) -> None:
    """Appends `text` to `path`, creating it (mode 0666 less the umask) if it is not there."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as e:
        raise OutputError(path, e.strerror) from None
    try:
        _write_all(fd, _bytes(text))
    except OSError as e:
        raise OutputError(path, e.strerror) from None
    finally:
        os.close(fd)
