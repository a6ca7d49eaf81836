// Attention's head merge: [B,H,S,D] -> [B,S,H,D] (the input map permuted, the fastest dim kept),
// scaled; f32, prime sizes (D = 9: vectors of one element).
func.func @main(%x: tensor<3x5x11x9xf32>) -> tensor<3x11x5x9xf32> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x11x5x9xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x5x11x9xf32>) outs(%e : tensor<3x11x5x9xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %c : f32
    linalg.yield %s : f32
  } -> tensor<3x11x5x9xf32>
  return %y : tensor<3x11x5x9xf32>
}
