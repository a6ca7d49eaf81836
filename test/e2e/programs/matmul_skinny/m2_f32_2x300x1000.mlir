// M = 2, ragged N, f32.
func.func @main(%a: tensor<2x1000xf32>, %b: tensor<1000x300xf32>) -> tensor<2x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x300xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x300xf32>) -> tensor<2x300xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x1000xf32>, tensor<1000x300xf32>) outs(%z : tensor<2x300xf32>) -> tensor<2x300xf32>
  return %r : tensor<2x300xf32>
}
