// Prime channel count 1009 and HW = 21: ragged tiles on both tiled dims.
func.func @main(%a0: tensor<1x7x3x1009xf32>, %a1: tensor<1x1009x7x3xf32>) -> tensor<1x1009x7x3xf32> {
  %e = tensor.empty() : tensor<1x1009x7x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<1x7x3x1009xf32>, tensor<1x1009x7x3xf32>) outs(%e : tensor<1x1009x7x3xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<1x1009x7x3xf32>
  return %r : tensor<1x1009x7x3xf32>
}
