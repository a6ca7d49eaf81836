// A prefix sum of i32 along the middle dim of 517 (a prime: the last thread's chunk short).
func.func @main(%x: tensor<2x517x3xi32>) -> (tensor<2x517x3xi32>, tensor<2x3xi32>) {
  %init = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x517x3xi32>
  %ea = tensor.empty() : tensor<2x3xi32>
  %o = linalg.fill ins(%init : i32) outs(%e : tensor<2x517x3xi32>) -> tensor<2x517x3xi32>
  %a = linalg.fill ins(%init : i32) outs(%ea : tensor<2x3xi32>) -> tensor<2x3xi32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<2x517x3xi32>) outs(%o, %a : tensor<2x517x3xi32>, tensor<2x3xi32>) {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    iree_linalg_ext.yield %s : i32
  } -> tensor<2x517x3xi32>, tensor<2x3xi32>
  return %r#0, %r#1 : tensor<2x517x3xi32>, tensor<2x3xi32>
}
