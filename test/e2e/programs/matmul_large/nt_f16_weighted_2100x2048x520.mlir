// NT f16 with tails on M (2100 = 16.4 x 128) and K (520 = 8.1 x 64), N in whole tiles
// (2048): on sm_90a the wgmma scheme, both operands K-contiguous and copied by TMA, a grid of
// several waves on the H200, K long enough for its pipeline of 4 LDS tiles to wrap; the rows
// weighted by w keep the check small while every element of the product counts.
func.func @main(%a: tensor<2100x520xf16>, %b: tensor<2048x520xf16>, %w: tensor<2048xf32>) -> tensor<2100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2100x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2100x2048xf32>) -> tensor<2100x2048xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2100x520xf16>, tensor<2048x520xf16>) outs(%f : tensor<2100x2048xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2100x2048xf32>
  %e2 = tensor.empty() : tensor<2100xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2100xf32>) -> tensor<2100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<2100x2048xf32>, tensor<2048xf32>) outs(%f2 : tensor<2100xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2100xf32>
  return %r : tensor<2100xf32>
}
