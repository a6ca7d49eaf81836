"""One run at a time in a folder the tools keep (`--emit-dir`, `--prepare`, a replayed folder).

Two lds-runs given one --emit-dir used to share it: one compiled the other's source.mlir, ran
the other's module, and reported false FAILs or a traceback. `held(folder, flag)` takes an
exclusive lock (flock) on the folder's LOCK file for the block, or raises FolderBusy at once if
another process holds it, naming that process; the kernel drops the lock when its holder exits,
however it exits (a SIGKILL included), so no stale lock is ever left to clear. The file stays in
the folder (removing it would let two runs lock two different files of the same name). It
holds the holder's process id, for the error message only. Standard library only.
"""

from __future__ import annotations

import contextlib
import fcntl
import os

LOCK = ".ldsopt.lock"


class FolderBusy(Exception):
    """The folder is in use by another run."""

    def __init__(self, folder: str, flag: str, holder: str):
        super().__init__(f"{flag}: in use by another run ({holder}); wait for it or give another folder")
        self.where = folder

    def format(self) -> str:
        return f"{self.where}: error: {self}"


@contextlib.contextmanager
def held(folder: str, flag: str):
    """Holds `folder`'s lock for the block (`folder` must exist); FolderBusy if another
    process holds it. `flag` names the argument that gave the folder, for the message."""
    fd = os.open(os.path.join(folder, LOCK), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip()
            raise FolderBusy(folder, flag, f"process {holder}" if holder else "a process") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)
