"""The modules the GPU machine runs import without IREE's compiler, which it lacks (only the
runtime wheel is carried there: DESIGN.md, "Compile here, run there")."""

import subprocess
import sys

import pytest

ON_THE_GPU_MACHINE = ("ldsopt.measure.back_to_back", "ldsopt.measure.program_bench", "ldsopt.measure.bench_replay",
                      "ldsopt.run.replay")


@pytest.mark.parametrize("module", ON_THE_GPU_MACHINE)
def test_imports_without_the_compiler(module):
    code = f"import sys; sys.modules['iree.compiler'] = None; import {module}"  # None: any import of it fails
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
