// Two NHWC inputs -> NCHW with HW = 49, stored through LDS.
func.func @main(%a0: tensor<2x7x7x64xf32>, %a1: tensor<2x7x7x64xf32>) -> tensor<2x64x7x7xf32> {
  %e = tensor.empty() : tensor<2x64x7x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<2x7x7x64xf32>, tensor<2x7x7x64xf32>) outs(%e : tensor<2x64x7x7xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x64x7x7xf32>
  return %r : tensor<2x64x7x7xf32>
}
