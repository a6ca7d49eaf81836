// A prefix product (torch.cumprod) of 13 along rows.
func.func @main(%x: tensor<4x13xf32>) -> (tensor<4x13xf32>, tensor<4xf32>) {
  %init = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x13xf32>
  %ea = tensor.empty() : tensor<4xf32>
  %o = linalg.fill ins(%init : f32) outs(%e : tensor<4x13xf32>) -> tensor<4x13xf32>
  %a = linalg.fill ins(%init : f32) outs(%ea : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x13xf32>) outs(%o, %a : tensor<4x13xf32>, tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.mulf %p, %q : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4x13xf32>, tensor<4xf32>
  return %r#0, %r#1 : tensor<4x13xf32>, tensor<4xf32>
}
