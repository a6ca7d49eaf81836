func.func @main(%x: tensor<2x9x11x16xf16>, %w: tensor<20x1x1x16xf16>) -> tensor<2x5x6x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x6x20xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x6x20xf32>) -> tensor<2x5x6x20xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x9x11x16xf16>, tensor<20x1x1x16xf16>) outs(%z : tensor<2x5x6x20xf32>) -> tensor<2x5x6x20xf32>
  return %y : tensor<2x5x6x20xf32>
}
