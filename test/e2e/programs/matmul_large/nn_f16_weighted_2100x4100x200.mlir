// NN f16, tails on M (2100 = 16.4 x 128), N (4100 = 16.02 x 256) and K (200 = 6.25 x 32).
// The product's f32 result is large (a grid of 2 waves of 128x256 tiles on the H200's 132 SMs
// at least: ldsopt-dtl-layout's large-grid plan on CUDA); the program returns its rows weighted
// by w, so that what is checked stays small while every element of the product counts.
func.func @main(%a: tensor<2100x200xf16>, %b: tensor<200x4100xf16>, %w: tensor<4100xf32>) -> tensor<2100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2100x4100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2100x4100xf32>) -> tensor<2100x4100xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2100x200xf16>, tensor<200x4100xf16>) outs(%f : tensor<2100x4100xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2100x4100xf32>
  %e2 = tensor.empty() : tensor<2100xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2100xf32>) -> tensor<2100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<2100x4100xf32>, tensor<4100xf32>) outs(%f2 : tensor<2100xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2100xf32>
  return %r : tensor<2100xf32>
}
