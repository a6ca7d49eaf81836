// linalg.softmax on f16 (computed in f16, as the op says) over rows of one element.
func.func @main(%x: tensor<33x1xf16>) -> tensor<33x1xf16> {
  %e = tensor.empty() : tensor<33x1xf16>
  %r = linalg.softmax dimension(1) ins(%x : tensor<33x1xf16>) outs(%e : tensor<33x1xf16>) -> tensor<33x1xf16>
  return %r : tensor<33x1xf16>
}
