// Batch NT bf16 with tails on M (520 = 4.06 x 128) and K (520 = 8.1 x 64), N whole tiles
// (2048): on sm_90a the wgmma scheme copying its operands by TMA, the batch a third dim of
// each tensor map (a box of one along it); the rows weighted by w keep the check small.
func.func @main(%a: tensor<2x520x520xbf16>, %b: tensor<2x2048x520xbf16>, %w: tensor<2048xf32>) -> tensor<2x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x520x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x520x2048xf32>) -> tensor<2x520x2048xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x520x520xbf16>, tensor<2x2048x520xbf16>) outs(%f : tensor<2x520x2048xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x520x2048xf32>
  %e2 = tensor.empty() : tensor<2x520xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x520xf32>) -> tensor<2x520xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c, %w : tensor<2x520x2048xf32>, tensor<2048xf32>) outs(%f2 : tensor<2x520xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x520xf32>
  return %r : tensor<2x520xf32>
}
