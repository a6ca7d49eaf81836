// NN f32: batch_matmul, odd sizes.
func.func @main(%a: tensor<3x33x70xf32>, %b: tensor<3x70x17xf32>) -> tensor<3x33x17xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33x17xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x33x17xf32>) -> tensor<3x33x17xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x33x70xf32>, tensor<3x70x17xf32>) outs(%f : tensor<3x33x17xf32>) -> tensor<3x33x17xf32>
  return %r : tensor<3x33x17xf32>
}
