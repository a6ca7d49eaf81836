// Attention's P V as an eager export computes it: a batch matmul of two heads whose M (the
// queries) and K (the keys, P stored [queries, keys]: K contiguous) are dynamic, each its own
// extent (run at different values); V [keys, 16].
func.func @main(%p: tensor<2x?x?xf32>, %v: tensor<2x?x16xf32>) -> tensor<2x?x16xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %p, %c1 : tensor<2x?x?xf32>
  %e = tensor.empty(%m) : tensor<2x?x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
  %mm = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x16xf32>) outs(%acc : tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
  return %mm : tensor<2x?x16xf32>
}
