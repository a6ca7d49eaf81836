// Primes: N = 13, HW = 7, C = 1009: both contiguous extents odd, so no vector divides a row (ragged tiles both ways).
func.func @main(%a0: tensor<13x1x7x1009xf32>, %a1: tensor<13x1009x1x7xf32>) -> tensor<13x1009x1x7xf32> {
  %e = tensor.empty() : tensor<13x1009x1x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<13x1x7x1009xf32>, tensor<13x1009x1x7xf32>) outs(%e : tensor<13x1009x1x7xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<13x1009x1x7xf32>
  return %r : tensor<13x1009x1x7xf32>
}
