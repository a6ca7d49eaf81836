"""lds-run's scratch folder: removed after a run here or a failure, kept only as the prepared
folder it names for `--replay` (a fuzzing session of thousands of runs left thousands
behind); a pipeline that does not parse is an error, not a traceback."""

import os
import pathlib
import subprocess
import sys

import pytest

PROGRAM = pathlib.Path(__file__).parent / "programs" / "elementwise" / "i32_mul_add.mlir"
LDS_RUN = os.path.join(os.path.dirname(sys.executable), "lds-run")


def _run(tmp_path, *args):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    return subprocess.run([LDS_RUN, str(PROGRAM), *args], capture_output=True, text=True, env=env, timeout=600)


def test_run_here_leaves_nothing(tmp_path):
    proc = _run(tmp_path, "--target", "lavapipe")
    assert proc.returncode == 0 and "\nPASS" in proc.stdout, proc.stdout + proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option, pipeline, message", [
    ("--pipeline", "builtin.module(no-such-pass)", "ldsopt pipeline does not parse: 'no-such-pass'"),
    ("--pipeline", "builtin.module(ldsopt-lower-elementwise{workgroup-size=x})",
     "ldsopt pipeline does not parse: option 'workgroup-size' of pass 'ldsopt-lower-elementwise' expects int"),
    ("--program-pipeline", "builtin.module(ldsopt-split-reduction{min-chunk=x})",
     "ldsopt program pipeline does not parse: option 'min-chunk' of pass 'ldsopt-split-reduction' expects int"),
])
def test_bad_pipeline_is_an_error_and_leaves_nothing(tmp_path, option, pipeline, message):
    """A pipeline that does not parse is a located error (it was a traceback), exit 1."""
    proc = _run(tmp_path, "--target", "lavapipe", option, pipeline)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert f"i32_mul_add.mlir: error: {message}" in proc.stderr, proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_prepared_folder_is_kept(tmp_path):
    proc = _run(tmp_path, "--target", "cuda")  # no CUDA device here: compiled, to be replayed
    assert proc.returncode == 0, proc.stdout + proc.stderr
    folder = proc.stdout.strip().splitlines()[-1].split()[1]
    assert proc.stdout.strip().splitlines()[-1].startswith("PREPARED ")
    assert pathlib.Path(folder).parent == tmp_path and (pathlib.Path(folder) / "manifest.json").exists()
