// `linalg.batch_matmul` with indexing_maps, B transposed (as IREE 3.13 spells
// `batch_matmul_transpose_b`): batch 3, M = 1, f16 operands, f32 accumulation, scaled and
// cast to f16.
func.func @main(%a: tensor<3x1x70xf16>, %b: tensor<3x40x70xf16>) -> tensor<3x1x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x1x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x1x40xf32>) -> tensor<3x1x40xf32>
  %mm = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<3x1x70xf16>, tensor<3x40x70xf16>) outs(%z : tensor<3x1x40xf32>) -> tensor<3x1x40xf32>
  %e16 = tensor.empty() : tensor<3x1x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<3x1x40xf32>) outs(%e16 : tensor<3x1x40xf16>) {
  ^bb0(%x: f32, %o: f16):
    %s = arith.constant 0.125 : f32
    %y = arith.mulf %x, %s : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x1x40xf16>
  return %r : tensor<3x1x40xf16>
}
