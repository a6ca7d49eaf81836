// Attention's scores Q K^T as an eager export computes them: a batch matmul of two heads whose
// M (the queries) and N (the keys, K^T stored [d, keys]: N contiguous) are dynamic, each its
// own extent (run at different values), scaled by 1/sqrt(16) in a fused consumer.
#out = affine_map<(b, m, n) -> (b, m, n)>
func.func @main(%q: tensor<2x?x16xf32>, %kt: tensor<2x16x?xf32>) -> tensor<2x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.25 : f32
  %m = tensor.dim %q, %c1 : tensor<2x?x16xf32>
  %n = tensor.dim %kt, %c2 : tensor<2x16x?xf32>
  %e = tensor.empty(%m, %n) : tensor<2x?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %mm = linalg.batch_matmul ins(%q, %kt : tensor<2x?x16xf32>, tensor<2x16x?xf32>) outs(%acc : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %y = linalg.generic {indexing_maps = [#out, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<2x?x?xf32>) outs(%e : tensor<2x?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %scale : f32
    linalg.yield %s : f32
  } -> tensor<2x?x?xf32>
  return %y : tensor<2x?x?xf32>
}
