func.func @main(%x: tensor<2x13x15x5xf32>, %w: tensor<7x3x3x5xf32>) -> tensor<2x11x13x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x11x13x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x11x13x7xf32>) -> tensor<2x11x13x7xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x13x15x5xf32>, tensor<7x3x3x5xf32>) outs(%z : tensor<2x11x13x7xf32>) -> tensor<2x11x13x7xf32>
  return %y : tensor<2x11x13x7xf32>
}
