// The frequencies of transformers' Llama RoPE (LlamaRotaryEmbedding): inverse frequencies [1, 8, 1]
// times positions [1, 1, 16], a K of one that ldsopt-window-reduce takes as a window of one
// point, stored transposed to [16, 1, 8] by the consumer IREE fuses into the dispatch. The
// consumer stores the output's innermost dim (16) along another, so its values are not vectors
// along it (a store of 4 along the 8 scattered the frequencies: 3.4x off, through RoPE).
func.func @main(%f: tensor<1x8x1xf32>, %p: tensor<1x1x16xf32>) -> tensor<16x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %mm = linalg.batch_matmul ins(%f, %p : tensor<1x8x1xf32>, tensor<1x1x16xf32>) outs(%z : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %et = tensor.empty() : tensor<16x1x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<1x8x16xf32>) outs(%et : tensor<16x1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x1x8xf32>
  return %t : tensor<16x1x8xf32>
}
