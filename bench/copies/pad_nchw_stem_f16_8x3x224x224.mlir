// ResNet-50's input padded for its 7x7 stem, NCHW as IREE imports ONNX: rows of 224 into rows
// of 230 at an odd offset, never aligned alike: ldsopt-lower-copy's scalar plan.
func.func @main(%x: tensor<8x3x224x224xf16>) -> tensor<8x3x230x230xf16> {
  %c = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : f16
  } : tensor<8x3x224x224xf16> to tensor<8x3x230x230xf16>
  return %p : tensor<8x3x230x230xf16>
}
