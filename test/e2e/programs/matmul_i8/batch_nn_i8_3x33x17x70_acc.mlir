// `linalg.batch_matmul` of i8 into i32 accumulating into a loaded tensor (C += A x B): batch
// 3, tails on M, N and K.
func.func @main(%a: tensor<3x33x70xi8>, %b: tensor<3x70x17xi8>, %c: tensor<3x33x17xi32>) -> tensor<3x33x17xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x33x70xi8>, tensor<3x70x17xi8>) outs(%c : tensor<3x33x17xi32>) -> tensor<3x33x17xi32>
  return %r : tensor<3x33x17xi32>
}
