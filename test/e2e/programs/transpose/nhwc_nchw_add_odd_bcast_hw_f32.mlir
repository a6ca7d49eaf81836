// Odd extents with a third input broadcast over N and C (indexed by h, w only).
func.func @main(%a0: tensor<3x7x7x1009xf32>, %a1: tensor<3x1009x7x7xf32>, %a2: tensor<7x7xf32>) -> tensor<3x1009x7x7xf32> {
  %e = tensor.empty() : tensor<3x1009x7x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1, %a2 : tensor<3x7x7x1009xf32>, tensor<3x1009x7x7xf32>, tensor<7x7xf32>) outs(%e : tensor<3x1009x7x7xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    %z = arith.mulf %y, %in2 : f32
    linalg.yield %z : f32
  } -> tensor<3x1009x7x7xf32>
  return %r : tensor<3x1009x7x7xf32>
}
