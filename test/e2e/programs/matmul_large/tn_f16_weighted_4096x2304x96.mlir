// TN f16, whole tiles, a K of exactly the pipeline's 3 steps.
// The product's f32 result is large (a grid of 2 waves of 128x256 tiles on the H200's 132 SMs
// at least: ldsopt-dtl-layout's large-grid plan on CUDA); the program returns its rows weighted
// by w, so that what is checked stays small while every element of the product counts.
func.func @main(%a: tensor<96x4096xf16>, %b: tensor<96x2304xf16>, %w: tensor<2304xf32>) -> tensor<4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x2304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x2304xf32>) -> tensor<4096x2304xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<96x4096xf16>, tensor<96x2304xf16>) outs(%f : tensor<4096x2304xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4096x2304xf32>
  %e2 = tensor.empty() : tensor<4096xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<4096x2304xf32>, tensor<2304xf32>) outs(%f2 : tensor<4096xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
