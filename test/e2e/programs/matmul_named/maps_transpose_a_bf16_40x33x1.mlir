// `linalg.matmul` with indexing_maps, A transposed (K x M), as IREE 3.13 spells
// `matmul_transpose_a`: K = 1, bf16 operands, f32 result.
func.func @main(%a: tensor<1x40xbf16>, %b: tensor<1x33xbf16>) -> tensor<40x33xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x33xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<40x33xf32>) -> tensor<40x33xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<1x40xbf16>, tensor<1x33xbf16>) outs(%z : tensor<40x33xf32>) -> tensor<40x33xf32>
  return %r : tensor<40x33xf32>
}
