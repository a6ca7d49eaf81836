// Softmax over a dynamic count of rows of 1000 (a serving batch x sequence).
func.func @main(%in: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x1000xf32>
  %out = tensor.empty(%n) : tensor<?x1000xf32>
  %sm = linalg.softmax dimension(1) ins(%in : tensor<?x1000xf32>) outs(%out : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %sm : tensor<?x1000xf32>
}
