"""The repository itself: nothing in it may depend on one machine's paths, so that a fresh
clone on a machine that never had the project passes `bash .ci/run`."""

import fnmatch
import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Absolute paths of a developer's machine: its work folder, root's or a user's home.
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root|home/[a-z][\w-]*)/")
CODE = ("*.py", "*.sh", "*.toml", "*.cfg", "*.mlir")
SKIPPED = {".venv", ".git", "Output", "results"}  # installs, lit scratch, committed measurement logs


def _candidates():
    """What a commit could hold: in a git checkout, the tracked files and the untracked ones git
    does not ignore (a developer's ignored scratch, e.g. prepared folders, is never committed);
    else every file outside SKIPPED."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        yield from (ROOT / name for name in out.split("\0") if name)
        return
    except (OSError, subprocess.CalledProcessError):
        pass
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED]  # not walked at all: .venv alone is thousands of files
        yield from (pathlib.Path(folder, name) for name in files)


def tracked_code():
    for path in _candidates():
        if path.is_file() and not SKIPPED & set(path.relative_to(ROOT).parts[:-1]) and \
                any(fnmatch.fnmatch(path.name, pattern) for pattern in CODE):
            yield path
    yield from (ROOT / ".ci").iterdir()


def test_no_machine_paths():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in tracked_code()
             for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
             if MACHINE_PATH.search(line)]
    assert not found, "absolute machine paths (a fresh clone will not have them):\n" + "\n".join(found)


def test_machine_path_pattern():
    # Written in pieces so that this file does not match itself.
    assert MACHINE_PATH.search('IREE_OPT = "/' + 'work/venv/bin/iree-opt"')
    assert MACHINE_PATH.search("cd /" + "root/ldsopt")
    assert not MACHINE_PATH.search("os.path.join(folder, 'work/x')")
    assert not MACHINE_PATH.search("~/" + "work/ldsopt")


# `-o /dev/null` as a tool's output argument, in a RUN line or a Python argument list.
_O_DEV_NULL = re.compile(r"""-o\s*=?\s*/dev/null|["']-o["']\s*,\s*(?:os\.devnull|["']/dev/null["'])""")


def test_no_test_writes_to_dev_null_through_o():
    """A tool that renamed its output over `-o /dev/null`, run as root, destroyed the machine's
    /dev/null: no test hands /dev/null to -o (a lit test writes to %t, or to stdout)."""
    assert _O_DEV_NULL.search("lds-opt %s -o /dev/null") and _O_DEV_NULL.search('[LDS_OPT, "-o", os.devnull]')
    assert not _O_DEV_NULL.search("lds-opt %s 2>&1 >/dev/null")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in tracked_code() if "test" in path.relative_to(ROOT).parts[:1]
             for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
             if _O_DEV_NULL.search(line) and path.name != "test_repository.py"]
    assert not found, found


def test_ci_fails_if_dev_null_is_not_a_character_device_at_its_end():
    script = (ROOT / ".ci" / "run").read_text()
    check = script.index("[ ! -c /dev/null ]")
    assert check > script.index("-m pytest") and "status=1" in script[check:]
