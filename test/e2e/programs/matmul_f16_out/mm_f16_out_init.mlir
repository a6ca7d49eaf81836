// f16 x f16 -> f16 matmul adding to a loaded f16 C (C + A B): C extended, the sum rounded once.
func.func @main(%a: tensor<64x48xf16>, %b: tensor<48x40xf16>, %c: tensor<64x40xf16>) -> tensor<64x40xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<64x48xf16>, tensor<48x40xf16>) outs(%c : tensor<64x40xf16>) -> tensor<64x40xf16>
  return %r : tensor<64x40xf16>
}
