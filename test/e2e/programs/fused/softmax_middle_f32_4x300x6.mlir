// linalg.softmax over the middle dim, as IREE decomposes it: reductions over loop 1 of 3, the rows
// (4 x 6 of them) strided by 6 in memory (fused strided rows).
func.func @main(%x: tensor<4x300x6xf32>) -> tensor<4x300x6xf32> {
  %e = tensor.empty() : tensor<4x300x6xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x300x6xf32>) outs(%e : tensor<4x300x6xf32>) -> tensor<4x300x6xf32>
  return %r : tensor<4x300x6xf32>
}
