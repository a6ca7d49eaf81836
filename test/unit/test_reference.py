"""The program lds-run's reference runs (ldsopt/run/reference.py): what promotion to f64 changes,
what it keeps, what it refuses, and the reduction length that grows an unpromoted
program's tolerances."""

import pathlib
import re

import pytest

from ldsopt.run import reference

SUM_F16 = """func.func @main(%x: tensor<2x4096xf16>) -> tensor<2xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x4096xf16>) outs(%f : tensor<2xf16>) {
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<2xf16>
  return %r : tensor<2xf16>
}
"""

ELEMENTWISE = """func.func @main(%x: tensor<64x{t}>) -> tensor<64x{u}> {{
  %e = tensor.empty() : tensor<64x{u}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%x : tensor<64x{t}>) outs(%e : tensor<64x{u}>) {{
  ^bb0(%a: {t}, %o: {u}):
{body}
  }} -> tensor<64x{u}>
  return %r : tensor<64x{u}>
}}
"""


def body_types(text: str) -> set[str]:
    """The float types named in `text`."""
    return set(re.findall(r"(?<![\w.])(?:\d+x)*(bf16|f16|f32|f64)\b", text))


def test_f16_sum_computes_in_f64():
    p = reference.promote_to_f64(SUM_F16)
    assert p.promoted and p.why is None
    assert "func.func @main(%arg0: tensor<2x4096xf64>) -> tensor<2xf64>" in p.text
    assert re.search(r"arith.addf %\w+, %\w+ : f64", p.text)
    # the f16 constant 0.0 keeps its value, widened
    assert re.search(r"arith.constant 0.000000e\+00 : f16\n\s*%\d+ = arith.extf %\w+ : f16 to f64", p.text)


def test_truncf_keeps_the_rounding_the_program_asks_for():
    """f32 -> f16 -> f32: the kernel rounds to f16 as told; dropping that rounding would make
    the reference differ from a right kernel by 5e-4, past the f32 tolerance."""
    body = """    %t = arith.truncf %a : f32 to f16
    %w = arith.extf %t : f16 to f32
    %m = arith.mulf %w, %w : f32
    linalg.yield %m : f32"""
    p = reference.promote_to_f64(ELEMENTWISE.format(t="f32", u="f32", body=body))
    assert p.promoted
    assert re.search(r"%(\w+) = arith.truncf %\w+ : f64 to f16\n\s*%(\w+) = arith.extf %\1 : f16 to f64\n"
                     r"\s*%\w+ = arith.mulf %\2, %\2 : f64", p.text), p.text


def test_extf_between_promoted_types_is_folded():
    body = """    %w = arith.extf %a : f16 to f32
    %m = arith.mulf %w, %w : f32
    linalg.yield %m : f32"""
    p = reference.promote_to_f64(ELEMENTWISE.format(t="f16", u="f32", body=body))
    assert p.promoted and "arith.extf" not in p.text and body_types(p.text) == {"f64"}


def test_integers_stay_and_int_to_float_widens():
    body = """    %w = arith.sitofp %a : i32 to f32
    %m = arith.mulf %w, %w : f32
    linalg.yield %m : f32"""
    p = reference.promote_to_f64(ELEMENTWISE.format(t="i32", u="f32", body=body))
    assert p.promoted and "tensor<64xi32>" in p.text and "arith.sitofp %in : i32 to f64" in p.text


def test_matmul_is_generalized_then_promoted():
    text = """func.func @main(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xbf16>, tensor<8x3xbf16>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}"""
    p = reference.promote_to_f64(text)
    assert p.promoted and "linalg.matmul" not in p.text and "bf16" not in p.text
    # only the constant stays f32, widened right away
    assert [line.strip() for line in p.text.splitlines() if "f32" in line] == [
        "%cst = arith.constant 0.000000e+00 : f32", "%0 = arith.extf %cst : f32 to f64"]
    assert re.search(r"arith.mulf %in, %in_0 : f64\n\s*%\d+ = arith.addf %out, %\d+ : f64", p.text)


@pytest.mark.parametrize("text,why", [
    (ELEMENTWISE.format(t="f32", u="i32", body="""    %i = arith.fptosi %a : f32 to i32
    linalg.yield %i : i32"""), "arith.fptosi at line 6 converts floats to integers"),
    (ELEMENTWISE.format(t="f32", u="i32", body="""    %i = arith.bitcast %a : f32 to i32
    linalg.yield %i : i32"""), "arith.bitcast at line 6 reinterprets the bits of a float"),
    (ELEMENTWISE.format(t="f8E4M3FN", u="f32", body="""    %w = arith.extf %a : f8E4M3FN to f32
    linalg.yield %w : f32"""), "values of type f8E4M3FN have no f64 counterpart"),
])
def test_programs_that_cannot_be_promoted_run_as_written(text, why):
    p = reference.promote_to_f64(text)
    assert not p.promoted and p.text == text and why in p.why


def test_programs_without_narrow_floats_run_as_written():
    ints = ELEMENTWISE.format(t="i32", u="i32", body="""    %m = arith.muli %a, %a : i32
    linalg.yield %m : i32""")
    assert reference.promote_to_f64(ints) == reference.Promotion(ints, False, "no floating-point values")
    f64 = SUM_F16.replace("f16", "f64")
    assert reference.promote_to_f64(f64) == reference.Promotion(f64, True, None)


def test_reduction_length_and_growth():
    assert reference.reduction_length(SUM_F16) == 4096
    matmul = """func.func @main(%a: tensor<4x70xf32>, %b: tensor<70x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x70xf32>, tensor<70x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}"""
    assert reference.reduction_length(matmul) == 70
    assert reference.reduction_length(ELEMENTWISE.format(t="f32", u="f32", body="    linalg.yield %a : f32")) == 1


def test_resource_constants_keep_their_values_widened():
    """Weights of an imported model come as dense_resource blobs: kept, then extended."""
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense_resource<blob1> : tensor<4xf32>
  %r = arith.addf %x, %w : tensor<4xf32>
  return %r : tensor<4xf32>
}
{-#
  dialect_resources: {builtin: {blob1: "0x040000000000803F000000400000404000008040"}}
#-}
"""
    p = reference.promote_to_f64(text)
    assert p.promoted
    assert re.search(r"%(\w+) = arith.constant dense_resource<blob1> : tensor<4xf32>\n"
                     r"\s*%(\w+) = arith.extf %\1 : tensor<4xf32> to tensor<4xf64>\n"
                     r"\s*%\w+ = arith.addf %arg0, %\2 : tensor<4xf64>", p.text), p.text


def test_computed_float_types_are_the_rounding_ops():
    """math.exp in f16 counts; the extf to f32 and the f32 add make f32; an f16 input that is
    only widened (the f16-in, f32-accumulated matmul) computes in f32 alone."""
    from ldsopt.run.reference import float_types
    exp16 = (pathlib.Path(__file__).resolve().parents[1] / "e2e" / "programs" / "reference" /
             "exp_f16_to_f32_2x2.mlir").read_text()
    assert float_types(exp16).computed == {"f16", "f32"}
    matmul = (pathlib.Path(__file__).resolve().parents[1] / "e2e" / "programs" / "reference" /
              "matmul_f16_acc_f32_33x40x70.mlir").read_text()
    assert float_types(matmul) == ({"f32"}, set())


def test_a_truncf_of_computed_values_rounds_to_its_type():
    """The chunk statistics' program rounds its residual sum to f16 and sums squares of those
    values in f32: a kernel summing K in another order lands on the neighbouring f16 now and
    then, so the f32 statistics carry an ulp of f16. A truncf of an input rounds the same
    numbers in both and adds nothing."""
    from ldsopt.run.reference import float_types
    chunks = (pathlib.Path(__file__).resolve().parents[1] / "e2e" / "programs" / "matmul_chunk_stats" /
              "residual_chunks_f16_512x768x3072.mlir").read_text()
    assert float_types(chunks) == ({"f32"}, {"f16"})
    of_input = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %h = arith.truncf %a : f32 to f16
    %w = arith.extf %h : f16 to f32
    %s = arith.addf %w, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
    assert float_types(of_input).rounded == set()
    assert float_types(of_input.replace("%h = arith.truncf %a", "%h = arith.truncf %s0").replace(
        "^bb0(%a: f32, %o: f32):", "^bb0(%a: f32, %o: f32):\n    %s0 = arith.mulf %a, %a : f32")).rounded == {"f16"}
