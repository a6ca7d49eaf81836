func.func @main(%x: tensor<1x29x31x3xf32>, %w: tensor<13x7x7x3xf32>, %b: tensor<13xf32>) -> tensor<1x12x13x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x13x13xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x13x13xf32>) -> tensor<1x12x13x13xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x29x31x3xf32>, tensor<13x7x7x3xf32>) outs(%z : tensor<1x12x13x13xf32>) -> tensor<1x12x13x13xf32>
  return %y : tensor<1x12x13x13xf32>
}
