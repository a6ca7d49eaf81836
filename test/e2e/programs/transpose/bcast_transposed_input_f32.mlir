// A broadcast input that is itself transposed (W x H over NCHW) through LDS.
func.func @main(%a0: tensor<24x16xf32>, %a1: tensor<2x3x16x24xf32>) -> tensor<2x3x16x24xf32> {
  %e = tensor.empty() : tensor<2x3x16x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<24x16xf32>, tensor<2x3x16x24xf32>) outs(%e : tensor<2x3x16x24xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.subf %in1, %in0 : f32
    linalg.yield %y : f32
  } -> tensor<2x3x16x24xf32>
  return %r : tensor<2x3x16x24xf32>
}
