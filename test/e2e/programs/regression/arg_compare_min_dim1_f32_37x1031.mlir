// From iree-org/iree tests/e2e/linalg_ext_ops/arg_compare.mlir (@arg_compare_2d_dim1_min):
// iree_linalg_ext.arg_compare over the rows' dim with cmpf olt; the 2x6 input is an argument
// here, 37x1031.
func.func @main(%in: tensor<37x1031xf32>) -> (tensor<37xf32>, tensor<37xi32>) {
  %pos_inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<37xf32>
  %ei = tensor.empty() : tensor<37xi32>
  %v0 = linalg.fill ins(%pos_inf : f32) outs(%ev : tensor<37xf32>) -> tensor<37xf32>
  %i0 = linalg.fill ins(%c0 : i32) outs(%ei : tensor<37xi32>) -> tensor<37xi32>
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%in : tensor<37x1031xf32>)
      outs(%v0, %i0 : tensor<37xf32>, tensor<37xi32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<37xf32>, tensor<37xi32>
  return %r#0, %r#1 : tensor<37xf32>, tensor<37xi32>
}
