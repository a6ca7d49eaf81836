// Two NHWC inputs -> NCHW: the output is the odd one out and is stored through LDS.
func.func @main(%a0: tensor<2x8x8x32xf32>, %a1: tensor<2x8x8x32xf32>) -> tensor<2x32x8x8xf32> {
  %e = tensor.empty() : tensor<2x32x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<2x8x8x32xf32>, tensor<2x8x8x32xf32>) outs(%e : tensor<2x32x8x8xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.mulf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x32x8x8xf32>
  return %r : tensor<2x32x8x8xf32>
}
