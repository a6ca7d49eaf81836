// RoBERTa's position ids: a prefix sum of i64 over 9 tokens.
func.func @main(%x: tensor<1x9xi64>) -> (tensor<1x9xi64>, tensor<1xi64>) {
  %init = arith.constant 0 : i64
  %e = tensor.empty() : tensor<1x9xi64>
  %ea = tensor.empty() : tensor<1xi64>
  %o = linalg.fill ins(%init : i64) outs(%e : tensor<1x9xi64>) -> tensor<1x9xi64>
  %a = linalg.fill ins(%init : i64) outs(%ea : tensor<1xi64>) -> tensor<1xi64>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<1x9xi64>) outs(%o, %a : tensor<1x9xi64>, tensor<1xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    iree_linalg_ext.yield %s : i64
  } -> tensor<1x9xi64>, tensor<1xi64>
  return %r#0, %r#1 : tensor<1x9xi64>, tensor<1xi64>
}
