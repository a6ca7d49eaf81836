// `linalg.contract` with both operands transposed (A as K x M, B as N x K), f16 operands, f32
// accumulation, + a column bias (over m) and the cast to f16 fused after it.
func.func @main(%a: tensor<70x17xf16>, %b: tensor<24x70xf16>, %bias: tensor<17xf32>) -> tensor<17x24xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<17x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<17x24xf32>) -> tensor<17x24xf32>
  %mm = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<70x17xf16>, tensor<24x70xf16>) outs(%z : tensor<17x24xf32>) -> tensor<17x24xf32>
  %e16 = tensor.empty() : tensor<17x24xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<17x24xf32>, tensor<17xf32>) outs(%e16 : tensor<17x24xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.addf %x, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<17x24xf16>
  return %r : tensor<17x24xf16>
}
