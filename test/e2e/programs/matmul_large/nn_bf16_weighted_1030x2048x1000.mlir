// NN bf16 with tails on M (1030 = 8.05 x 128) and K (1000 = 15.6 x 64), N in whole tiles
// (2048): on sm_90a the wgmma scheme with B [k, n] held MN-major (wgmma transposes it), copied
// by TMA in boxes of 64 columns; the rows weighted by w keep the check small while every
// element of the product counts.
func.func @main(%a: tensor<1030x1000xbf16>, %b: tensor<1000x2048xbf16>, %w: tensor<2048xf32>) -> tensor<1030xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1030x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1030x2048xf32>) -> tensor<1030x2048xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<1030x1000xbf16>, tensor<1000x2048xbf16>) outs(%f : tensor<1030x2048xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1030x2048xf32>
  %e2 = tensor.empty() : tensor<1030xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1030xf32>) -> tensor<1030xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<1030x2048xf32>, tensor<2048xf32>) outs(%f2 : tensor<1030xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1030xf32>
  return %r : tensor<1030xf32>
}
