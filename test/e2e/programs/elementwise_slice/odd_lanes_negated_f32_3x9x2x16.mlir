// GPT-J's rotary half: every second element of the first 8 of each 16 (`x[..., 1:9:2]`),
// negated. IREE loads the slice at steps [1, 1, 1, 2] in the dispatch; ldsopt-lower-elementwise
// reads it through a subview of those steps, one element at a time.
func.func @main(%x: tensor<3x9x2x16xf32>) -> tensor<3x9x2x4xf32> {
  %s = tensor.extract_slice %x[0, 0, 0, 1] [3, 9, 2, 4] [1, 1, 1, 2] : tensor<3x9x2x16xf32> to tensor<3x9x2x4xf32>
  %e = tensor.empty() : tensor<3x9x2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x9x2x4xf32>) outs(%e : tensor<3x9x2x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<3x9x2x4xf32>
  return %r : tensor<3x9x2x4xf32>
}
