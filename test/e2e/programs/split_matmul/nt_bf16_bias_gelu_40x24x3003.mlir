// bf16 NT, 3003 = 7 x 429, + a bias over n and GELU (erf) in f32, f32 out.
func.func @main(%a: tensor<40x3003xbf16>, %b: tensor<24x3003xbf16>, %bias: tensor<24xf32>) -> tensor<40x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<40x24xf32>) -> tensor<40x24xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<40x3003xbf16>, tensor<24x3003xbf16>) outs(%z : tensor<40x24xf32>) -> tensor<40x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<40x24xf32>, tensor<24xf32>) outs(%e : tensor<40x24xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.70710678118654752 : f32
    %v = arith.addf %x, %c : f32
    %u = arith.mulf %v, %rsqrt2 : f32
    %erf = math.erf %u : f32
    %w = arith.addf %erf, %one : f32
    %h = arith.mulf %v, %half : f32
    %g = arith.mulf %h, %w : f32
    linalg.yield %g : f32
  } -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
