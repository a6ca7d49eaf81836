"""A cache of iree-compile's outputs, on where the environment variable LDSOPT_COMPILE_CACHE
names a folder (the test suite sets it for a run; off otherwise).

iree-compile's output is a function of the compiler binary, its flags and its input's text,
so a compile of the same again is a copy of the first's output. Kept:
- what: compiles of the form `INPUT FLAGS... -o OUTPUT`, one input file, whose flags name no
  other file or folder (a flag holding a path, such as a dump folder, is an output the cache
  would not restore): such a compile runs as without the cache;
- the key: the sha256 of the compiler binary's path, size and modification time, the flags in
  their order, the output's extension and the input's bytes;
- only successful compiles (a failure runs again, and reports again);
- the files: the output under the key's name, written by `output_file` (a temporary name
  renamed), so that processes sharing the folder (pytest-xdist workers) never read a partial
  file; a restored output is written by it too.
What differs from a compile: a module's debug information names the source file the first
compile read (its folder), not this one's.
"""

from __future__ import annotations

import hashlib
import os

from ldsopt.cli import output_file

ENV = "LDSOPT_COMPILE_CACHE"


def key(exe: str, args: list[str]) -> str | None:
    """The cache key of `exe args`, or None if the cache is off or does not take this compile."""
    if not os.environ.get(ENV) or args.count("-o") != 1 or args.index("-o") == len(args) - 1:
        return None
    at = args.index("-o")
    out, rest = args[at + 1], args[:at] + args[at + 2:]
    inputs = [a for a in rest if not a.startswith("-")]
    flags = [a for a in rest if a.startswith("-")]
    if len(inputs) != 1 or not os.path.isfile(inputs[0]) or any(os.sep in a for a in flags):
        return None
    stat = os.stat(exe)
    h = hashlib.sha256()
    for part in (exe, str(stat.st_size), str(stat.st_mtime_ns), os.path.splitext(out)[1], *flags):
        h.update(part.encode() + b"\0")
    with open(inputs[0], "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def output(args: list[str]) -> str:
    return args[args.index("-o") + 1]


def restore(k: str, args: list[str]) -> bool:
    """Copies the cached output of key `k` to the compile's output; False if there is none."""
    try:
        with open(os.path.join(os.environ[ENV], k), "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return False
    output_file.write(output(args), data)
    return True


def store(k: str, args: list[str]) -> None:
    folder = os.environ[ENV]
    os.makedirs(folder, exist_ok=True)
    with open(output(args), "rb") as f:
        output_file.write(os.path.join(folder, k), f.read())
