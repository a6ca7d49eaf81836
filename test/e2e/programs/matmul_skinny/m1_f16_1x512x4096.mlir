// M = 1 (a matrix-vector product: one token through a linear layer), f16 operands, f32 accumulation.
func.func @main(%a: tensor<1x4096xf16>, %b: tensor<4096x512xf16>) -> tensor<1x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x512xf32>) -> tensor<1x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x4096xf16>, tensor<4096x512xf16>) outs(%z : tensor<1x512xf32>) -> tensor<1x512xf32>
  return %r : tensor<1x512xf32>
}
