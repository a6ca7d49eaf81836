// Columns 8..44 of a 41x64 tensor into columns 4..40 of another: both rows at strides of 64,
// starting at columns that are multiples of 4: vectors of 4 floats, and the rows' last
// element (37 = 9 x 4 + 1) as a scalar tail.
func.func @main(%x: tensor<41x64xf32>, %y: tensor<41x64xf32>) -> tensor<41x64xf32> {
  %s = tensor.extract_slice %x[0, 8] [41, 37] [1, 1] : tensor<41x64xf32> to tensor<41x37xf32>
  %u = tensor.insert_slice %s into %y[0, 4] [41, 37] [1, 1] : tensor<41x37xf32> into tensor<41x64xf32>
  return %u : tensor<41x64xf32>
}
