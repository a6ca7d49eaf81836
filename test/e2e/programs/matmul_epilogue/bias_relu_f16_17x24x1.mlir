// K = 1, f16 operands, f32 accumulation; bias (over n) + ReLU + truncf to f16 in one generic.
func.func @main(%a: tensor<17x1xf16>, %b: tensor<1x24xf16>, %bias: tensor<24xf32>) -> tensor<17x24xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<17x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<17x24xf32>) -> tensor<17x24xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<17x1xf16>, tensor<1x24xf16>) outs(%z : tensor<17x24xf32>) -> tensor<17x24xf32>
  %e16 = tensor.empty() : tensor<17x24xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<17x24xf32>, tensor<24xf32>) outs(%e16 : tensor<17x24xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %zero0 = arith.constant 0.0 : f32
    %y = arith.addf %x, %c : f32
    %r0 = arith.maximumf %y, %zero0 : f32
    %t = arith.truncf %r0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<17x24xf16>
  return %r : tensor<17x24xf16>
}
