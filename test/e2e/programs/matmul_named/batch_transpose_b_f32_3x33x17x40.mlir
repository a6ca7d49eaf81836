// `linalg.batch_matmul_transpose_b` as IREE before 3.13 spelled it (attention's Q x K^T):
// batch 3, tails on M, N and K.
func.func @main(%a: tensor<3x33x40xf32>, %b: tensor<3x17x40xf32>) -> tensor<3x33x17xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33x17xf32>) -> tensor<3x33x17xf32>
  %r = linalg.batch_matmul_transpose_b ins(%a, %b : tensor<3x33x40xf32>, tensor<3x17x40xf32>) outs(%z : tensor<3x33x17xf32>) -> tensor<3x33x17xf32>
  return %r : tensor<3x33x17xf32>
}
