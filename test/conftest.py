"""What every test run shares: the compile cache and the tool server of the run, and under
pytest-xdist a line of progress per test file.

- The compile cache (`ldsopt.run.compile_cache`): the suite compiles the same programs again and
  again (each program's llvm-cpu reference once per test that runs it, IREE's configuration
  of a program once per set of pass options tried on it). The run gives every lds-run it
  starts one cache folder, shared by the xdist workers (which inherit the environment), and
  removes it at the end. A folder already named by the environment is used as it is.
- The tool server (`ldsopt.tools.launch`): the suite runs lds-run and lds-opt (lit) hundreds
  of times, and each start imports IREE's bindings, numpy and every pass. The run starts one
  server, whose forks run the commands of every test and worker (the environment names its
  socket), and stops it at the end; a server already named by the environment is used.
- Progress: xdist prints a dot per test and no file names; instead, a line per file when its
  last test is done says how its tests went and how long the file took.
- Order: the files that take longest come first, so that under `--dist loadfile` no long file
  starts last while the other workers sit idle: as test/durations.json says (seconds per file
  on the project's 2-core machine; `LDSOPT_RECORD_DURATIONS=test/durations.json` rewrites it
  from a run's file lines), else by their tests and folder.
"""

import collections
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from ldsopt.run import compile_cache
from ldsopt.tools import launch


# Seconds a test takes, roughly, by folder (for files test/durations.json does not list): end to
# end and lit tests compile and run programs.
_WEIGHT = {"e2e": 1.0, "test_lit.py": 1.5, "fuzz": 0.5, "unit": 0.05}
_DURATIONS = pathlib.Path(__file__).parent / "durations.json"
_RECORD = "LDSOPT_RECORD_DURATIONS"


def _file(nodeid: str) -> str:
    return nodeid.split("::")[0]


def pytest_collection_modifyitems(items):
    """The files that take longest first (test/durations.json's seconds, else tests x their
    folder's weight), each file's tests in their own order."""
    durations = json.loads(_DURATIONS.read_text()) if _DURATIONS.exists() else {}
    files = collections.Counter(_file(item.nodeid) for item in items)

    def cost(path: str) -> float:
        if path in durations:
            return -durations[path]
        weight = next((w for part, w in _WEIGHT.items() if part in pathlib.PurePath(path).parts), 0.05)
        return -files[path] * weight
    items.sort(key=lambda item: cost(_file(item.nodeid)))  # stable: a file's tests keep their order


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # an xdist worker: the controller set things up
        return
    if not os.environ.get(compile_cache.ENV):
        folder = tempfile.mkdtemp(prefix="ldsopt-compile-cache-")
        os.environ[compile_cache.ENV] = folder
        config.add_cleanup(lambda: (os.environ.pop(compile_cache.ENV, None), shutil.rmtree(folder, True)))
    if not os.environ.get(launch.ENV):
        start_tool_server(config)
    if config.pluginmanager.hasplugin("xdist") and config.getoption("numprocesses", None):
        config.pluginmanager.register(FileProgress(config), "ldsopt-file-progress")


def start_tool_server(config):
    """Starts the tool server for the run. Until it listens, the tools start as usual."""
    folder = tempfile.mkdtemp(prefix="ldsopt-tools-")
    server = subprocess.Popen([sys.executable, "-m", "ldsopt.tools.launch", "--serve", os.path.join(folder, "socket")],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    os.environ[launch.ENV] = os.path.join(folder, "socket")

    def stop():
        os.environ.pop(launch.ENV, None)
        server.terminate()
        server.wait()
        shutil.rmtree(folder, True)

    config.add_cleanup(stop)


class FileProgress:
    """Under xdist (in the controller): a line per test file once its last test is done,
    with its outcomes and the time from its first test's start to its last's end; a line per
    failing test as it fails."""

    def __init__(self, config):
        self.config = config
        self.total: collections.Counter[str] = collections.Counter()
        self.outcomes: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.started: dict[str, float] = {}
        self.outcome: dict[str, str] = {}  # test -> its outcome so far
        self.done = 0
        self.seconds: dict[str, int] = {}  # file -> seconds, once done

    @pytest.hookimpl(wrapper=True)
    def pytest_report_teststatus(self, report, config):
        """No letter per test (xdist's dots, which name no file): the file lines say it."""
        category, letter, word = yield
        return category, "" if config.get_verbosity() <= 0 else letter, word

    def pytest_xdist_node_collection_finished(self, node, ids):
        if not self.total:  # every worker collects the same tests
            self.total.update(nodeid.split("::")[0] for nodeid in ids)

    def pytest_runtest_logstart(self, nodeid, location):
        self.started.setdefault(nodeid.split("::")[0], time.monotonic())

    def pytest_runtest_logreport(self, report):
        path = report.nodeid.split("::")[0]
        if report.failed:
            self.outcome.setdefault(report.nodeid, "failed" if report.when == "call" else "error")
            self.write(f"{self.outcome[report.nodeid].upper()} {report.nodeid}")  # at once, not with its file
        elif report.skipped:
            self.outcome.setdefault(report.nodeid, "skipped")
        if report.when != "teardown":
            return
        self.outcomes[path][self.outcome.pop(report.nodeid, "passed")] += 1
        self.done += 1
        if sum(self.outcomes[path].values()) < self.total[path]:
            return
        counts = ", ".join(f"{n} {what}" for what, n in sorted(self.outcomes[path].items()))
        seconds = time.monotonic() - self.started[path]
        self.seconds[path] = round(seconds)
        percent = 100 * self.done // max(sum(self.total.values()), 1)
        self.write(f"{path}: {counts} in {seconds:.0f} s [{percent:3d}%]")

    def pytest_sessionfinish(self):
        """With LDSOPT_RECORD_DURATIONS set, writes each file's seconds there (the order's input)."""
        if os.environ.get(_RECORD):
            ordered = dict(sorted(self.seconds.items(), key=lambda kv: (-kv[1], kv[0])))
            pathlib.Path(os.environ[_RECORD]).write_text(json.dumps(ordered, indent=1) + "\n")

    def write(self, line: str) -> None:
        self.config.pluginmanager.get_plugin("terminalreporter").write_line(line)
