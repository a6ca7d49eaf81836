// NHWC + per-channel bias + NCHW -> NCHW: the bias is broadcast from global.
func.func @main(%a0: tensor<2x5x6x32xf32>, %a1: tensor<32xf32>, %a2: tensor<2x32x5x6xf32>) -> tensor<2x32x5x6xf32> {
  %e = tensor.empty() : tensor<2x32x5x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1, %a2 : tensor<2x5x6x32xf32>, tensor<32xf32>, tensor<2x32x5x6xf32>) outs(%e : tensor<2x32x5x6xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %out: f32):
    %s = arith.addf %in0, %in1 : f32
    %y = arith.addf %s, %in2 : f32
    linalg.yield %y : f32
  } -> tensor<2x32x5x6xf32>
  return %r : tensor<2x32x5x6xf32>
}
