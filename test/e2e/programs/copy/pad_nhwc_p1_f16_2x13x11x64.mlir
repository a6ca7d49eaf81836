// NHWC f16, 64 channels, padding 1: rows of 11x64 aligned in both buffers, copied in 16-byte vectors.
func.func @main(%x: tensor<2x13x11x64xf16>) -> tensor<2x15x13x64xf16> {
  %c = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : f16
  } : tensor<2x13x11x64xf16> to tensor<2x15x13x64xf16>
  return %p : tensor<2x15x13x64xf16>
}
