"""Shared helpers for end-to-end tests: run lds-run as a user would and read its verdict."""

import concurrent.futures
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

from ldsopt import target
from ldsopt.run import driver

BIN = os.path.dirname(sys.executable)


def lds_run(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([os.path.join(BIN, "lds-run"), *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(name="lds_run")
def lds_run_fixture():
    """`lds_run`, for tests that read more than the PASS line (errors, reports)."""
    return lds_run


@pytest.fixture
def run_program(tmp_path):
    """Writes `text` to a file and runs it with lds-run; asserts the PASS line and exit 0."""

    def run(text: str, *args: str, name: str = "prog") -> str:
        path = tmp_path / f"{name}.mlir"
        path.write_text(text)
        proc = lds_run(str(path), *args)
        out = proc.stdout + proc.stderr
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
        assert proc.returncode == 0 and last.startswith(("PASS", "COMPILED")), out
        return out

    return run


def ptx_of(program: str, target_name: str, folder: pathlib.Path,
           pipeline: str = driver.DEFAULT_PIPELINE) -> tuple[str, list[dict]]:
    """The PTX of `program` compiled for a CUDA target through `pipeline` in `folder` (which
    keeps what IREE dumps), and the ldsopt dispatch report."""
    configured = driver.configure(program, target.known(target_name), str(folder))
    lowered, report = driver.apply_ldsopt(configured, pipeline)
    driver.compile_module(lowered, str(folder), "ldsopt", dump=True)
    (ptx,) = (folder / "executables").glob("*.ptx")
    return ptx.read_text(), report


@pytest.fixture(name="ptx_of")
def ptx_of_fixture():
    """`ptx_of`, for the tests that read a CUDA compile's PTX."""
    return ptx_of


def _report(path: str, program_pipeline: str | None, *args: str) -> tuple[int, str]:
    if program_pipeline is not None:
        args += ("--program-pipeline", program_pipeline)
    proc = lds_run(path, *args)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def start_runs(request):
    """`start_runs(test_name, {key: (program path, --program-pipeline or None, lds-run args)})`
    starts, two at a time (this machine has 2 cores and a run mostly waits on iree-compile and
    iree-run-module), the runs of the keys whose `test_name` test is selected (parametrized by
    a case whose first item is the key), and returns {key: future of (exit status, report)}."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)

    def start(test_name: str, runs: dict) -> dict:
        selected = {item.callspec.params["case"][0] for item in request.session.items
                    if getattr(item, "originalname", None) == test_name}
        return {key: pool.submit(_report, str(path), pp, *args) for key, (path, pp, args) in runs.items()
                if key in selected}

    yield start
    pool.shutdown(cancel_futures=True)


SUITE = pathlib.Path(__file__).resolve().parents[2] / "models" / "suite.py"


@pytest.fixture(scope="module")
def suite():
    """models/suite.py, imported (it generates the suite's ONNX models)."""
    spec = importlib.util.spec_from_file_location("ldsopt_model_suite", SUITE)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def models(suite, tmp_path_factory):
    """A folder of the suite's models at its default sizes and types."""
    out = tmp_path_factory.mktemp("models")
    suite.main([str(out)])
    return out
