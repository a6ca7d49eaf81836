"""ldsopt/run/iree_tools.py: run_module runs a Vulkan run that the runtime lost again (up to
VULKAN_ATTEMPTS in all), says so, and never hides any other failure (through a stand-in iree-run-module that fails as told)."""

import pytest

from ldsopt.run import iree_tools

# Fails the way its first argument says on the runs listed in FAIL_ON (1-based), else succeeds.
FAKE = """#!/bin/sh
n=$(($(cat "{count}" 2>/dev/null || echo 0) + 1)); echo $n > "{count}"
case " {fail_on} " in *" $n "*) ;; *) exit 0;; esac
case "{how}" in
  lost) echo "DATA_LOSS; while invoking native function hal.fence.await" >&2; exit 1;;
  crash) kill -SEGV $$;;
  hang) sleep 30;;
  *) echo "INVALID_ARGUMENT; function input 0 shape mismatch" >&2; exit 1;;
esac
"""


@pytest.fixture
def fake(tmp_path, monkeypatch):
    def make(how: str, fail_on: str):
        script = tmp_path / "iree-run-module"
        script.write_text(FAKE.format(count=tmp_path / "count", fail_on=fail_on, how=how))
        script.chmod(0o755)
        monkeypatch.setattr(iree_tools, "tool", lambda name: str(script))
        return lambda: int((tmp_path / "count").read_text())
    return make


def run(tmp_path, device="vulkan"):
    iree_tools.run_module("m.vmfb", "main", device, [], [], str(tmp_path))


@pytest.mark.parametrize("how", ["lost", "crash"])
def test_a_lost_vulkan_run_is_run_again_and_says_so(fake, tmp_path, capsys, how):
    runs = fake(how, "1")
    run(tmp_path)
    assert runs() == 2
    assert "ran it again" in capsys.readouterr().err
    assert "ran it again" in (tmp_path / iree_tools.COMMANDS).read_text()


def test_a_stalled_vulkan_run_is_run_again(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(iree_tools, "VULKAN_STALL_S", 1)
    runs = fake("hang", "1")
    run(tmp_path)
    assert runs() == 2


def test_lost_twice_is_run_a_third_time(fake, tmp_path):
    runs = fake("lost", "1 2")
    run(tmp_path)
    assert runs() == 3


def test_lost_every_time_fails_with_the_runtimes_message(fake, tmp_path):
    runs = fake("lost", "1 2 3")
    with pytest.raises(RuntimeError, match="DATA_LOSS"):
        run(tmp_path)
    assert runs() == iree_tools.VULKAN_ATTEMPTS == 3


@pytest.mark.parametrize("how, device", [("other", "vulkan"), ("lost", "local-task"), ("lost", "cuda")])
def test_other_failures_are_not_run_again(fake, tmp_path, how, device):
    runs = fake(how, "1")
    with pytest.raises(RuntimeError, match="failed"):
        run(tmp_path, device)
    assert runs() == 1
