// K cut from a fused QKV projection (4096 rows of 3 x 768): rows of 768 at strides of 2304,
// 16-byte vectors.
func.func @main(%x: tensor<4096x2304xf16>) -> tensor<4096x768xf16> {
  %s = tensor.extract_slice %x[0, 768] [4096, 768] [1, 1] : tensor<4096x2304xf16> to tensor<4096x768xf16>
  return %s : tensor<4096x768xf16>
}
