// A stage-1 activation of ResNet-50 padded by 1 for a 3x3, NHWC f16: rows of 56 x 64 aligned in
// both buffers: ldsopt-lower-copy's 16-byte plan.
func.func @main(%x: tensor<8x56x56x64xf16>) -> tensor<8x58x58x64xf16> {
  %c = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : f16
  } : tensor<8x56x56x64xf16> to tensor<8x58x58x64xf16>
  return %p : tensor<8x58x58x64xf16>
}
