// N = 1 (a matrix times a column vector), f32.
func.func @main(%a: tensor<512x1000xf32>, %b: tensor<1000x1xf32>) -> tensor<512x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x1xf32>) -> tensor<512x1xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x1000xf32>, tensor<1000x1xf32>) outs(%z : tensor<512x1xf32>) -> tensor<512x1xf32>
  return %r : tensor<512x1xf32>
}
