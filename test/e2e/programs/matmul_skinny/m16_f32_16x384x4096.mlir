// M = 16 (one skinny tile high), f32, K = 4096.
func.func @main(%a: tensor<16x4096xf32>, %b: tensor<4096x384xf32>) -> tensor<16x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x384xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x384xf32>) -> tensor<16x384xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x4096xf32>, tensor<4096x384xf32>) outs(%z : tensor<16x384xf32>) -> tensor<16x384xf32>
  return %r : tensor<16x384xf32>
}
