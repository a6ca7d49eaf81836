// 3-D permutation (0, 2, 1) with ragged extents 33 and 17.
func.func @main(%a0: tensor<4x33x17xf32>) -> tensor<4x17x33xf32> {
  %e = tensor.empty() : tensor<4x17x33xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a0 : tensor<4x33x17xf32>) outs(%e : tensor<4x17x33xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %y = math.exp %in0 : f32
    linalg.yield %y : f32
  } -> tensor<4x17x33xf32>
  return %r : tensor<4x17x33xf32>
}
