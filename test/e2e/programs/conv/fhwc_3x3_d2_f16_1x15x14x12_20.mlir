func.func @main(%x: tensor<1x15x14x12xf16>, %w: tensor<20x3x3x12xf16>) -> tensor<1x11x10x20xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x11x10x20xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x11x10x20xf32>) -> tensor<1x11x10x20xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x15x14x12xf16>, tensor<20x3x3x12xf16>) outs(%z : tensor<1x11x10x20xf32>) -> tensor<1x11x10x20xf32>
  %e2 = tensor.empty() : tensor<1x11x10x20xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x11x10x20xf32>) outs(%e2 : tensor<1x11x10x20xf16>) {
    ^bb0(%v: f32, %out: f16):
      %o = arith.truncf %v : f32 to f16
      linalg.yield %o : f16
  } -> tensor<1x11x10x20xf16>
  return %res : tensor<1x11x10x20xf16>
}
