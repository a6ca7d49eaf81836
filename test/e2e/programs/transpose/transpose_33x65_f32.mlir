// A plain 2-D transpose with ragged extents on both dims.
func.func @main(%a0: tensor<33x65xf32>) -> tensor<65x33xf32> {
  %e = tensor.empty() : tensor<65x33xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a0 : tensor<33x65xf32>) outs(%e : tensor<65x33xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %y = arith.negf %in0 : f32
    linalg.yield %y : f32
  } -> tensor<65x33xf32>
  return %r : tensor<65x33xf32>
}
