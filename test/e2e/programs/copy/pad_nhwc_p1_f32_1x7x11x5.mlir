// NHWC f32, 5 channels (odd), prime extents, padding 1: rows of 55 into rows of 65, scalar.
func.func @main(%x: tensor<1x7x11x5xf32>) -> tensor<1x9x13x5xf32> {
  %c = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<1x7x11x5xf32> to tensor<1x9x13x5xf32>
  return %p : tensor<1x9x13x5xf32>
}
