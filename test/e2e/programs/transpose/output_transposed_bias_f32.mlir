// Two NHWC inputs and a per-channel bias -> NCHW, ragged (C = 19, HW = 15).
func.func @main(%a0: tensor<3x3x5x19xf32>, %a1: tensor<19xf32>, %a2: tensor<3x3x5x19xf32>) -> tensor<3x19x3x5xf32> {
  %e = tensor.empty() : tensor<3x19x3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1, %a2 : tensor<3x3x5x19xf32>, tensor<19xf32>, tensor<3x3x5x19xf32>) outs(%e : tensor<3x19x3x5xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %out: f32):
    %s = arith.addf %in0, %in1 : f32
    %y = arith.mulf %s, %in2 : f32
    linalg.yield %y : f32
  } -> tensor<3x19x3x5xf32>
  return %r : tensor<3x19x3x5xf32>
}
