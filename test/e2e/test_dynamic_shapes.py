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
an f32 one into a loaded init plus a residual) and of a dynamic N or K (a bias along a dynamic
N, a dynamic K read one element at a time along A's rows, attention's Q K^T of a dynamic M and
N and P V of a dynamic M and K as an eager export computes them, an NT f16 Q K^T, an f16
product of a dynamic M, N and K plus a tanh, an f16 TN product over a dynamic K), each
compiled once with its dims dynamic and run on lavapipe at sizes that take each plan: rows
that vectors divide and rows they do not, primes, one row, more rows (or tiles) than
workgroups launched, whole tiles and tiles plus a tail, K of one element, of a partial K
step, of whole steps and of several steps plus a tail, two dynamic dims at different values.
The dynamic matmuls are also compiled for CUDA (sm_89's mma.sync, sm_90a's wgmma) and gfx942
(MFMA), where they are not run.
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
    # softmax over a middle dim, all dims dynamic (strided rows, one a tile): one class, an
    # odd size, one element of one row
    *((f"softmax_channels_{x}", "softmax_channels_f32.mlir", shapes(x)) for x in ("3x19x37", "2x1x64", "1x5x1")),
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
    # a dynamic N: one column, a prime, whole tiles (lavapipe's plans take 64 columns a tile
    # here), tiles plus a tail
    *((f"matmul_n_bias_{n}", "matmul_n_bias_f32.mlir", shapes("33x40", f"40x{n}", f"{n}"))
      for n in (1, 37, 128, 131)),
    # a dynamic K: one element, less than a K step, whole steps, several steps plus a tail
    *((f"matmul_k_{k}", "matmul_k_f32.mlir", shapes(f"33x{k}", f"{k}x48")) for k in (1, 5, 64, 131)),
    # two dynamic dims at different values (M, N or K); both at one; both whole tiles
    *((f"batch_matmul_qkt_{m}x{n}", "batch_matmul_qkt_f32.mlir", shapes(f"2x{m}x16", f"2x16x{n}"))
      for m, n in ((1, 1), (5, 37), (131, 7), (128, 128))),
    *((f"batch_matmul_pv_{m}x{k}", "batch_matmul_pv_f32.mlir", shapes(f"2x{m}x{k}", f"2x{k}x16"))
      for m, k in ((1, 1), (37, 5), (3, 131), (128, 64))),
    *((f"batch_matmul_qk_nt_{m}x{n}", "batch_matmul_qk_nt_f16.mlir", shapes(f"2x{m}x64", f"2x{n}x64"))
      for m, n in ((37, 131), (64, 1))),
    *((f"batch_matmul_mnk_{m}x{n}x{k}", "batch_matmul_mnk_f16.mlir", shapes(f"2x{m}x{k}", f"2x{n}x{k}"))
      for m, n, k in ((1, 1, 1), (37, 5, 13), (11, 131, 64))),
    *((f"matmul_tn_k_{k}", "matmul_tn_k_f16.mlir", shapes(f"{k}x128", f"{k}x64")) for k in (1, 37, 128)),
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


MMA_SYNC, WGMMA = "mma.sync.aligned.m16n8k16", "wgmma.mma_async.sync.aligned"


@pytest.mark.parametrize("program, target_name, product", [
    ("batch_matmul_bias_tanh_f16.mlir", "cuda", MMA_SYNC), ("batch_matmul_bias_tanh_f16.mlir", "cuda-sm90a", WGMMA),
    # a dynamic M, N and K: mma.sync on both (wgmma's 16-byte copies refuse a dynamic contiguous dim)
    ("batch_matmul_mnk_f16.mlir", "cuda", MMA_SYNC), ("batch_matmul_mnk_f16.mlir", "cuda-sm90a", MMA_SYNC),
    # a dynamic M and N, both operands K-contiguous; a dynamic K, both operands M/N-contiguous
    ("batch_matmul_qk_nt_f16.mlir", "cuda-sm90a", WGMMA), ("matmul_tn_k_f16.mlir", "cuda-sm90a", WGMMA),
])
def test_dynamic_matmul_compiles_for_cuda(program, target_name, product, ptx_of, tmp_path):
    """An f16 matmul of dynamic extents through IREE to PTX: ldsopt-matmul-lds's kernel, on the
    target's matrix cores, no local memory."""
    text, report = ptx_of((DYNAMIC / program).read_text(), target_name, tmp_path)
    assert [r["passes"] for r in report] == [["ldsopt-matmul-lds"]], report
    assert product in text and ".local" not in text, text[:3000]


@pytest.mark.parametrize("program, args, dispatch", [
    ("matmul_bias_f32.mlir", shapes("37x64", "64x48", "48"), "matmul_Dx48x64_f32"),
    ("batch_matmul_mnk_f16.mlir", shapes("2x37x13", "2x5x13"), "matmul_like_2xDxDxD_f16xf16xf32"),
])
def test_dynamic_matmul_compiles_for_gfx942(program, args, dispatch, lds_run, tmp_path):
    """A matmul of dynamic extents for gfx942 (a dynamic M; a dynamic M, N and K):
    ldsopt-matmul-lds's kernel on MFMAs, no spills."""
    proc = lds_run(str(DYNAMIC / program), "--target", "gfx942", "--keep-dynamic", "--require-ldsopt", *args,
                   "--emit-dir", str(tmp_path / "emit"))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "COMPILED" in proc.stdout, out
    assert f"main_dispatch_0_{dispatch}: ldsopt: ldsopt-matmul-lds" in out, out
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.mfma > 0 and kernel.vgpr_spills == 0, kernel.summary()
