// NHWC i8, padding 1 before and 3 after: rows of 204 bytes at 252-byte strides, vectors of 4 bytes.
func.func @main(%x: tensor<1x13x17x12xi8>) -> tensor<1x17x21x12xi8> {
  %c = arith.constant 0 : i8
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 3, 3, 0] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : i8
  } : tensor<1x13x17x12xi8> to tensor<1x17x21x12xi8>
  return %p : tensor<1x17x21x12xi8>
}
