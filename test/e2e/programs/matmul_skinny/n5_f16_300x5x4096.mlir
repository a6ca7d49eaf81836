// N = 5, ragged M, f16 operands, f32 accumulation, K = 4096.
func.func @main(%a: tensor<300x4096xf16>, %b: tensor<4096x5xf16>) -> tensor<300x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<300x5xf32>) -> tensor<300x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<300x4096xf16>, tensor<4096x5xf16>) outs(%z : tensor<300x5xf32>) -> tensor<300x5xf32>
  return %r : tensor<300x5xf32>
}
