// A sum over the middle dim written through a permutation of the kept dims: out[c, a] =
// sum_b x[a, b, c] (rows of 77: not split).
func.func @main(%x: tensor<5x77x6xf32>) -> tensor<6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<5x77x6xf32>) outs(%f : tensor<6x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}
