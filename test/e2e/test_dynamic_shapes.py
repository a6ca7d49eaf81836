"""Dispatches of dynamic extents (`lds-run --keep-dynamic`) beyond IREE's regression programs
(test_regression_programs.py): a broadcast bias with its own dynamic extent (f16), a softmax
over a dynamic count of rows of a static length, a per-channel scale and shift of NCHW
images of 63 elements a channel under a dynamic batch, an f16 row sum accumulated in f32, and an
RMSNorm whose mean divides by the dynamic row length (a scalar the dispatch converts from its
pushed constants), BERT-like embeddings and their LayerNorm over a dynamic count of tokens
(position ids a slice as long as the sequence, token types read at them; against llvm-cpu),
transposes through LDS (a K^T over a dynamic sequence, scaled per row; NCHW -> NHWC f16 plus
a residual under a dynamic batch), a Split's copies of dynamic rows, and matmuls of a dynamic
M (ldsopt-matmul-lds: an f32 one plus a bias, an f16 batch matmul into f32 with a bias and a
tanh, an f32 one whose A is stored [k, m], an i8 one into i32 with both operands transposed,
an f32 one into a loaded init plus a residual), each compiled once with its dims dynamic and
run on lavapipe at sizes that take each plan: rows that vectors divide and rows they do not,
primes, one row, more rows (or tiles) than workgroups launched, whole M tiles and tiles plus a
tail. The dynamic-M matmuls are also compiled for CUDA (sm_89's mma.sync, sm_90a's wgmma) and
gfx942 (MFMA), where they are not run.
"""

from __future__ import annotations

import pathlib

import pytest

from ldsopt.measure import isa
from ldsopt.run import driver

DYNAMIC = pathlib.Path(__file__).parent / "programs" / "dynamic"


def shapes(*specs: str) -> tuple[str, ...]:
    return tuple(a for i, s in enumerate(specs) for a in ("--input-shape", f"{i}={s}"))


# Two workgroups at most: each takes several tiles of a dynamic transpose, or several rows'
# vectors of a dynamic copy, in turn.
TWO_WORKGROUPS = ("--pipeline", driver.DEFAULT_PIPELINE.replace(
    "ldsopt-preload-transposed,", "ldsopt-preload-transposed{max-workgroups=2},").replace(
    "ldsopt-lower-copy,", "ldsopt-lower-copy{max-workgroups=2},"))


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
    # a Split's copies (ldsopt-lower-copy) of dynamic rows: whole and odd widths
    ("split_1", "split_f32.mlir", shapes("1x96")),
    ("split_300_two_workgroups", "split_f32.mlir", (*shapes("300x96"), *TWO_WORKGROUPS)),
    ("split_odd_131", "split_odd_f16.mlir", shapes("131x75")),
    # RoPE's rotate_half of a projection (ldsopt-fold-rotate-half): one projection by rotated weights
    *((f"rope_projection_{n}", "rope_projection_f32.mlir", shapes(f"1x{n}x32")) for n in (1, 37)),
    # GPT-2's Split of a 1x?x96 projection: its batch dim's stride is read at run time
    ("split_batched_1", "split_batched_f32.mlir", shapes("1x1x96")),
    ("split_batched_300_two_workgroups", "split_batched_f32.mlir", (*shapes("1x300x96"), *TWO_WORKGROUPS)),
    *((f"embedding_layernorm_{n}", "embedding_layernorm_f32.mlir",
       ("--reference", "llvm-cpu", *shapes(n, "53x23", "40x23", "3x23", "23", "23"))) for n in ("37", "1", "40")),
    # a dynamic M: one row, a prime, whole tiles (lavapipe's plans take 128 rows a tile) and two
    # tiles plus a tail
    *((f"matmul_bias_{m}", "matmul_bias_f32.mlir", shapes(f"{m}x64", "64x48", "48")) for m in (1, 37, 128, 300)),
    *((f"batch_matmul_bias_tanh_{m}", "batch_matmul_bias_tanh_f16.mlir", shapes(f"2x{m}x32", "2x32x48", "48"))
      for m in (1, 37, 128, 300)),
    # A stored [k, m]: M its contiguous dim
    *((f"matmul_tn_{m}", "matmul_tn_f32.mlir", shapes(f"64x{m}", "64x48")) for m in (37, 300)),
    # i8 into i32, both operands transposed, and a loaded init plus a residual: N and K odd
    *((f"matmul_tt_bias_i8_{m}", "matmul_tt_bias_i8.mlir", shapes(f"24x{m}", "40x24", "40")) for m in (1, 37)),
    *((f"matmul_init_residual_{m}", "matmul_init_residual_f32.mlir", shapes(f"17x{m}", "17x33", f"{m}x33", f"{m}x33"))
      for m in (1, 65)),
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


@pytest.mark.parametrize("target_name, product", [("cuda", "mma.sync.aligned.m16n8k16"),
                                                  ("cuda-sm90a", "wgmma.mma_async.sync.aligned")])
def test_dynamic_m_compiles_for_cuda(target_name, product, ptx_of, tmp_path):
    """The f16 batch matmul of a dynamic M through IREE to PTX: ldsopt-matmul-lds's kernel, on
    the target's matrix cores, no local memory."""
    text, report = ptx_of((DYNAMIC / "batch_matmul_bias_tanh_f16.mlir").read_text(), target_name, tmp_path)
    assert [r["passes"] for r in report] == [["ldsopt-matmul-lds"]], report
    assert product in text and ".local" not in text, text[:3000]


def test_dynamic_m_compiles_for_gfx942(lds_run, tmp_path):
    """The f32 matmul of a dynamic M for gfx942: ldsopt-matmul-lds's kernel on MFMAs, no spills."""
    proc = lds_run(str(DYNAMIC / "matmul_bias_f32.mlir"), "--target", "gfx942", "--keep-dynamic", "--require-ldsopt",
                   *shapes("37x64", "64x48", "48"), "--emit-dir", str(tmp_path / "emit"))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "COMPILED" in proc.stdout, out
    assert "main_dispatch_0_matmul_Dx48x64_f32: ldsopt: ldsopt-matmul-lds" in out, out
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.mfma > 0 and kernel.vgpr_spills == 0, kernel.summary()
