// TN f32: A transposed (K x M), tails everywhere.
func.func @main(%a: tensor<65x257xf32>, %b: tensor<65x129xf32>) -> tensor<257x129xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<257x129xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<257x129xf32>) -> tensor<257x129xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<65x257xf32>, tensor<65x129xf32>) outs(%f : tensor<257x129xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<257x129xf32>
  return %r : tensor<257x129xf32>
}
