"""ldsopt-trim-windows end to end: each program of programs/trim_windows (MobileViT's
downsampling depthwise convolution, a window of one output position over a padded 2x2 image,
which IREE 3.13 fails to compile as written; a stem whose pad's high side reaches past what a
stride-2 window reads; a dilated max pool of one output position over an unpadded input, which
the pass slices) compiled through IREE, run on lavapipe and checked against the reference. The
reference of the first is trimmed too (llvm-cpu fails on it as written), so its values are
also checked against numpy's convolution of the program's own inputs."""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from ldsopt.run.tensor_file import Tensor

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "trim_windows"
ONE_POSITION = "depthwise_one_position_s2_f32_1x7x2x2"


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    opt = subprocess.run([os.path.join(os.path.dirname(sys.executable), "lds-opt"), str(PROGRAMS / f"{name}.mlir"),
                          "--remarks", "all", "--pass-pipeline", "builtin.module(ldsopt-trim-windows)"],
                         capture_output=True, text=True)
    assert opt.returncode == 0 and "remark: ldsopt-trim-windows: input" in opt.stderr, opt.stderr
    run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", name=name)


def test_iree_fails_without_the_trim(lds_run):
    """Why the pass exists: IREE's own compile of the program as written fails (if IREE
    mends its FoldUnitExtentDims, this test says so)."""
    proc = lds_run(str(PROGRAMS / f"{ONE_POSITION}.mlir"), "--target", "lavapipe", "--baseline")
    assert proc.returncode != 0, proc.stdout
    assert "has shape's dimension #1 to be 4, but found 3" in proc.stdout + proc.stderr, proc.stderr


def test_one_position_against_numpy(lds_run, tmp_path):
    """The trimmed reference is not independent of the pass: numpy convolves the inputs the run
    drew, padded as the program pads them, and the kernel's output must match it."""
    proc = lds_run(str(PROGRAMS / f"{ONE_POSITION}.mlir"), "--target", "lavapipe", "--emit-dir", str(tmp_path))
    assert proc.returncode == 0 and "its windows' inputs trimmed" in proc.stdout, proc.stdout + proc.stderr
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    x, w, b = (Tensor(**t).load(str(tmp_path)).astype(np.float64) for t in manifest["inputs"])
    out = Tensor(**manifest["outputs"][0]).load(str(tmp_path))
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = (padded[:, :, 0:3, 0:3] * w[None]).sum(axis=(2, 3))[:, :, None, None] + b
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
