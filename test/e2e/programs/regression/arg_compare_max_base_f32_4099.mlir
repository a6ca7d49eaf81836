// From iree-org/iree tests/e2e/linalg_ext_ops/arg_compare.mlir
// (@arg_compare_1d_dim0_max_with_base): iree_linalg_ext.arg_compare over one dim with an
// index_base (indices reported from 100); the input (5 values there) is an argument here,
// of a prime length.
func.func @main(%in: tensor<4099xf32>) -> (tensor<f32>, tensor<i32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %base = arith.constant 100 : index
  %ev = tensor.empty() : tensor<f32>
  %ei = tensor.empty() : tensor<i32>
  %v0 = linalg.fill ins(%neg_inf : f32) outs(%ev : tensor<f32>) -> tensor<f32>
  %i0 = linalg.fill ins(%c0 : i32) outs(%ei : tensor<i32>) -> tensor<i32>
  %r:2 = iree_linalg_ext.arg_compare dimension(0) ins(%in : tensor<4099xf32>)
      outs(%v0, %i0 : tensor<f32>, tensor<i32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<f32>, tensor<i32>
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}
