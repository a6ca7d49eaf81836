// Eager BERT's K^T: a projection's [seq, 3 * heads, head_dim] output of which heads 2..3
// (the K part) are permuted heads-major and transposed, [seq, head, dim] -> [head, dim, seq].
// The dispatch reads the K part as a slice of the projection's binding.
func.func @main(%qkv: tensor<1x7x6x16xf32>) -> tensor<2x16x7xf32> {
  %k = tensor.extract_slice %qkv[0, 0, 2, 0] [1, 7, 2, 16] [1, 1, 1, 1] : tensor<1x7x6x16xf32> to tensor<7x2x16xf32>
  %e = tensor.empty() : tensor<2x16x7xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k : tensor<7x2x16xf32>) outs(%e : tensor<2x16x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x7xf32>
  return %t : tensor<2x16x7xf32>
}
