// `linalg.matmul` of i8 into i32, NN, at a size whose tiles divide it (no guards): the largest
// tiling the plan takes on lavapipe.
func.func @main(%a: tensor<128x128xi8>, %b: tensor<128x256xi8>) -> tensor<128x256xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<128x256xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<128x256xi32>) -> tensor<128x256xi32>
  %r = linalg.matmul ins(%a, %b : tensor<128x128xi8>, tensor<128x256xi8>) outs(%z : tensor<128x256xi32>) -> tensor<128x256xi32>
  return %r : tensor<128x256xi32>
}
