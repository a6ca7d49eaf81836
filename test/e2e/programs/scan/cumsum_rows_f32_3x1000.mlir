// A prefix sum along rows of 1000 (4 elements a thread of 256), with each row's total.
func.func @main(%x: tensor<3x1000xf32>) -> (tensor<3x1000xf32>, tensor<3xf32>) {
  %init = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x1000xf32>
  %ea = tensor.empty() : tensor<3xf32>
  %o = linalg.fill ins(%init : f32) outs(%e : tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %a = linalg.fill ins(%init : f32) outs(%ea : tensor<3xf32>) -> tensor<3xf32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<3x1000xf32>) outs(%o, %a : tensor<3x1000xf32>, tensor<3xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<3x1000xf32>, tensor<3xf32>
  return %r#0, %r#1 : tensor<3x1000xf32>, tensor<3xf32>
}
