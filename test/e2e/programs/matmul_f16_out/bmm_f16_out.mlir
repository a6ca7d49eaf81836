// f16 x f16 -> f16 batch matmul (as some importers write an f16 model): accumulated in f32, rounded once.
func.func @main(%a: tensor<3x70x96xf16>, %b: tensor<3x96x50xf16>) -> tensor<3x70x50xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3x70x50xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<3x70x50xf16>) -> tensor<3x70x50xf16>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x70x96xf16>, tensor<3x96x50xf16>) outs(%z : tensor<3x70x50xf16>) -> tensor<3x70x50xf16>
  return %r : tensor<3x70x50xf16>
}
