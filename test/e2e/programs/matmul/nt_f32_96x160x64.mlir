// NT f32: B transposed (N x K): B staged K-contiguous.
func.func @main(%a: tensor<96x64xf32>, %b: tensor<160x64xf32>) -> tensor<96x160xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x160xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<96x160xf32>) -> tensor<96x160xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<96x64xf32>, tensor<160x64xf32>) outs(%f : tensor<96x160xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<96x160xf32>
  return %r : tensor<96x160xf32>
}
