// A 1-D convolution: its generalized form reads the input at d0 + d1, an indexing map
// numpy_reference does not evaluate, so lds-run's reference falls back to llvm-cpu.
func.func @main(%x: tensor<44xf32>, %w: tensor<5xf32>) -> tensor<40xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<40xf32>) -> tensor<40xf32>
  %y = linalg.conv_1d ins(%x, %w : tensor<44xf32>, tensor<5xf32>) outs(%init : tensor<40xf32>) -> tensor<40xf32>
  return %y : tensor<40xf32>
}
