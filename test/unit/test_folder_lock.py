"""`folder_lock`: one holder of a folder at a time, refused at once with the holder named;
the lock goes with its holder, however it ends."""

import os
import subprocess
import sys

import pytest

from ldsopt.cli import folder_lock


def test_a_second_holder_is_refused_and_the_first_releases(tmp_path):
    with folder_lock.held(str(tmp_path), "--emit-dir"):
        with pytest.raises(folder_lock.FolderBusy) as e:
            with folder_lock.held(str(tmp_path), "--emit-dir"):
                pass
    assert e.value.format() == (f"{tmp_path}: error: --emit-dir: in use by another run (process {os.getpid()}); "
                                "wait for it or give another folder")
    with folder_lock.held(str(tmp_path), "--emit-dir"):
        pass  # released
    assert os.listdir(tmp_path) == [folder_lock.LOCK]


def test_a_killed_holder_leaves_no_stale_lock(tmp_path):
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from ldsopt.cli import folder_lock\n"
                               f"with folder_lock.held({str(tmp_path)!r}, 'x'):\n"
                               "    print('held', flush=True); time.sleep(600)"], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "held\n"
    with pytest.raises(folder_lock.FolderBusy, match=f"process {holder.pid}"):
        with folder_lock.held(str(tmp_path), "x"):
            pass
    holder.kill()
    holder.wait()
    with folder_lock.held(str(tmp_path), "x"):
        pass
