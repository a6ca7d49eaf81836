// Rank 6: dims (0 1 2 3 4 5) -> (2 0 4 1 3 5), the fastest dim kept, plus a broadcast operand over
// the two fastest dims of the output.
func.func @main(%x: tensor<2x3x4x5x2x8xf32>, %b: tensor<5x8xf32>) -> tensor<4x2x2x3x5x8xf32> {
  %e = tensor.empty() : tensor<4x2x2x3x5x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d3, d0, d4, d2, d5)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<2x3x4x5x2x8xf32>, tensor<5x8xf32>) outs(%e : tensor<4x2x2x3x5x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.subf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<4x2x2x3x5x8xf32>
  return %y : tensor<4x2x2x3x5x8xf32>
}
