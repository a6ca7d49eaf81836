// 5-D reversal: no dims collapse.
func.func @main(%a0: tensor<6x5x4x2x3xf32>) -> tensor<3x2x4x5x6xf32> {
  %e = tensor.empty() : tensor<3x2x4x5x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d4, d3, d2, d1, d0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%a0 : tensor<6x5x4x2x3xf32>) outs(%e : tensor<3x2x4x5x6xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %y = arith.negf %in0 : f32
    linalg.yield %y : f32
  } -> tensor<3x2x4x5x6xf32>
  return %r : tensor<3x2x4x5x6xf32>
}
