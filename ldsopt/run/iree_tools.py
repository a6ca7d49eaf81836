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


# IREE 3.13's Vulkan runtime, on lavapipe, now and then loses the device or deadlocks while a
# module loads its parameters and runs its initializers under load: Mesa's timeline semaphores
# refuse a host signal that does not increase (vkSignalSemaphore -> VK_ERROR_DEVICE_LOST,
# reported as DATA_LOSS), and its queue-completion thread can wait forever. IREE's own kernels
# do the same (bench/results/lavapipe-runtime/), at times twice in a row while the CI's two
# workers load the machine. Such a run is run again, up to VULKAN_ATTEMPTS in all, and says so.
VULKAN_LOST = ("DATA_LOSS", "VK_ERROR_DEVICE_LOST")
VULKAN_STALL_S = 300
VULKAN_ATTEMPTS = 3


def _lost_device(device: str, proc: subprocess.CompletedProcess | None) -> str | None:
    """Why a Vulkan run failed the runtime's way (above), or None: timed out (`proc` None), lost
    the device, or crashed on a signal."""
    if not device.startswith("vulkan"):
        return None
    if proc is None:
        return f"did not finish in {VULKAN_STALL_S} s"
    if any(s in proc.stderr for s in VULKAN_LOST):
        return "lost the device (DATA_LOSS)"
    return f"crashed (signal {-proc.returncode})" if proc.returncode < 0 else None


def run_module(vmfb: str, function: str, device: str, inputs: list[Tensor], outputs: list[Tensor],
               folder: str, extra: tuple[str, ...] = (), why: str = "") -> None:
    """Runs `function` of `vmfb` on `device`, logged in the folder's COMMANDS (`why` added to the
    comment); RuntimeError if it fails. On Vulkan a run the runtime lost (`_lost_device`) is run
    again (VULKAN_ATTEMPTS in all), each time with a warning on stderr and a note in COMMANDS."""
    cmd = [tool("iree-run-module"), f"--device={device}", f"--module={vmfb}", f"--function={function}"]
    cmd += [f"--input={t.spec}=@{os.path.join(folder, t.file)}" for t in inputs]
    cmd += [f"--output=@{os.path.join(folder, t.file)}" for t in outputs]
    cmd += list(extra)
    log_command(folder, f"iree-run-module on {device}{why}", cmd)
    timeout = VULKAN_STALL_S if device.startswith("vulkan") else None
    for attempt in range(1, VULKAN_ATTEMPTS + 1):
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc = None
        lost = _lost_device(device, proc) if attempt < VULKAN_ATTEMPTS else None
        if not lost:
            break
        note = f"iree-run-module {lost}: IREE's Vulkan runtime on lavapipe does so now and then; ran it again"
        print(f"warning: {os.path.basename(vmfb)}: {note}", file=sys.stderr)
        output_file.append(os.path.join(folder, COMMANDS), f"# {note}\n")
    if proc is None:
        raise RuntimeError(f"iree-run-module did not finish in {timeout} s, {VULKAN_ATTEMPTS} times")
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
