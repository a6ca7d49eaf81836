"""ldsopt/run/numpy_reference.py: programs evaluated by numpy against values computed here
independently (plain numpy on the same inputs), integer and rounding semantics at their
edges, what it refuses; and a sample of the end-to-end programs against llvm-cpu."""

from __future__ import annotations

import pathlib
from fractions import Fraction

import numpy as np
import pytest

from ldsopt.run import inputs as inputs_mod
from ldsopt.run import driver
from ldsopt.run import numpy_reference
from ldsopt.numpy_arith import round_to_bf16
from ldsopt.run.numpy_reference import Unsupported, evaluate

PROGRAMS = pathlib.Path(__file__).parent.parent / "e2e" / "programs"
rng = np.random.default_rng(7)


def test_i8_matmul_sign_extends():
    a = rng.integers(-128, 128, (5, 7), dtype=np.int8)
    b = rng.integers(-128, 128, (7, 3), dtype=np.int8)
    text = """
    func.func @f(%a: tensor<5x7xi8>, %b: tensor<7x3xi8>) -> tensor<5x3xi32> {
      %c0 = arith.constant 0 : i32
      %e = tensor.empty() : tensor<5x3xi32>
      %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<5x3xi32>) -> tensor<5x3xi32>
      %r = linalg.matmul ins(%a, %b : tensor<5x7xi8>, tensor<7x3xi8>) outs(%z : tensor<5x3xi32>) -> tensor<5x3xi32>
      return %r : tensor<5x3xi32>
    }"""
    (out,) = evaluate(text, "f", [a, b])
    assert out.dtype == np.int32 and np.array_equal(out, a.astype(np.int32) @ b.astype(np.int32))


def test_permuted_maps_constant_index_and_a_reduction_no_factor_reads():
    """out[j, i] = init[j, i] + sum over k of x[i, 0] * y[j]: the product does not vary
    with k, so each of its 5 steps adds it once more."""
    x, y, init = rng.standard_normal((4, 3)), rng.standard_normal(6), rng.standard_normal((6, 4))
    text = """
    func.func @f(%x: tensor<4x3xf64>, %y: tensor<6xf64>, %init: tensor<6x4xf64>) -> tensor<6x4xf64> {
      %k = tensor.empty() : tensor<5xf64>
      %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, 0)>, affine_map<(i, j, k) -> (j)>,
                                            affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (j, i)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%x, %y, %k : tensor<4x3xf64>, tensor<6xf64>, tensor<5xf64>) outs(%init : tensor<6x4xf64>) {
      ^bb0(%a: f64, %b: f64, %unused: f64, %acc: f64):
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %acc, %p : f64
        linalg.yield %s : f64
      } -> tensor<6x4xf64>
      return %r : tensor<6x4xf64>
    }"""
    (out,) = evaluate(text, "f", [x, y, init])
    np.testing.assert_allclose(out, init + 5 * np.outer(y, x[:, 0]), rtol=1e-14)


def test_argmax_keeps_the_first_of_ties_stepwise():
    x = rng.integers(0, 4, (6, 50)).astype(np.float64)  # many ties
    text = """
    func.func @f(%x: tensor<6x50xf64>) -> (tensor<6xf64>, tensor<6xi32>) {
      %ninf = arith.constant 0xFFF0000000000000 : f64
      %c0 = arith.constant 0 : i32
      %e0 = tensor.empty() : tensor<6xf64>
      %e1 = tensor.empty() : tensor<6xi32>
      %m0 = linalg.fill ins(%ninf : f64) outs(%e0 : tensor<6xf64>) -> tensor<6xf64>
      %i0 = linalg.fill ins(%c0 : i32) outs(%e1 : tensor<6xi32>) -> tensor<6xi32>
      %r:2 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>,
                                              affine_map<(i, k) -> (i)>],
                             iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<6x50xf64>) outs(%m0, %i0 : tensor<6xf64>, tensor<6xi32>) {
      ^bb0(%v: f64, %m: f64, %i: i32):
        %k = linalg.index 1 : index
        %ki = arith.index_cast %k : index to i32
        %gt = arith.cmpf ogt, %v, %m : f64
        %nm = arith.select %gt, %v, %m : f64
        %ni = arith.select %gt, %ki, %i : i32
        linalg.yield %nm, %ni : f64, i32
      } -> (tensor<6xf64>, tensor<6xi32>)
      return %r#0, %r#1 : tensor<6xf64>, tensor<6xi32>
    }"""
    m, i = evaluate(text, "f", [x])
    assert np.array_equal(m, x.max(axis=1)) and np.array_equal(i, np.argmax(x, axis=1))


@pytest.mark.parametrize("op,expected", [
    ("arith.xori", lambda x: np.bitwise_xor.reduce(x, axis=1)),
    ("arith.maxui", lambda x: np.max(x.view(np.uint32), axis=1).view(np.int32)),
    ("arith.minsi", lambda x: np.min(x, axis=1)),
    ("arith.addi", lambda x: np.sum(x, axis=1, dtype=np.int32)),  # wraps at 32 bits
])
def test_integer_reductions(op, expected):
    x = rng.integers(-2**31, 2**31, (3, 40), dtype=np.int64).astype(np.int32)
    text = f"""
    func.func @f(%x: tensor<3x40xi32>, %init: tensor<3xi32>) -> tensor<3xi32> {{
      %r = linalg.generic {{indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}}
          ins(%x : tensor<3x40xi32>) outs(%init : tensor<3xi32>) {{
      ^bb0(%v: i32, %acc: i32):
        %s = {op} %v, %acc : i32
        linalg.yield %s : i32
      }} -> tensor<3xi32>
      return %r : tensor<3xi32>
    }}"""
    init = rng.integers(-2**31, 2**31, 3, dtype=np.int64).astype(np.int32)
    (out,) = evaluate(text, "f", [x, init])
    whole = np.concatenate([init[:, None], x], axis=1)  # the init is combined like one more term
    assert np.array_equal(out, expected(whole))


def test_integer_division_truncates_and_shifts_read_bits():
    a = np.array([7, -7, 7, -7, -128], np.int8)
    b = np.array([2, 2, -2, -2, 3], np.int8)
    text = """
    func.func @f(%a: tensor<5xi8>, %b: tensor<5xi8>) -> (tensor<5xi8>, tensor<5xi8>, tensor<5xi8>, tensor<5xi32>) {
      %q = arith.divsi %a, %b : tensor<5xi8>
      %r = arith.remsi %a, %b : tensor<5xi8>
      %one = arith.constant dense<1> : tensor<5xi8>
      %s = arith.shrui %a, %one : tensor<5xi8>
      %u = arith.extui %a : tensor<5xi8> to tensor<5xi32>
      return %q, %r, %s, %u : tensor<5xi8>, tensor<5xi8>, tensor<5xi8>, tensor<5xi32>
    }"""
    q, r, s, u = evaluate(text, "f", [a, b])
    assert q.tolist() == [3, -3, -3, 3, -42] and r.tolist() == [1, -1, 1, -1, -2]
    assert s.view(np.uint8).tolist() == [3, 124, 3, 124, 64] and u.tolist() == [7, 249, 7, 249, 128]


def test_cmpf_unordered_and_ordered_with_nan():
    a = np.array([1.0, np.nan, 2.0])
    b = np.array([1.0, 1.0, np.nan])
    text = """
    func.func @f(%a: tensor<3xf64>, %b: tensor<3xf64>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
      %une = arith.cmpf une, %a, %b : tensor<3xf64>
      %one = arith.cmpf one, %a, %b : tensor<3xf64>
      %ueq = arith.cmpf ueq, %a, %b : tensor<3xf64>
      return %une, %one, %ueq : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
    }"""
    une, one, ueq = evaluate(text, "f", [a, b])
    assert une.tolist() == [False, True, True] and one.tolist() == [False, False, False]
    assert ueq.tolist() == [True, True, True]


def test_reshapes_slices_pad_concat():
    x = rng.standard_normal((4, 6))
    text = """
    func.func @f(%x: tensor<4x6xf64>) -> (tensor<2x2x6xf64>, tensor<3xf64>, tensor<4x6xf64>, tensor<6x7xf64>,
                                        tensor<8x6xf64>) {
      %e = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf64> into tensor<2x2x6xf64>
      %s = tensor.extract_slice %x[1, 0] [1, 3] [1, 2] : tensor<4x6xf64> to tensor<3xf64>
      %z = arith.constant dense<0.0> : tensor<2x2xf64>
      %i = tensor.insert_slice %z into %x[2, 3] [2, 2] [1, 1] : tensor<2x2xf64> into tensor<4x6xf64>
      %c = arith.constant 9.0 : f64
      %p = tensor.pad %x low[1, 0] high[1, 1] {
      ^bb0(%a: index, %b: index):
        tensor.yield %c : f64
      } : tensor<4x6xf64> to tensor<6x7xf64>
      %k = tensor.concat dim(0) %x, %x : (tensor<4x6xf64>, tensor<4x6xf64>) -> tensor<8x6xf64>
      return %e, %s, %i, %p, %k : tensor<2x2x6xf64>, tensor<3xf64>, tensor<4x6xf64>, tensor<6x7xf64>, tensor<8x6xf64>
    }"""
    e, s, i, p, k = evaluate(text, "f", [x])
    inserted = x.copy()
    inserted[2:4, 3:5] = 0
    assert np.array_equal(e, x.reshape(2, 2, 6)) and np.array_equal(s, x[1, 0:6:2])
    assert np.array_equal(i, inserted) and np.array_equal(p, np.pad(x, [(1, 1), (0, 1)], constant_values=9.0))
    assert np.array_equal(k, np.concatenate([x, x]))


def _exact_nearest(v: float, candidates: list[float]) -> float:
    return min(candidates, key=lambda c: abs(Fraction(c) - Fraction(v)))


def test_truncf_rounds_once_to_f16_and_bf16():
    """A value 2^-26 above an f16 midpoint: rounding once gives the lower neighbour; rounding
    through f32 first (llvm-cpu's f64 -> f16) lands on the midpoint and ties to the other."""
    v = -0.7243652194738388
    text = """
    func.func @f(%x: tensor<1xf64>) -> (tensor<1xf64>, tensor<1xf64>) {
      %h = arith.truncf %x : tensor<1xf64> to tensor<1xf16>
      %he = arith.extf %h : tensor<1xf16> to tensor<1xf64>
      %b = arith.truncf %x : tensor<1xf64> to tensor<1xbf16>
      %be = arith.extf %b : tensor<1xbf16> to tensor<1xf64>
      return %he, %be : tensor<1xf64>, tensor<1xf64>
    }"""
    h, b = evaluate(text, "f", [np.array([v])])
    assert h[0] == _exact_nearest(v, [-0.72412109375, -0.724609375]) == -0.72412109375
    assert b[0] == _exact_nearest(v, [-0.72265625, -0.7265625])


def test_round_to_bf16_is_correctly_rounded_near_ties():
    base = round_to_bf16(rng.standard_normal(300) * 100).astype(np.float64)
    half_ulp = np.sign(base) * np.ldexp(1.0, np.frexp(base)[1] - 9)  # away from zero
    for x in (base + half_ulp, base + half_ulp * (1 + 1e-12), base + half_ulp * (1 - 1e-12)):
        got = round_to_bf16(x).astype(np.float64)
        for v, g, lo, half in zip(x, got, base, half_ulp):
            below, above = sorted([lo, lo + 2 * half])
            best = _exact_nearest(v, [below, above])
            tie = abs(Fraction(v) - Fraction(below)) == abs(Fraction(above) - Fraction(v))
            even = min((below, above), key=lambda c: int(np.float32(c).view(np.uint32) >> 16) & 1)
            assert g == (even if tie else best), v
    specials = round_to_bf16(np.array([0.0, -0.0, np.inf, -np.inf, 3.4e38]))
    assert specials[:4].tolist() == [0.0, -0.0, np.inf, -np.inf] and np.isinf(specials[4])
    assert np.signbit(specials[1]) and np.isnan(round_to_bf16(np.array([np.nan]))[0])


@pytest.mark.parametrize("text,shapes,why", [
    ("""func.func @f(%x: tensor<?xf64>) -> tensor<?xf64> {
          %y = arith.negf %x : tensor<?xf64>
          return %y : tensor<?xf64>
        }""", [(4,)], "dynamic shape"),
    ("""func.func @f(%x: tensor<8xf64>, %w: tensor<3xf64>, %o: tensor<6xf64>) -> tensor<6xf64> {
          %y = linalg.conv_1d ins(%x, %w : tensor<8xf64>, tensor<3xf64>) outs(%o : tensor<6xf64>) -> tensor<6xf64>
          return %y : tensor<6xf64>
        }""", [(8,), (3,), (6,)], "indexing map numpy does not evaluate"),
    ("""func.func @f(%x: tensor<8xf64>) -> tensor<8xf64> {
          %c = arith.constant 3 : index
          %v = arith.constant 1.0 : f64
          %y = tensor.insert %v into %x[%c] : tensor<8xf64>
          return %y : tensor<8xf64>
        }""", [(8,)], "tensor.insert is not evaluated by numpy"),
])
def test_refuses_what_it_does_not_evaluate(text, shapes, why):
    args = [np.zeros(shape) for shape in shapes]
    with pytest.raises(Unsupported, match=why):
        evaluate(text, "f", args)


def test_refuses_a_stepwise_reduction_longer_than_its_limit(monkeypatch):
    monkeypatch.setattr(numpy_reference, "MAX_STEPS", 10)
    text = """
    func.func @f(%x: tensor<2x20xf64>, %init: tensor<2xf64>) -> tensor<2xf64> {
      %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<2x20xf64>) outs(%init : tensor<2xf64>) {
      ^bb0(%v: f64, %acc: f64):
        %s = arith.subf %acc, %v : f64
        linalg.yield %s : f64
      } -> tensor<2xf64>
      return %r : tensor<2xf64>
    }"""
    with pytest.raises(Unsupported, match="too many sequential steps"):
        evaluate(text, "f", [np.zeros((2, 20)), np.zeros(2)])
    monkeypatch.setattr(numpy_reference, "MAX_STEPS", 1 << 16)
    x, init = rng.standard_normal((2, 20)), rng.standard_normal(2)
    np.testing.assert_allclose(evaluate(text, "f", [x, init])[0], init - x.sum(axis=1), rtol=1e-13)


# End-to-end programs of every kind numpy takes, against llvm-cpu on the same promoted program.
SAMPLE = ["matmul_i8/batch_nn_i8_3x33x17x70_acc.mlir", "fused/argmax_ties_f32_9x4099.mlir",
          "fused/softmax_f16_33x1.mlir", "fused/layernorm_f16_3x4099.mlir", "transpose/perm6d_f32.mlir",
          "permute/q_projection_heads_f16_1x40x4x12.mlir", "reduction/maxui_i32_20x999.mlir",
          "matmul_epilogue/bias_silu_f16_3x33x40x70.mlir"]


@pytest.mark.parametrize("program", SAMPLE)
def test_agrees_with_llvm_cpu(program, tmp_path):
    path = PROGRAMS / program
    text = driver.read_source(str(path))
    sig = driver.signature(text, None, str(path))
    inputs = [driver.Tensor(shape, dtype, f"input{i}.bin") for i, (shape, dtype) in enumerate(sig.inputs)]
    for t, a in zip(inputs, inputs_mod.random_inputs(sig.inputs, 0)):
        t.save(str(tmp_path), a)
    runs = {}
    for engine in ("numpy", "llvm-cpu"):
        folder = tmp_path / engine
        folder.mkdir()
        for t in inputs:
            (folder / t.file).write_bytes((tmp_path / t.file).read_bytes())
        ref = driver.reference(text, sig, inputs, str(folder), engine)
        assert ref.info["engine"] == engine and ref.info["precision"] in ("f64", "program")
        runs[engine] = [e.load(str(folder)).astype(np.float64) for e in ref.expected]
    for ours, theirs, (_, dtype) in zip(runs["numpy"], runs["llvm-cpu"], sig.outputs):
        if dtype not in driver.FLOATS:
            assert np.array_equal(ours, theirs), program
            continue
        # f16/bf16 outputs: llvm-cpu rounds f64 -> f16 through f32 (so a value may land one ulp
        # away) and flushes f16 subnormals; elsewhere the two agree to f64 rounding.
        scale = max(float(np.sqrt(np.mean(theirs ** 2))), 1e-30)
        ulp = {"f16": 2.0 ** -10, "bf16": 2.0 ** -7}.get(dtype, 1e-12)
        assert np.all(np.abs(ours - theirs) <= ulp * np.maximum(np.abs(theirs), scale)), program


def test_an_output_written_at_a_constant_index_keeps_the_rest_of_its_init():
    """A row sum kept as a 2-D output written at column 0 of a 2-wide tensor (a map with a
    constant result): column 1 keeps the init's values."""
    x, init = rng.standard_normal((5, 7)), rng.standard_normal((5, 2))
    text = """
    func.func @f(%x: tensor<5x7xf64>, %init: tensor<5x2xf64>) -> tensor<5x2xf64> {
      %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, 0)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<5x7xf64>) outs(%init : tensor<5x2xf64>) {
      ^bb0(%v: f64, %acc: f64):
        %s = arith.addf %v, %acc : f64
        linalg.yield %s : f64
      } -> tensor<5x2xf64>
      return %r : tensor<5x2xf64>
    }"""
    (out,) = evaluate(text, "f", [x, init])
    np.testing.assert_allclose(out[:, 0], init[:, 0] + x.sum(axis=1), rtol=1e-13)
    assert np.array_equal(out[:, 1], init[:, 1])


GATHER = """
#m = affine_map<(d0, d1) -> (d0)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
util.global private @table = dense_resource<blob> : tensor<5x2xf32>
func.func @f(%ids: tensor<3xi64>) -> tensor<3x2xf32> {
  %t = util.global.load @table : tensor<5x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %g = linalg.generic {indexing_maps = [#m, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xi64>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %t[%i, %j] : tensor<5x2xf32>
    linalg.yield %x : f32
  } -> tensor<3x2xf32>
  return %g : tensor<3x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x04000000HEX"
    }
  }
#-}
""".replace("HEX", np.arange(10, dtype=np.float32).tobytes().hex().upper())


def test_gathers_read_weights_of_globals_and_refuse_out_of_bounds_indices():
    (out,) = evaluate(GATHER, "f", [np.array([4, 0, 2])])
    assert out.tolist() == [[8, 9], [0, 1], [4, 5]]
    with pytest.raises(numpy_reference.AssertionFailed, match="index 5 of dim 0 of a table of 5"):
        evaluate(GATHER, "f", [np.array([1, 5, 2])])


def test_parameters_are_read_from_the_archive(tmp_path):
    from iree import runtime

    from ldsopt.run import parameters
    index = runtime.ParameterIndex()
    runtime.parameter_index_add_numpy_ndarray(index, "w", np.arange(10, dtype=np.float32).reshape(5, 2) * 2)
    index.create_archive_file(str(tmp_path / "p.irpa"))
    text = GATHER.replace("dense_resource<blob>", '#flow.parameter.named<"model"::"w">')
    store = parameters.Store([parameters.Archive("model", str(tmp_path / "p.irpa"))])
    (out,) = evaluate(text, "f", [np.array([1, 3, 0])], store)
    assert out.tolist() == [[4, 6], [12, 14], [0, 2]]
    with pytest.raises(Unsupported, match="no archive was given"):
        evaluate(text, "f", [np.array([1, 3, 0])])
