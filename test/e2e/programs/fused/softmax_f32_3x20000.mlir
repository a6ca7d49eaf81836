// linalg.softmax over rows of 20000: 5000 vectors of 4, 20 a thread, too many to keep: each sweep reads the row again.
func.func @main(%x: tensor<3x20000xf32>) -> tensor<3x20000xf32> {
  %e = tensor.empty() : tensor<3x20000xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x20000xf32>) outs(%e : tensor<3x20000xf32>) -> tensor<3x20000xf32>
  return %r : tensor<3x20000xf32>
}
