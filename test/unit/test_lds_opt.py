"""lds-opt's output and input ends, as an unkind user meets them: `-o` never replaces what it
names (a device stays a device, a symlink a symlink, a file keeps its mode), write errors
and unreadable input are located errors with exit 1, never a traceback. (The IR side of
lds-opt is tested by test/lit/lds_opt.)"""

import os
import stat
import subprocess
import sys

import pytest

LDS_OPT = os.path.join(os.path.dirname(sys.executable), "lds-opt")
PROGRAM = "func.func @f() {\n  return\n}\n"


def lds_opt(*args, **kw):
    return subprocess.run([LDS_OPT, *map(str, args)], capture_output=True, text=True, timeout=120, **kw)


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(PROGRAM)
    return path


def test_o_onto_a_character_device_leaves_it_a_device(tmp_path, program):
    """With /dev/null as its -o, run as root, lds-opt used to rename a 0600 file over it."""
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs CAP_MKNOD")
    proc = lds_opt(program, "-o", null)
    assert proc.returncode == 0, proc.stderr
    st = os.stat(null)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert sorted(os.listdir(tmp_path)) == ["in.mlir", "null"]


def test_o_onto_a_symlink_writes_its_target(tmp_path, program):
    target = tmp_path / "target.mlir"
    target.write_text("old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert lds_opt(program, "-o", link).returncode == 0
    assert link.is_symlink() and "func.func @f()" in target.read_text()


def test_o_keeps_the_mode_of_an_existing_file(tmp_path, program):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    os.chmod(out, 0o644)
    assert lds_opt(program, "-o", out).returncode == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o644 and "func.func @f()" in out.read_text()


def test_no_space_left_is_a_located_error(program):
    proc = lds_opt(program, "-o", "/dev/full")
    assert proc.returncode == 1
    assert proc.stderr.startswith("/dev/full: error: cannot write: No space left on device")
    assert "Traceback" not in proc.stderr
    with open("/dev/full", "w") as full:  # stdout that cannot be written
        proc = subprocess.run([LDS_OPT, str(program)], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 1 and "<stdout>: error: cannot write: No space left on device" in proc.stderr


def test_o_into_a_folder_that_takes_no_files_says_why(program):
    proc = lds_opt(program, "-o", "/proc/version")
    assert proc.returncode == 1
    assert "/proc/version: error: cannot write: cannot create a file in /proc to replace it whole" in proc.stderr


def test_o_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    """A folder as -o is refused before the input is even read."""
    proc = lds_opt(tmp_path / "missing.mlir", "-o", tmp_path)
    assert proc.returncode == 1 and proc.stderr.startswith(f"{tmp_path}: error: cannot write: it is a folder")


def test_closed_stdin_is_a_located_error():
    proc = subprocess.run([LDS_OPT, "-"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.close(0))
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("<stdin>: error: cannot read input: standard input is closed")
