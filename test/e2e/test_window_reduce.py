"""ldsopt-window-reduce end to end: each program of programs/pooling (max pooling NCHW 3x3
stride 2 padded with -inf as IREE imports an ONNX MaxPool, its padding fused into the pool's
dispatch and read as -inf outside the image, and NHWC f16 with vectors along
the channels; average pooling NHWC 3x3 and 5x5 stride 2 (a window loop nest) with the divide
fused after the sum, and NCHW 3x3 stride 2 excluding the padding from the count (a divide
by a count computed from the output's position); a global 7x7 average, which ldsopt-vector-distribute takes as a row
reduction; a depthwise convolution, which ldsopt-matmul-lds leaves; a K-of-one product, a window
of one point, stored transposed by its consumer: RoPE's frequencies) compiled through IREE,
run on lavapipe and checked against the reference on the original program. The default
pipeline gives the K-of-one product to ldsopt-matmul-lds (`test_outer_product_is_a_product`)."""

import pathlib
import re

import pytest

from ldsopt.run import driver

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "pooling"
# IREE collapses a global pooling's window to a row: a reduction that ldsopt-vector-distribute takes.
ROWS = {"avg_nhwc_7x7_global_f32_2x7x7x36"}
# ldsopt-matmul-lds, first in the pipeline, takes a K-of-one product stored transposed (each
# lane's element stored alone); window-reduce's reading of it is run without the matmul passes.
PRODUCTS = {"outer_product_transposed_f32_1x8x16"}
WITHOUT_MATMUL = re.sub(r"ldsopt-(dtl-layout(\{[^}]*\})?|inthread-transpose|matmul-lds), ", "", driver.DEFAULT_PIPELINE)


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    pipeline = ["--pipeline", WITHOUT_MATMUL] if name in PRODUCTS else []
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", *pipeline,
                      name=name)
    by = "ldsopt-vector-distribute" if name in ROWS else "ldsopt-window-reduce"
    assert re.search(rf"^dispatch \w+_(conv|reduction|batch_matmul)_\w+: ldsopt: {by}$", out, re.M), out


def test_outer_product_is_a_product(run_program):
    """With the default pipeline the K-of-one product stored transposed is ldsopt-matmul-lds's."""
    name = "outer_product_transposed_f32_1x8x16"
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      name=name + "_default")
    assert re.search(r"^dispatch \w+_batch_matmul_\w+: ldsopt: ldsopt-matmul-lds$", out, re.M), out


def test_a_reduction_to_a_scalar_is_left_to_iree(run_program):
    """Every loop reduced into a 0-d output (a fuzzer's program) is no window for threads to
    share: the pass leaves it, with its remark, and IREE's pipeline computes it right."""
    program = PROGRAMS.parent / "left_to_iree" / "reduce_to_scalar_bcast_f32_2x2.mlir"
    out = run_program(program.read_text(), "--target", "lavapipe", name="reduce_to_scalar")
    assert re.search(r"^dispatch \w+_reduction_2x2_f32: iree-default", out, re.M), out
    assert "ldsopt-window-reduce: a reduction to a scalar" in out, out
