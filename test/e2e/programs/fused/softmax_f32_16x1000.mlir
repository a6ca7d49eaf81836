// linalg.softmax: max, sum of exp(x - max) and the divide in one dispatch; 250 vectors of 4 a row.
func.func @main(%x: tensor<16x1000xf32>) -> tensor<16x1000xf32> {
  %e = tensor.empty() : tensor<16x1000xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<16x1000xf32>) outs(%e : tensor<16x1000xf32>) -> tensor<16x1000xf32>
  return %r : tensor<16x1000xf32>
}
