// NCHW bf16, prime extents, padding 3 before and 1 after: scalar.
func.func @main(%x: tensor<1x5x13x17xbf16>) -> tensor<1x5x17x21xbf16> {
  %c = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : bf16
  } : tensor<1x5x13x17xbf16> to tensor<1x5x17x21xbf16>
  return %p : tensor<1x5x17x21xbf16>
}
