// NT bf16, tails on M, N and K.
// The product's f32 result is large (a grid of 2 waves of 128x256 tiles on the H200's 132 SMs
// at least: ldsopt-dtl-layout's large-grid plan on CUDA); the program returns its rows weighted
// by w, so that what is checked stays small while every element of the product counts.
func.func @main(%a: tensor<3000x136xbf16>, %b: tensor<2900x136xbf16>, %w: tensor<2900xf32>) -> tensor<3000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3000x2900xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3000x2900xf32>) -> tensor<3000x2900xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3000x136xbf16>, tensor<2900x136xbf16>) outs(%f : tensor<3000x2900xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3000x2900xf32>
  %e2 = tensor.empty() : tensor<3000xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3000xf32>) -> tensor<3000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<3000x2900xf32>, tensor<2900xf32>) outs(%f2 : tensor<3000xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3000xf32>
  return %r : tensor<3000xf32>
}
