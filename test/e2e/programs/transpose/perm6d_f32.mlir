// 6-D permutation mixing collapsible pairs.
func.func @main(%a0: tensor<2x3x5x3x2x4xf32>, %a1: tensor<2x3x2x4x3x5xf32>) -> tensor<2x3x2x4x3x5xf32> {
  %e = tensor.empty() : tensor<2x3x2x4x3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d4, d5, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<2x3x5x3x2x4xf32>, tensor<2x3x2x4x3x5xf32>) outs(%e : tensor<2x3x2x4x3x5xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x3x2x4x3x5xf32>
  return %r : tensor<2x3x2x4x3x5xf32>
}
