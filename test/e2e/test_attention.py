"""ldsopt-attention end to end: each program in programs/attention (each a form the pass takes:
[B, H, S, D] and [B, S, H, D] activations, grouped-query attention, a loaded scale, float and
i1 masks broadcast over batch or heads, a causal and a soft-capping score region, rows masked
entirely, decode shapes of 1 and 7 query rows against 4096 keys; head dims 32, 64, 80, 128,
batch 3, query and key counts that are no multiple of the tiles; f16, bf16, f32) is compiled
through IREE with its attention lowered by ldsopt (IREE's own pipeline cannot compile attention
for Vulkan), run on lavapipe and checked against the reference (numpy's evaluation of the
attention op, or IREE's llvm-cpu where numpy does not evaluate the program)."""

import pathlib

import pytest

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "attention"


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert "ldsopt: ldsopt-attention" in out, out
