"""ldsopt/tools/launch.py: a command run by the tool server is the command run by a start,
for what a caller sees: stdout, stderr, exit status, stdin, working folder, environment."""

import os
import pathlib
import subprocess
import sys
import time
import tomllib

import pytest

from ldsopt.tools import launch

BIN = os.path.dirname(sys.executable)
ADD = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of this test's own (not the run's), listening."""
    path = str(tmp_path_factory.mktemp("server") / "socket")
    proc = subprocess.Popen([sys.executable, "-m", "ldsopt.tools.launch", "--serve", path],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not os.path.exists(path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert os.path.exists(path), "the server did not start"
    yield path
    proc.terminate()
    assert proc.wait(timeout=60) == 0


def test_the_server_ends_with_its_starter(tmp_path):
    """Its stdin is a pipe from its starter: at the pipe's end (the starter exited, or was
    killed without stopping it) the server exits, its commands done."""
    proc = subprocess.Popen([sys.executable, "-m", "ldsopt.tools.launch", "--serve", str(tmp_path / "socket")],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not (tmp_path / "socket").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0


def both(server, args, **kw):
    """(the command started as usual, the command run by `server`), each a CompletedProcess."""
    env = {k: v for k, v in kw.pop("env", os.environ).items() if k != launch.ENV}
    started = subprocess.run(args, capture_output=True, text=True, env=env, **kw)
    served = subprocess.run(args, capture_output=True, text=True, env={**env, launch.ENV: server}, **kw)
    return started, served


def same(started, served):
    assert (served.returncode, served.stdout, served.stderr) == (started.returncode, started.stdout, started.stderr)


@pytest.mark.parametrize("text, code", [(ADD, 0), (ADD.replace("%a, %a", "%a, %nope"), 1)], ids=["ok", "error"])
def test_lds_opt_file(server, tmp_path, text, code):
    (tmp_path / "in.mlir").write_text(text)
    started, served = both(server, [os.path.join(BIN, "lds-opt"), "in.mlir", "--pass-pipeline=builtin.module(cse)"],
                           cwd=tmp_path)  # a relative path: the working folder is the caller's
    same(started, served)
    assert started.returncode == code


def test_stdin_and_an_argparse_error(server):
    same(*both(server, [os.path.join(BIN, "lds-opt"), "-"], input=ADD))
    started, served = both(server, [os.path.join(BIN, "lds-opt"), "--no-such-flag"])
    same(started, served)
    assert started.returncode == 2 and "unrecognized arguments" in started.stderr


@pytest.mark.parametrize("text, code", [(ADD, 0), (ADD.replace("addf", "mulf"), 1)], ids=["match", "mismatch"])
def test_filecheck_as_lit_runs_it(server, tmp_path, text, code):
    """test/lit/lit.cfg.py's filecheck under a server: what the filecheck script does."""
    (tmp_path / "check.mlir").write_text("// CHECK: arith.addf %{{.+}}, %{{.+}} : tensor<4xf32>\n")
    started = subprocess.run([os.path.join(BIN, "filecheck"), "check.mlir"], input=text, capture_output=True,
                             text=True, cwd=tmp_path)
    served = subprocess.run([sys.executable, "-m", "ldsopt.tools.launch", "filecheck", "check.mlir"], input=text,
                            capture_output=True, text=True, cwd=tmp_path, env={**os.environ, launch.ENV: server})
    same(started, served)
    assert started.returncode == code


def test_lds_run_sees_the_callers_environment(server, tmp_path):
    """TMPDIR of the caller (tempfile caches it in the server): lds-run's folder PREPARED for a
    device not here is made there (and kept: it is the result)."""
    (tmp_path / "in.mlir").write_text(ADD)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    for proc in both(server, [os.path.join(BIN, "lds-run"), str(tmp_path / "in.mlir"), "--target", "cuda"],
                     env={**os.environ, "TMPDIR": str(tmp)}):
        last = proc.stdout.strip().splitlines()[-1]
        assert proc.returncode == 0 and last.startswith("PREPARED "), proc.stdout + proc.stderr
        assert pathlib.Path(last.split()[1]).parent == tmp
    assert len(list(tmp.iterdir())) == 2


def test_without_a_server_the_command_starts(tmp_path):
    proc = subprocess.run([os.path.join(BIN, "lds-opt"), "--version"], capture_output=True, text=True,
                          env={**os.environ, launch.ENV: str(tmp_path / "none")})
    assert proc.returncode == 0 and proc.stdout.startswith("lds-opt (ldsopt ")


def test_the_console_scripts_start_here():
    """Every console script of the project (pyproject.toml) starts through the launcher."""
    project = tomllib.loads((pathlib.Path(__file__).parents[2] / "pyproject.toml").read_text())
    for tool in project["project"]["scripts"]:
        assert tool in launch.TOOLS
        script = pathlib.Path(BIN, tool).read_text()
        assert "from ldsopt.tools.launch import" in script, f"{tool}: reinstall (pip install -e .)"
