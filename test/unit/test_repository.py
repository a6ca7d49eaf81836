"""The repository itself: nothing in it may depend on one machine's paths, so that a fresh
clone on a machine that never had the project passes `bash .ci/run`."""

import fnmatch
import os
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Absolute paths of a developer's machine: its work folder, root's or a user's home.
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root|home/[a-z][\w-]*)/")
CODE = ("*.py", "*.sh", "*.toml", "*.cfg", "*.mlir")
SKIPPED = {".venv", ".git", "Output", "results"}  # installs, lit scratch, committed measurement logs


def tracked_code():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED]  # not walked at all: .venv alone is thousands of files
        for name in files:
            if any(fnmatch.fnmatch(name, pattern) for pattern in CODE):
                yield pathlib.Path(folder, name)
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
