// From iree-org/iree tests/e2e/regression/linalg_ops.mlir (@multi_result): one elementwise
// generic with two results (the sum and the product of two i32 tensors); the 3x4 constants
// are arguments here, 37x129.
#x = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<37x129xi32>, %b: tensor<37x129xi32>) -> (tensor<37x129xi32>, tensor<37x129xi32>) {
  %e = tensor.empty() : tensor<37x129xi32>
  %r:2 = linalg.generic {indexing_maps = [#x, #x, #x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x129xi32>, tensor<37x129xi32>) outs(%e, %e : tensor<37x129xi32>, tensor<37x129xi32>) {
  ^bb0(%x: i32, %y: i32, %o1: i32, %o2: i32):
    %s = arith.addi %x, %y : i32
    %p = arith.muli %x, %y : i32
    linalg.yield %s, %p : i32, i32
  } -> (tensor<37x129xi32>, tensor<37x129xi32>)
  return %r#0, %r#1 : tensor<37x129xi32>, tensor<37x129xi32>
}
