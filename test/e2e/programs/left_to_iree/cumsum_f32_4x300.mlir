// torch.cumsum(x, dim=1) of x [4, 300], as iree-turbine's export lowers it: an
// iree_linalg_ext.scan, which no ldsopt pass takes; IREE's pipeline lowers it.
func.func @main(%x: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x300xf32>
  %ea = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x300xf32>) outs(%e, %acc : tensor<4x300xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4x300xf32>, tensor<4xf32>
  return %r#0 : tensor<4x300xf32>
}
