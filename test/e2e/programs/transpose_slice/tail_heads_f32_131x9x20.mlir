// K of a [131, 9 heads, 20] projection (heads 3..5, 60 elements in, rows 180 apart) plus a
// per-head bias, heads-major and transposed: [131, 3, 20] -> [3, 20, 131]. 131 is prime, so
// the output's rows end in a tail in every tile; the slice's rows start 4-aligned (vector<4>).
func.func @main(%x: tensor<131x9x20xf32>, %bias: tensor<3x20xf32>) -> tensor<3x20x131xf32> {
  %s = tensor.extract_slice %x[0, 3, 0] [131, 3, 20] [1, 1, 1] : tensor<131x9x20xf32> to tensor<131x3x20xf32>
  %e = tensor.empty() : tensor<3x20x131xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d1, d2, d0)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<131x3x20xf32>, tensor<3x20xf32>) outs(%e : tensor<3x20x131xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %y = arith.addf %in, %b : f32
    linalg.yield %y : f32
  } -> tensor<3x20x131xf32>
  return %t : tensor<3x20x131xf32>
}
