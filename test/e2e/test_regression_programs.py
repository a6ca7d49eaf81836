"""IREE's own e2e regression programs (iree-org/iree tests/e2e/..., each file names its origin),
rewritten as lds-run programs under programs/regression/, run on lavapipe against the f64
reference: the dynamic ones (softmax, LayerNorm, max-sub-exp, linalg.softmax with a dynamic
row length, elementwise, a full min) compiled with their dims dynamic (`--keep-dynamic`) and
run at several sizes (primes, 1, sizes that are not multiples of a vector or a workgroup), the
argmax / arg_compare, zero-point-corrected i8 matmul and two-result elementwise ones at their
shapes. Each says whether ldsopt lowers every dispatch (`--require-ldsopt`).
"""

from __future__ import annotations

import pathlib

import pytest

REGRESSION = pathlib.Path(__file__).parent / "programs" / "regression"
DYNAMIC = ("--keep-dynamic",)


def shapes(*specs: str) -> tuple[str, ...]:
    return tuple(a for i, s in enumerate(specs) for a in ("--input-shape", f"{i}={s}"))


LAYERNORM_INPUTS = ("--input-range", "1=100:400", "--input-range", "2=1e-6:1e-5")

# (id, program, lds-run arguments, ldsopt lowers every dispatch)
CASES = [
    ("arg_compare_max_base", "arg_compare_max_base_f32_4099.mlir", (), True),
    ("arg_compare_min_dim1", "arg_compare_min_dim1_f32_37x1031.mlir", (), True),
    ("multi_result_i32", "multi_result_i32_37x129.mlir", (), True),
    ("quantized_matmul_zp_i8", "quantized_matmul_zp_i8_37x64x53.mlir", (), True),
    # IREE's dispatch formation splits the 131072-long argmax in two (with or without ldsopt's
    # program pipeline): the combining dispatch computes each candidate's index from its
    # position and its index in its chunk. Ties across chunks (every element equal: index 0),
    # and NaN, infinities and -0.0 among the elements.
    ("argmax_1d", "argmax_1d_f32_131072.mlir", (), True),
    ("argmax_1d_ties", "argmax_1d_f32_131072.mlir", ("--input", "0=131072xf32=7"), True),
    ("argmax_1d_special_values", "argmax_1d_f32_131072.mlir", ("--special-values",), True),
    ("abs_dynamic_13x1031", "abs_dynamic_f32.mlir", DYNAMIC + shapes("13x1031"), True),
    ("abs_dynamic_64x128", "abs_dynamic_f32.mlir", DYNAMIC + shapes("64x128"), True),
    ("abs_dynamic_1x1", "abs_dynamic_f32.mlir", DYNAMIC + shapes("1x1"), True),
    ("add_dynamic_rows_37", "add_dynamic_rows_f32.mlir", DYNAMIC + shapes("37x4", "37x4"), True),
    ("add_dynamic_rows_1", "add_dynamic_rows_f32.mlir", DYNAMIC + shapes("1x4", "1x4"), True),
    ("softmax_dynamic_3x37x129", "softmax_dynamic_f32.mlir", DYNAMIC + shapes("3x37x129"), True),
    ("softmax_dynamic_2x5x4099", "softmax_dynamic_f32.mlir", DYNAMIC + shapes("2x5x4099"), True),
    ("softmax_dynamic_1x1x1", "softmax_dynamic_f32.mlir", DYNAMIC + shapes("1x1x1"), True),
    ("softmax_dynamic_specialized", "softmax_dynamic_f32.mlir", shapes("3x37x129"), True),
    ("max_sub_exp_dynamic_12x128x128", "max_sub_exp_dynamic_f32.mlir", DYNAMIC + shapes("12x128x128"), True),
    ("max_sub_exp_dynamic_3x37x131", "max_sub_exp_dynamic_f32.mlir", DYNAMIC + shapes("3x37x131"), True),
    ("layernorm_dynamic_128x384", "layernorm_dynamic_f32.mlir",
     DYNAMIC + shapes("128x384", "128x1", "128x1") + LAYERNORM_INPUTS, True),
    ("layernorm_dynamic_37x257", "layernorm_dynamic_f32.mlir",
     DYNAMIC + shapes("37x257", "37x1", "37x1") + LAYERNORM_INPUTS, True),
    ("layernorm_dynamic_1x4099", "layernorm_dynamic_f32.mlir",
     DYNAMIC + shapes("1x4099", "1x1", "1x1") + LAYERNORM_INPUTS, True),
    ("softmax_row_65x1531", "softmax_dynamic_row_f32.mlir", DYNAMIC + shapes("65x1531"), True),
    ("softmax_row_65x4", "softmax_dynamic_row_f32.mlir", DYNAMIC + shapes("65x4"), True),
    ("softmax_row_65x1", "softmax_dynamic_row_f32.mlir", DYNAMIC + shapes("65x1"), True),
    ("reduce_min_dynamic_37x1031", "reduce_min_dynamic_f32.mlir", DYNAMIC + shapes("37x1031"), True),
    ("reduce_min_dynamic_2x4", "reduce_min_dynamic_f32.mlir", DYNAMIC + shapes("2x4"), True),
    ("reduce_min_dynamic_1x1", "reduce_min_dynamic_f32.mlir", DYNAMIC + shapes("1x1"), True),
]


@pytest.fixture(scope="module")
def results(start_runs):
    return start_runs("test_regression_program", {
        cid: (REGRESSION / prog, None, ("--target", "lavapipe", *args, *(("--require-ldsopt",) if ours else ())))
        for cid, prog, args, ours in CASES})


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_regression_program(case, results):
    cid, _, args, ours = case
    rc, report = results[cid].result()
    lines = report.strip().splitlines()
    assert rc == 0 and lines and any(line.startswith("PASS") for line in lines[-1:]), report
    assert ("iree-default" in report) == (not ours), report
    if ours:
        assert "ldsopt lowered" in report and "fell back" not in report
    if "--keep-dynamic" in args:
        sizes = [a.split("=", 1)[1] for a, flag in zip(args[1:], args) if flag == "--input-shape"]
        assert f"module: compiled with its dims dynamic, run at {', '.join(sizes)}" in report, report
