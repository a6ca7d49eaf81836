// Scores of a causal attention as eager PyTorch computes them: q k^T, then -10000 where the
// key comes after the query (its position, linalg.index), fused as the product's epilogue.
func.func @main(%q: tensor<37x64xf32>, %k: tensor<45x64xf32>) -> tensor<37x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul_transpose_b ins(%q, %k : tensor<37x64xf32>, tensor<45x64xf32>) outs(%f : tensor<37x45xf32>) -> tensor<37x45xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e : tensor<37x45xf32>) {
    ^bb0(%v: f32, %out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %later = arith.cmpi ugt, %j, %i : index
      %masked = arith.constant -10000.0 : f32
      %y = arith.select %later, %masked, %v : f32
      linalg.yield %y : f32
  } -> tensor<37x45xf32>
  return %r : tensor<37x45xf32>
}
