func.func @main(%x: tensor<2x11x13x12xf32>, %w: tensor<3x3x12xf32>) -> tensor<2x9x11x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x9x11x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x11x12xf32>) -> tensor<2x9x11x12xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x11x13x12xf32>, tensor<3x3x12xf32>) outs(%f : tensor<2x9x11x12xf32>) -> tensor<2x9x11x12xf32>
  return %y : tensor<2x9x11x12xf32>
}
