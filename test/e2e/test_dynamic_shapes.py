"""Dispatches of dynamic extents (`lds-run --keep-dynamic`) beyond IREE's regression programs
(test_regression_programs.py): a broadcast bias with its own dynamic extent (f16), a softmax
over a dynamic count of rows of a static length, a per-channel scale and shift of NCHW
images of 63 elements a channel under a dynamic batch, an f16 row sum accumulated in f32, and an
RMSNorm whose mean divides by the dynamic row length (a scalar the dispatch converts from its
pushed constants), BERT-like embeddings and their LayerNorm over a dynamic count of tokens
(position ids a slice as long as the sequence, token types read at them; against llvm-cpu),
transposes through LDS (a K^T over a dynamic sequence, scaled per row; NCHW -> NHWC f16 plus
a residual under a dynamic batch), each compiled once with its dims dynamic and run on
lavapipe at sizes that take each plan: rows that vectors divide and rows they do not, primes,
one row, more rows (or tiles) than workgroups launched.
"""

from __future__ import annotations

import pathlib

import pytest

from ldsopt.run import driver

DYNAMIC = pathlib.Path(__file__).parent / "programs" / "dynamic"


def shapes(*specs: str) -> tuple[str, ...]:
    return tuple(a for i, s in enumerate(specs) for a in ("--input-shape", f"{i}={s}"))


# Two workgroups at most: each takes several tiles of a dynamic transpose in turn.
TWO_WORKGROUPS = ("--pipeline", driver.DEFAULT_PIPELINE.replace(
    "ldsopt-preload-transposed,", "ldsopt-preload-transposed{max-workgroups=2},"))


# (id, program, lds-run arguments)
CASES = [
    ("bias_tanh_33x128", "bias_tanh_f16.mlir", shapes("33x128", "128")),
    ("bias_tanh_5x7", "bias_tanh_f16.mlir", shapes("5x7", "7")),
    ("bias_tanh_1x1", "bias_tanh_f16.mlir", shapes("1x1", "1")),
    ("softmax_rows_37", "softmax_rows_f32.mlir", shapes("37x1000")),
    ("softmax_rows_1", "softmax_rows_f32.mlir", shapes("1x1000")),
    ("row_sum_131", "row_sum_f16.mlir", shapes("131x777")),
    ("row_sum_1", "row_sum_f16.mlir", shapes("1x777")),
    # a static innermost extent that vectors do not divide, under a dynamic batch
    ("channel_affine_3", "channel_affine_f32.mlir", shapes("3x16x63", "16", "16")),
    ("rms_norm_37x1000", "rms_norm_f16.mlir", shapes("37x1000", "1000")),
    ("rms_norm_5x4099", "rms_norm_f16.mlir", shapes("5x4099", "4099")),
    ("rms_norm_3x8", "rms_norm_f16.mlir", shapes("3x8", "8")),
    # more rows than the grid's bound on lavapipe (65535): workgroups loop over rows
    ("rms_norm_65537x8", "rms_norm_f16.mlir", shapes("65537x8", "8")),
    ("transpose_scale_1", "transpose_scale_f32.mlir", shapes("1x32", "32")),
    ("transpose_scale_37", "transpose_scale_f32.mlir", shapes("37x32", "32")),
    ("transpose_scale_200_two_workgroups", "transpose_scale_f32.mlir", (*shapes("200x32", "32"), *TWO_WORKGROUPS)),
    ("nchw_to_nhwc_1", "nchw_to_nhwc_f16.mlir", shapes("1x24x7x9", "1x7x9x24")),
    ("nchw_to_nhwc_17_two_workgroups", "nchw_to_nhwc_f16.mlir", (*shapes("17x24x7x9", "17x7x9x24"), *TWO_WORKGROUPS)),
    *((f"embedding_layernorm_{n}", "embedding_layernorm_f32.mlir",
       ("--reference", "llvm-cpu", *shapes(n, "53x23", "40x23", "3x23", "23", "23"))) for n in ("37", "1", "40")),
]


@pytest.fixture(scope="module")
def results(start_runs):
    return start_runs("test_dynamic_dispatch", {
        cid: (DYNAMIC / prog, None, ("--target", "lavapipe", "--keep-dynamic", "--require-ldsopt", *args))
        for cid, prog, args in CASES})


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_dynamic_dispatch(case, results):
    cid, _, args = case
    rc, report = results[cid].result()
    lines = report.strip().splitlines()
    assert rc == 0 and lines and lines[-1].startswith("PASS"), report
    sizes = [a.split("=", 1)[1] for a, flag in zip(args[1:], args) if flag == "--input-shape"]
    assert f"module: compiled with its dims dynamic, run at {', '.join(sizes)}" in report, report
