func.func @main(%x: tensor<2x3x35x33xf32>, %w: tensor<13x3x7x7xf32>) -> tensor<2x13x15x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x13x15x14xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x13x15x14xf32>) -> tensor<2x13x15x14xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x35x33xf32>, tensor<13x3x7x7xf32>) outs(%z : tensor<2x13x15x14xf32>) -> tensor<2x13x15x14xf32>
  return %y : tensor<2x13x15x14xf32>
}
