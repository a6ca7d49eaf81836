// 64x64x8191 f32: 8191 is prime, so no chunks of K are views of the operands; the split
// leaves it alone and ldsopt-matmul-lds takes it whole.
func.func @main(%a: tensor<64x8191xf32>, %b: tensor<8191x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x8191xf32>, tensor<8191x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
