"""ldsopt/run/inputs.py: random inputs, the bounds a program's table reads put on its integer
inputs, and the user's inputs as iree-run-module spells them."""

import numpy as np
import pytest

from ldsopt.run import inputs
from ldsopt.run import tensor_file

# An embedding (as torch-mlir lowers aten.embedding) of ids %arg0 through a reshape, and
# %arg1 reaching a table read only after arithmetic, and %arg2 a plain float input.
GATHER = """
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#m4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main(%arg0: tensor<1x7xi64>, %arg1: tensor<1x7xi64>, %arg2: tensor<3xf32>, %table: tensor<97x4xf32>)
    -> (tensor<1x7x4xf32>, tensor<1x7x4xf32>) {
  %c = arith.constant dense<1> : tensor<1x7xi64>
  %e = tensor.empty() : tensor<1x7x4xf32>
  %ids = tensor.collapse_shape %arg0 [[0, 1]] : tensor<1x7xi64> into tensor<7xi64>
  %ids2 = tensor.expand_shape %ids [[0, 1]] output_shape [1, 7] : tensor<7xi64> into tensor<1x7xi64>
  %g = linalg.generic {indexing_maps = [#m3, #m4], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids2 : tensor<1x7xi64>) outs(%e : tensor<1x7x4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %x = tensor.extract %table[%i, %j] : tensor<97x4xf32>
    linalg.yield %x : f32
  } -> tensor<1x7x4xf32>
  %e2 = tensor.empty() : tensor<1x7xi64>
  %shifted = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%arg1, %c : tensor<1x7xi64>, tensor<1x7xi64>) outs(%e2 : tensor<1x7xi64>) {
  ^bb0(%a: i64, %b: i64, %out: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  } -> tensor<1x7xi64>
  %g2 = linalg.generic {indexing_maps = [#m3, #m4], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%shifted : tensor<1x7xi64>) outs(%e : tensor<1x7x4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %x = tensor.extract %table[%i, %j] : tensor<97x4xf32>
    linalg.yield %x : f32
  } -> tensor<1x7x4xf32>
  return %g, %g2 : tensor<1x7x4xf32>, tensor<1x7x4xf32>
}
"""


def test_table_indices_are_bounded_by_the_table():
    ids, shifted, floats, table = inputs.index_bounds(GATHER, "main")
    assert ids.hi == 97 and ids.unbounded is None and "97x4" in ids.where
    assert shifted.hi is None and shifted.unbounded == "tensor.extract"  # through arith.addi
    assert floats.hi is None and floats.unbounded is None and table.hi is None


# A double gather (eager BERT's token types at load): %types read at the positions %pos index
# the rows of %table, so both arguments are bounded: %pos by %types' extent, %types by %table's.
DOUBLE_GATHER = """
func.func @main(%pos: tensor<5xi64>, %types: tensor<32xi32>, %table: tensor<3x40xf16>) -> tensor<5x40xf16> {
  %e = tensor.empty() : tensor<5x40xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} ins(%pos : tensor<5xi64>) outs(%e : tensor<5x40xf16>) {
  ^bb0(%p: i64, %out: f16):
    %i = arith.index_cast %p : i64 to index
    %t = tensor.extract %types[%i] : tensor<32xi32>
    %r = arith.index_cast %t : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%r, %j] : tensor<3x40xf16>
    linalg.yield %x : f16
  } -> tensor<5x40xf16>
  return %g : tensor<5x40xf16>
}
"""


def test_a_tables_elements_that_index_another_table_are_bounded_by_it():
    pos, types, table = inputs.index_bounds(DOUBLE_GATHER, "main")
    assert pos.hi == 32 and pos.unbounded is None
    assert types.hi == 3 and types.unbounded is None and "3x40" in types.where
    assert table.hi is None and table.unbounded is None
    drawn = inputs.random_inputs([([5], "i64"), ([32], "i32"), ([3, 40], "f16")], 0,
                                 bounds=[pos, types, table])
    assert 0 <= drawn[1].min() and drawn[1].max() <= 2
    inputs.check(drawn, [pos, types, table], given=set())


def test_random_table_indices_stay_in_bounds_and_others_keep_their_range():
    bounds = inputs.index_bounds(GATHER, "main")
    args = [([1, 7], "i64"), ([1, 7], "i64"), ([3], "f32"), ([97, 4], "f32")]
    ids, other, _, _ = inputs.random_inputs([([64, 7], "i64"), ([64, 7], "i64"), ([3], "f32"), ([97, 4], "f32")], 0,
                                            bounds=bounds)
    assert ids.min() >= 0 and ids.max() == 96
    assert other.min() < -500 and other.max() > 500  # unbounded: drawn as before, and refused below
    drawn = inputs.random_inputs(args, 0, bounds=bounds)
    with pytest.raises(inputs.InputsError, match=r"input 1: it reaches a table index through tensor.extract.*--input-range 1"):
        inputs.check(drawn, bounds, given=set())
    ranged = inputs.random_inputs(args, 0, ranges={1: (0, 95)}, bounds=bounds)
    assert 0 <= ranged[1].min() and ranged[1].max() <= 95
    inputs.check(ranged, bounds, given={1})


def test_given_values_out_of_bounds_are_refused_with_the_value_and_place():
    bounds = inputs.index_bounds(GATHER, "main")
    values = [np.array([[1, 2, 3, 97, 4, 5, 6]]), np.zeros((1, 7), np.int64), np.zeros(3, np.float32),
              np.zeros((97, 4), np.float32)]
    with pytest.raises(inputs.InputsError, match=r"input 0 holds 97 at \[0, 3\].*\[0, 97\).*refused"):
        inputs.check(values, bounds, given={0, 1})
    values[0][0, 3] = -1
    with pytest.raises(inputs.InputsError, match=r"holds -1"):
        inputs.check(values, bounds, given={0, 1})


@pytest.mark.parametrize("spec,expected", [
    ("2x3xf32=1 2 3 4 5 6", np.arange(1, 7, dtype=np.float32).reshape(2, 3)),
    ("2x2xi64=[[1 2][3 4]]", np.array([[1, 2], [3, 4]], np.int64)),
    ("2x2xi32=7", np.full((2, 2), 7, np.int32)),
    ("3xf16", np.zeros(3, np.float16)),
    ("f32=2.5", np.array(2.5, np.float32)),
    ("4xi8=1,-2,3,-4", np.array([1, -2, 3, -4], np.int8)),
])
def test_values_as_iree_run_module_spells_them(spec, expected):
    got = inputs.read_value(spec)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


@pytest.mark.parametrize("spec,message", [
    ("2x3xf32=1 2", "2 values for a 2x3xf32 input of 6"),
    ("2x3xq8=1", "expected @file.npy"),
    ("@x.txt", "only .npy"),
    ("2xi32=a b", "must be numbers"),
])
def test_bad_values_say_why(spec, message):
    with pytest.raises(inputs.InputsError, match=message):
        inputs.read_value(spec)


def test_resolve_by_name_index_file_and_shape(tmp_path):
    np.save(tmp_path / "ids.npy", np.array([[5, 6, 7]], np.int32))
    opts = inputs.Options(values=["input_ids=@ids.npy"], ranges=["1=-2:2"], shapes=["mask=1x3"],
                          names=["input_ids", "mask"], base=str(tmp_path))
    r = inputs.resolve(opts, [([1, -1], "i64"), ([1, -1], "f32")])
    assert r.values[0].dtype == np.int64 and r.values[0].tolist() == [[5, 6, 7]]
    assert r.ranges == {1: (-2.0, 2.0)} and r.shapes == {0: [1, 3], 1: [1, 3]}
    for bad, message in ((inputs.Options(values=["nope=1xf32"], names=["a"]), "no argument of that name"),
                         (inputs.Options(values=["5=f32=1"]), "the function has 2 argument"),
                         (inputs.Options(ranges=["0=3:1"]), "LO <= HI"),
                         (inputs.Options(shapes=["0=2x3"]), "argument 0 has shape 1x\\?"),
                         (inputs.Options(values=["0=2x2xi64"]), "a 2x2 value for an argument of shape 1x\\?"),
                         (inputs.Options(values=["1=1x3xi64"]), "int64 values for a f32 argument")):
        with pytest.raises(inputs.InputsError, match=message):
            inputs.resolve(bad, [([1, -1], "i64"), ([1, -1], "f32")])


def test_special_values_are_seeded_and_leave_the_other_elements_alone():
    sig = [([2, 4096], "f16"), ([10], "f32"), ([5000], "bf16"), ([7], "f64"), ([100], "i32")]
    plain = inputs.random_inputs(sig, 3)
    special = inputs.random_inputs(sig, 3, special=True)
    again = inputs.random_inputs(sig, 3, special=True)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(special, again))
    assert special[4].tobytes() == plain[4].tobytes()  # integers untouched
    for (shape, dtype), p, s in zip(sig[:4], plain, special):
        v = tensor_file.as_float64(s, dtype)
        changed = p.view(np.uint8).reshape(p.size, -1) != s.view(np.uint8).reshape(s.size, -1)
        count = min(p.size, max(6, p.size // 4096))
        assert changed.any(axis=1).sum() <= count  # a special value may land on an equal one (-0.0 on -0.0)
        assert np.isposinf(v).any() and np.isneginf(v).any() and np.isnan(v).any(), dtype
        assert ((v != 0) & (np.abs(v) < np.finfo(np.float16 if dtype == "f16" else np.float32).tiny)).any() \
            or dtype == "f64", dtype  # subnormals
        assert (~np.isfinite(v)).sum() == sum(1 for i in range(count) if i % 6 < 3)  # +inf, -inf, NaN first


def test_i8_inputs_span_the_signed_range():
    """i8 inputs reach both ends of [-128, 127]: a kernel that zero-extends them, or multiplies
    them in i8, must differ from the reference (lds-run's i8 matmuls rely on it)."""
    (a,) = inputs.random_inputs([([4096], "i8")], 0)
    assert a.dtype == np.int8 and a.min() == -128 and a.max() == 127
    assert (a < 0).mean() > 0.4 and (np.abs(a.astype(np.int32)) > 64).mean() > 0.4


