// NHWC f16, 12 channels, padding 3: rows of 108 at strides of 180, offset 552: vectors of 4 halves.
func.func @main(%x: tensor<1x7x9x12xf16>) -> tensor<1x13x15x12xf16> {
  %c = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : f16
  } : tensor<1x7x9x12xf16> to tensor<1x13x15x12xf16>
  return %p : tensor<1x13x15x12xf16>
}
