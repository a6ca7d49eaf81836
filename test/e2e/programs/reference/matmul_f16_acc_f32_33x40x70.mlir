// f16 matmul accumulated in f32 (linalg.matmul's implicit extf), odd sizes.
func.func @main(%a: tensor<33x70xf16>, %b: tensor<70x40xf16>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %c = linalg.matmul ins(%a, %b : tensor<33x70xf16>, tensor<70x40xf16>) outs(%f : tensor<33x40xf32>) -> tensor<33x40xf32>
  return %c : tensor<33x40xf32>
}
