// M = 7 (a few tokens), ragged M in any tile, f16 operands, f32 accumulation.
func.func @main(%a: tensor<7x1000xf16>, %b: tensor<1000x256xf16>) -> tensor<7x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7x256xf32>) -> tensor<7x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<7x1000xf16>, tensor<1000x256xf16>) outs(%z : tensor<7x256xf32>) -> tensor<7x256xf32>
  return %r : tensor<7x256xf32>
}
