// 64x64x8190 f16 (8190 = 5 x 1638: chunks of K that no K step divides) + bias + cast to f16:
// the bias and the cast apply once, to the sum of the partials.
func.func @main(%a: tensor<64x8190xf16>, %b: tensor<8190x64xf16>, %bias: tensor<64xf32>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x8190xf16>, tensor<8190x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e16 = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e16 : tensor<64x64xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.addf %x, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}
