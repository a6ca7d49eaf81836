func.func @main(%x: tensor<3x13x9x12xf32>, %w: tensor<20x13x1x1xf32>) -> tensor<3x20x5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x20x5x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x20x5x6xf32>) -> tensor<3x20x5x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<3x13x9x12xf32>, tensor<20x13x1x1xf32>) outs(%z : tensor<3x20x5x6xf32>) -> tensor<3x20x5x6xf32>
  return %y : tensor<3x20x5x6xf32>
}
