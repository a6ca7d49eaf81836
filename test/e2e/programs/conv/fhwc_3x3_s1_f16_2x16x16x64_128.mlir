func.func @main(%x: tensor<2x16x16x64xf16>, %w: tensor<128x3x3x64xf16>) -> tensor<2x14x14x128xf16> {
  %zero = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<2x14x14x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e32 : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x16x16x64xf16>, tensor<128x3x3x64xf16>) outs(%z : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %e16 = tensor.empty() : tensor<2x14x14x128xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x14x14x128xf32>) outs(%e16 : tensor<2x14x14x128xf16>) {
    ^bb0(%v: f32, %o: f16):
      %r = arith.truncf %v : f32 to f16
      linalg.yield %r : f16
  } -> tensor<2x14x14x128xf16>
  return %t : tensor<2x14x14x128xf16>
}
