// linalg.softmax over rows of one element: IREE keeps the max, sum and divide generics in one dispatch.
func.func @main(%x: tensor<33x1xf32>) -> tensor<33x1xf32> {
  %e = tensor.empty() : tensor<33x1xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<33x1xf32>) outs(%e : tensor<33x1xf32>) -> tensor<33x1xf32>
  return %r : tensor<33x1xf32>
}
