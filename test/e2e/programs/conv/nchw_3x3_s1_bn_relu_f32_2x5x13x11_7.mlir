func.func @main(%x: tensor<2x5x13x11xf32>, %w: tensor<7x5x3x3xf32>, %scale: tensor<7xf32>, %shift: tensor<7xf32>) -> tensor<2x7x11x9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x11x9xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x11x9xf32>) -> tensor<2x7x11x9xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x5x13x11xf32>, tensor<7x5x3x3xf32>) outs(%z : tensor<2x7x11x9xf32>) -> tensor<2x7x11x9xf32>
  return %y : tensor<2x7x11x9xf32>
}
