// NT f16 (A: M x K, B: N x K; both K-contiguous, the TN-style operands of column-major BLAS),
// M = 160 and N = 192 (tails on the 128 / 64 tiles), 4 K steps of 32.
func.func @main(%a: tensor<160x128xf16>, %b: tensor<192x128xf16>) -> tensor<160x192xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<160x192xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<160x192xf32>) -> tensor<160x192xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<160x128xf16>, tensor<192x128xf16>) outs(%f : tensor<160x192xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<160x192xf32>
  return %r : tensor<160x192xf32>
}
