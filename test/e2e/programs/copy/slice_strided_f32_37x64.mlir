// A slice with strides 2 and 3 (innermost stride 3): scalar.
func.func @main(%x: tensor<37x64xf32>) -> tensor<18x21xf32> {
  %s = tensor.extract_slice %x[1, 2] [18, 21] [2, 3] : tensor<37x64xf32> to tensor<18x21xf32>
  return %s : tensor<18x21xf32>
}
