"""`output_file`: what a path names is written, never destroyed: a device stays a device, a
symlink a symlink (its target gets the data), a FIFO's reader gets the data, a regular file
is replaced whole and keeps its mode, a write error is an OutputError."""

import os
import stat
import threading

import pytest

from ldsopt.cli import output_file
from ldsopt.cli.output_file import OutputError


def _char_device(path, major, minor):
    """A character device node (mknod), or a skip where this process may not make one."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("mknod needs CAP_MKNOD")
    return path


def test_a_character_device_is_written_through_and_stays_a_device(tmp_path):
    """Renaming a temporary file over /dev/null (lds-opt -o, run as root) made it a 0600 file."""
    null = _char_device(tmp_path / "null", 1, 3)
    before = os.stat(null)
    output_file.write(str(null), "module {}\n")
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert stat.S_IMODE(after.st_mode) == stat.S_IMODE(before.st_mode)
    assert os.listdir(tmp_path) == ["null"]  # no temporary file left beside it


@pytest.mark.parametrize("how", ["/dev/full", "a copy of it"])
def test_no_space_left_is_an_error(tmp_path, how):
    full = "/dev/full" if how == "/dev/full" else _char_device(tmp_path / "full", 1, 7)
    with pytest.raises(OutputError, match="No space left on device") as e:
        output_file.write(str(full), "x" * 100000)
    assert e.value.where == str(full)
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_symlink_is_followed_to_its_target(tmp_path):
    target = tmp_path / "real.mlir"
    target.write_text("old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to(target.name)
    output_file.write(str(link), "new\n")
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text() == "new\n"


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.mlir"
    link.symlink_to("made.mlir")
    output_file.write(str(link), "new\n")
    assert link.is_symlink() and (tmp_path / "made.mlir").read_text() == "new\n"


def test_a_regular_file_keeps_its_mode(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    os.chmod(out, 0o644)
    output_file.write(str(out), "new\n")
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o644 and out.read_text() == "new\n"
    os.chmod(out, 0o751)
    output_file.write(str(out), b"bytes\n")
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o751 and out.read_bytes() == b"bytes\n"


def test_a_new_file_gets_the_mode_open_gives(tmp_path):
    mask = os.umask(0o027)
    try:
        output_file.write(str(tmp_path / "new.mlir"), "x")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.mlir").st_mode) == 0o640


def test_a_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    output_file.write(str(fifo), "through the pipe\n")
    reader.join(10)
    assert got == [b"through the pipe\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")

    def interrupted(fd, view):
        os.write(fd, b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(output_file, "_write_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        output_file.write(str(out), "new\n")
    assert out.read_text() == "old\n" and os.listdir(tmp_path) == ["out.mlir"]


@pytest.mark.parametrize("where,reason", [
    ("folder", "it is a folder"),
    ("missing/out.mlir", "there is no folder"),
    ("file/out.mlir", "Not a directory"),
])
def test_paths_that_cannot_be_written_are_errors(tmp_path, where, reason):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match=reason):
        output_file.write(str(tmp_path / where), "x")


def test_a_regular_file_in_a_folder_that_takes_no_new_files():
    """/proc/version is a regular file in a folder where nothing can be created: the error says
    so, not only "No such file or directory"."""
    with pytest.raises(OutputError, match=r"cannot create a file in /proc to replace it whole"):
        output_file.write("/proc/version", "x")


def test_append_follows_symlinks_and_creates(tmp_path):
    target = tmp_path / "commands.sh"
    link = tmp_path / "link.sh"
    link.symlink_to(target.name)
    output_file.append(str(link), "a\n")
    output_file.append(str(link), "b\n")
    assert target.read_text() == "a\nb\n" and link.is_symlink()
    with pytest.raises(OutputError, match="No space left on device"):
        output_file.append("/dev/full", "x" * 100000)


def test_stdout(capfd):
    print("first", flush=False)
    output_file.write("-", "second\n")
    assert capfd.readouterr().out == "first\nsecond\n"


def test_copy_streams_a_file_with_the_same_rules(tmp_path):
    source = tmp_path / "archive.irpa"
    source.write_bytes(bytes(range(256)) * 1000)
    out = tmp_path / "copy.irpa"
    out.write_bytes(b"old")
    os.chmod(out, 0o640)
    output_file.copy(str(source), str(out))
    assert out.read_bytes() == source.read_bytes() and stat.S_IMODE(os.stat(out).st_mode) == 0o640
    null = _char_device(tmp_path / "null", 1, 3)
    output_file.copy(str(source), str(null))
    assert stat.S_ISCHR(os.stat(null).st_mode)
    with pytest.raises(OutputError, match="No space left on device"):
        output_file.copy(str(source), "/dev/full")
