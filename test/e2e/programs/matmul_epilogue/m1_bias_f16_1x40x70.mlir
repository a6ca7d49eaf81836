// M = 1 (a matrix-vector product), ragged N and K, f16 operands, + a row bias, f16 out.
func.func @main(%a: tensor<1x70xf16>, %b: tensor<70x40xf16>, %bias: tensor<40xf32>) -> tensor<1x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40xf32>) -> tensor<1x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<1x70xf16>, tensor<70x40xf16>) outs(%z : tensor<1x40xf32>) -> tensor<1x40xf32>
  %e16 = tensor.empty() : tensor<1x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<1x40xf32>, tensor<40xf32>) outs(%e16 : tensor<1x40xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.addf %x, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x40xf16>
  return %r : tensor<1x40xf16>
}
