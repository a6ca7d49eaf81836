// `linalg.matmul` of i8 operands into i32 (its default cast sign-extends both), NN: tails on
// M, N and K.
func.func @main(%a: tensor<33x70xi8>, %b: tensor<70x17xi8>) -> tensor<33x17xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<33x17xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<33x17xi32>) -> tensor<33x17xi32>
  %r = linalg.matmul ins(%a, %b : tensor<33x70xi8>, tensor<70x17xi8>) outs(%z : tensor<33x17xi32>) -> tensor<33x17xi32>
  return %r : tensor<33x17xi32>
}
