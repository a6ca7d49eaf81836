"""The README's example programs run as the README says: every dispatch ours, values right.

examples/nhwc_bias_relu_sum.mlir also covers a result bound at a non-zero offset of a shared
buffer (IREE packs both results in one), which needs a strided memref on Vulkan."""

import pathlib

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).parents[2] / "examples").glob("*.mlir"))


@pytest.mark.parametrize("program", EXAMPLES, ids=lambda p: p.stem)
def test_example_on_lavapipe(program, run_program):
    out = run_program(program.read_text(), "--target", "lavapipe", "--require-ldsopt", name=program.stem)
    assert out.count("dispatch ") >= 2


@pytest.mark.parametrize("program", EXAMPLES, ids=lambda p: p.stem)
def test_example_compiles_for_gfx942(program, run_program):
    run_program(program.read_text(), "--target", "gfx942", "--require-ldsopt", name=program.stem)
