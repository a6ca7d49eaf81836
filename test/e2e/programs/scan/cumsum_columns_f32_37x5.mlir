// A prefix sum down the columns (the scanned dim outermost: strided), 37 rows over 32 threads.
func.func @main(%x: tensor<37x5xf32>) -> (tensor<37x5xf32>, tensor<5xf32>) {
  %init = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x5xf32>
  %ea = tensor.empty() : tensor<5xf32>
  %o = linalg.fill ins(%init : f32) outs(%e : tensor<37x5xf32>) -> tensor<37x5xf32>
  %a = linalg.fill ins(%init : f32) outs(%ea : tensor<5xf32>) -> tensor<5xf32>
  %r:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<37x5xf32>) outs(%o, %a : tensor<37x5xf32>, tensor<5xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<37x5xf32>, tensor<5xf32>
  return %r#0, %r#1 : tensor<37x5xf32>, tensor<5xf32>
}
