"""IREE's runtime tools as both halves of lds-run use them (the compile half here, the replay
on a GPU machine that has only the runtime wheel): where a tool's binary is, which devices the
runtime sees and which target is best here, running a module, and the log of every command
run for a folder (`commands.sh`). Standard library only."""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import typing

from ldsopt.cli import output_file

if typing.TYPE_CHECKING:
    from ldsopt.run.tensor_file import Tensor


# Where IREE's wheels keep their binaries: the runtime's, then the compiler's.
_WHEEL_BIN_DIRS = (os.path.join("iree", "_runtime_libs"), os.path.join("iree", "compiler", "_mlir_libs"))


def tool(name: str) -> str:
    """An IREE tool: the binary inside the installed wheel (iree-base-runtime or
    iree-base-compiler, on sys.path, also when installed with `pip --target` onto PYTHONPATH),
    else `name` beside this interpreter or on PATH. The wheel's binary comes first because the
    console script in front of it is a Python launcher that costs an interpreter start a call."""
    in_wheel = (os.path.join(p, d, name) for p in sys.path if p for d in _WHEEL_BIN_DIRS)
    found = next((p for p in in_wheel if os.path.isfile(p) and os.access(p, os.X_OK)), None)
    if not found:
        here = os.path.join(sysconfig.get_path("scripts"), name)
        found = here if os.path.exists(here) else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} not found (pip install iree-base-runtime iree-base-compiler)")
    return found


@functools.cache
def available_devices() -> frozenset[str]:
    """The IREE runtime's device kinds here, e.g. {"local-task", "vulkan"} (cached: the tool
    server asks once, before its forks)."""
    try:
        out = subprocess.run([tool("iree-run-module"), "--list_devices"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(line.split(":")[0].strip() for line in out.splitlines() if "://" in line)


def default_target(devices: frozenset[str]) -> str | None:
    """The target of the best device among `devices` (hip, then cuda, then vulkan); None where
    there is none."""
    return next((name for dev, name in (("hip", "gfx942"), ("cuda", "cuda"), ("vulkan", "lavapipe"))
                 if dev in devices), None)


# The IREE commands run for a folder, in order, as a shell script (`log_command`).
COMMANDS = "commands.sh"


def log_command(folder: str, what: str, cmd: list[str]) -> None:
    """Appends `cmd`, exactly as run, to the folder's COMMANDS, under a comment saying `what`."""
    output_file.append(os.path.join(folder, COMMANDS), f"# {what}\n{shlex.join(cmd)}\n")


def run_module(vmfb: str, function: str, device: str, inputs: list[Tensor], outputs: list[Tensor],
               folder: str, extra: tuple[str, ...] = (), why: str = "") -> None:
    """Runs `function` of `vmfb` on `device`, logged in the folder's COMMANDS (`why` added to the
    comment); RuntimeError if it fails."""
    cmd = [tool("iree-run-module"), f"--device={device}", f"--module={vmfb}", f"--function={function}"]
    cmd += [f"--input={t.spec}=@{os.path.join(folder, t.file)}" for t in inputs]
    cmd += [f"--output=@{os.path.join(folder, t.file)}" for t in outputs]
    log_command(folder, f"iree-run-module on {device}{why}", cmd + list(extra))
    proc = subprocess.run(cmd + list(extra), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-run-module failed ({proc.returncode}):\n{proc.stderr.strip()}")


def parameter_flags(man: dict, folder: str) -> list[str]:
    """iree-run-module's --parameters flags of a prepared folder's archives (paths in the
    manifest relative to the folder, as `parameters.place` records them)."""
    flags = []
    for r in man.get("parameters", []):
        path = os.path.join(folder, r["file"])
        flags.append(f"--parameters={r['scope'] + '=' if r['scope'] else ''}{path}")
    return flags
