"""Shared helpers for end-to-end tests: run lds-run as a user would and read its verdict."""

import os
import subprocess
import sys

import pytest

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
