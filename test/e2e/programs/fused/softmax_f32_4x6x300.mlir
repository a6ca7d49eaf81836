// linalg.softmax over the last of three dims: rows of 300 under two parallel dims.
func.func @main(%x: tensor<4x6x300xf32>) -> tensor<4x6x300xf32> {
  %e = tensor.empty() : tensor<4x6x300xf32>
  %r = linalg.softmax dimension(2) ins(%x : tensor<4x6x300xf32>) outs(%e : tensor<4x6x300xf32>) -> tensor<4x6x300xf32>
  return %r : tensor<4x6x300xf32>
}
