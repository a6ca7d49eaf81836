"""Unit tests of ldsopt.reduction.arg_best: the forms of argmax / argmin read by what they
compute (the direction and the treatment of NaN), and the bodies that compute something else."""

import pytest
from iree.compiler import ir

from ldsopt.reduction import arg_best

GENERIC = """
func.func @f(%x: tensor<8x64xf32>, %fv: tensor<8xf32>, %fi: tensor<8xi64>) -> (tensor<8xf32>, tensor<8xi64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
      affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%fv, %fi : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%c: f32, %v: f32, %i: i64):
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i64
BODY
    %ni = arith.select %p, %idxc, %i : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi64>
}
"""

ARG_COMPARE = """
func.func @f(%x: tensor<8x64xf32>, %fv: tensor<8xf32>, %fi: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %base = arith.constant 7 : index
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<8x64xf32>)
      outs(%fv, %fi : tensor<8xf32>, tensor<8xi32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
BODY
    iree_linalg_ext.yield %p : i1
  } -> tensor<8xf32>, tensor<8xi32>
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}
"""


def _read(template: str, body: str):
    with ir.Context():
        module = ir.Module.parse(template.replace("BODY", body))
        op = next(o.operation for o in module.body.operations[0].regions[0].blocks[0].operations
                  if o.operation.name in ("linalg.generic", "iree_linalg_ext.arg_compare"))
        best = arg_best.match_generic(op, 2) if op.name == "linalg.generic" else arg_best.match_arg_compare(op)
        if isinstance(best, arg_best.Unmatched):
            return best.reason
        return (best.kind, best.nan, best.phases, best.base)


@pytest.mark.parametrize("body, expected", [
    # torch-mlir's max.dim / min.dim: the value poisoned by a NaN, the index kept.
    ("    %nv = arith.maximumf %c, %v : f32\n    %p = arith.cmpf ogt, %c, %v : f32",
     (arg_best.MAX, arg_best.POISON, ("nan", "best", "first"), 0)),
    ("    %nv = arith.minimumf %v, %c : f32\n    %p = arith.cmpf ogt, %v, %c : f32",
     (arg_best.MIN, arg_best.POISON, ("nan", "best", "first"), 0)),
    # TOSA: a NaN taken, value and index.
    ("    %g = arith.cmpf ugt, %c, %v : f32\n    %o = arith.cmpf ord, %v, %v : f32\n"
     "    %p = arith.andi %g, %o : i1\n    %nv = arith.select %p, %c, %v : f32",
     (arg_best.MAX, arg_best.TAKE, ("nan", "best", "first"), 0)),
    # Selects on a plain comparison: a NaN never taken.
    ("    %p = arith.cmpf olt, %c, %v : f32\n    %nv = arith.select %p, %c, %v : f32",
     (arg_best.MIN, arg_best.IGNORE, ("best", "first"), 0)),
    # The same with the comparison's operands swapped and the select's condition negated twice.
    ("    %q = arith.cmpf oge, %v, %c : f32\n    %t = arith.constant true\n    %p = arith.xori %q, %t : i1\n"
     "    %nv = arith.select %p, %c, %v : f32",
     "an arg-best reduction whose NaN best value is replaced by later elements"),
    ("    %nv = arith.maximumf %c, %v : f32\n    %p = arith.cmpf oge, %c, %v : f32",
     "an arg-best reduction whose ties go to the last index (>= or <=); takes the first, as torch and numpy do"),
    ("    %nv = arith.maximumf %c, %v : f32\n    %p = arith.cmpf olt, %c, %v : f32",
     "an arg-best reduction whose value result is not the best value"),
    ("    %nv = arith.maximumf %c, %v : f32\n    %p = arith.cmpf one, %c, %v : f32",
     "an arg-best reduction whose index is not selected by c > v or c < v"),
    ("    %p = arith.cmpf ogt, %c, %v : f32\n    %nv = arith.select %p, %v, %c : f32",
     "an arg-best reduction whose value result is not the best value"),
])
def test_generic_forms(body, expected):
    assert _read(GENERIC, body) == expected


@pytest.mark.parametrize("body, expected", [
    ("    %p = arith.cmpf ogt, %a, %b : f32", (arg_best.MAX, arg_best.IGNORE, ("best", "first"), 7)),
    ("    %p = arith.cmpf olt, %a, %b : f32", (arg_best.MIN, arg_best.IGNORE, ("best", "first"), 7)),
    # A NaN wins where the best is a number: torch's order, as TOSA writes it.
    ("    %g = arith.cmpf ugt, %a, %b : f32\n    %o = arith.cmpf ord, %b, %b : f32\n    %p = arith.andi %g, %o : i1",
     (arg_best.MAX, arg_best.TAKE, ("nan", "best", "first"), 7)),
    ("    %p = arith.cmpf uge, %a, %b : f32",
     "an arg-best reduction whose ties go to the last index (>= or <=); takes the first, as torch and numpy do"),
])
def test_arg_compare_forms(body, expected):
    assert _read(ARG_COMPARE, body) == expected


COMBINE = """
func.func @f(%x: tensor<8x64xf32>, %part: tensor<8x64xi32>, %fv: tensor<8xf32>, %fi: tensor<8xi32>)
    -> (tensor<8xf32>, tensor<8xi32>) {
  %c128 = arith.constant 128 : index
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %part : tensor<8x64xf32>, tensor<8x64xi32>) outs(%fv, %fi : tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%c: f32, %local: i32, %v: f32, %i: i32):
    %nv = arith.maximumf %c, %v : f32
    %p = arith.cmpf ogt, %c, %v : f32
BODY
    %ni = arith.select %p, %new, %i : i32
    linalg.yield %nv, %ni : f32, i32
  } -> (tensor<8xf32>, tensor<8xi32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}
"""


def _index_chain(body: str):
    with ir.Context():
        module = ir.Module.parse(COMBINE.replace("BODY", body))
        op = next(o.operation for o in module.body.operations[0].regions[0].blocks[0].operations
                  if o.operation.name == "linalg.generic")
        best = arg_best.match_generic(op, 2)
        if isinstance(best, arg_best.Unmatched):
            return best.reason
        return [o.name for o in best.index_ops], best.index_inputs, best.index is not None


@pytest.mark.parametrize("body, expected", [
    # A split argmax's combine: the position times the chunk plus the index in the chunk.
    ("    %j = linalg.index 1 : index\n    %b = arith.muli %j, %c128 : index\n"
     "    %b32 = arith.index_cast %b : index to i32\n    %new = arith.addi %b32, %local : i32",
     (["linalg.index", "arith.muli", "arith.index_cast", "arith.addi"], (1,), True)),
    # The index an input holds at the position (arg_compare's second stage, written as a generic).
    ("    %new = arith.addi %local, %local : i32", (["arith.addi"], (1,), False)),
    # The position itself: the plain form, nothing computed after the reduction.
    ("    %j = linalg.index 1 : index\n    %new = arith.index_cast %j : index to i32", ([], (), True)),
    ("    %j = linalg.index 0 : index\n    %new = arith.index_cast %j : index to i32",
     "an arg-best reduction whose new index reads the position along another dim"),
    ("    %new = arith.fptosi %v : f32 to i32", "an arg-best reduction whose new index reads the best value or index"),
    ("    %s = arith.addf %c, %c : f32\n    %new = arith.fptosi %s : f32 to i32",
     "an arg-best reduction whose new index is not integer arith of the reduced dim's linalg.index and the inputs "
     "there"),
])
def test_index_computed_at_the_position(body, expected):
    assert _index_chain(body) == expected
