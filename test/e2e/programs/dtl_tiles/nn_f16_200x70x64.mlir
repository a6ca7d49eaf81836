// NN f16 for a 192x64 tile (tiles=192x64x3x4: 1024 threads, 3 chunks of A each), tails on M and N.
func.func @main(%a: tensor<200x64xf16>, %b: tensor<64x70xf16>) -> tensor<200x70xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x70xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<200x70xf32>) -> tensor<200x70xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<200x64xf16>, tensor<64x70xf16>) outs(%f : tensor<200x70xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<200x70xf32>
  return %r : tensor<200x70xf32>
}
