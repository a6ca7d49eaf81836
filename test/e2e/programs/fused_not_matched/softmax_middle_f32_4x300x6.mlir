// linalg.softmax over the middle dim: the fused rows need the reduced dims trailing, IREE keeps it.
func.func @main(%x: tensor<4x300x6xf32>) -> tensor<4x300x6xf32> {
  %e = tensor.empty() : tensor<4x300x6xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x300x6xf32>) outs(%e : tensor<4x300x6xf32>) -> tensor<4x300x6xf32>
  return %r : tensor<4x300x6xf32>
}
