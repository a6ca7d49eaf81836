// A running maximum along dim 1 of x [4, 300], as an iree_linalg_ext.scan of arith.maximumf:
// ldsopt-lower-scan takes sums and products only, and no other pass takes a scan; IREE's
// pipeline lowers it.
func.func @main(%x: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %low = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x300xf32>
  %ea = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%low : f32) outs(%ea : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x300xf32>) outs(%e, %acc : tensor<4x300xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maximumf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4x300xf32>, tensor<4xf32>
  return %r#0 : tensor<4x300xf32>
}
