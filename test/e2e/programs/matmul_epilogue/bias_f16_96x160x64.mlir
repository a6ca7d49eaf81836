// f16 operands, f32 accumulation, + an f16 row bias (over n), truncated to f16 on the way out.
func.func @main(%a: tensor<96x64xf16>, %b: tensor<64x160xf16>, %bias: tensor<160xf16>) -> tensor<96x160xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x160xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<96x160xf32>) -> tensor<96x160xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<96x64xf16>, tensor<64x160xf16>) outs(%z : tensor<96x160xf32>) -> tensor<96x160xf32>
  %e16 = tensor.empty() : tensor<96x160xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<96x160xf32>, tensor<160xf16>) outs(%e16 : tensor<96x160xf16>) {
  ^bb0(%x: f32, %c: f16, %o: f16):
    %cf = arith.extf %c : f16 to f32
    %y = arith.addf %x, %cf : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<96x160xf16>
  return %r : tensor<96x160xf16>
}
