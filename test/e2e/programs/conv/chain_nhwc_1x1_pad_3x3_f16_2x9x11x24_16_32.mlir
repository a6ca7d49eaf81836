func.func @main(%x: tensor<2x9x11x24xf16>, %w1: tensor<16x1x1x24xf16>, %b1: tensor<16xf16>, %w2: tensor<32x3x3x16xf16>) -> tensor<2x9x11x32xf16> {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<2x9x11x16xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x9x11x16xf32>) -> tensor<2x9x11x16xf32>
  %y1 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<2x9x11x24xf16>, tensor<16x1x1x24xf16>) outs(%z1 : tensor<2x9x11x16xf32>) -> tensor<2x9x11x16xf32>
  %e16 = tensor.empty() : tensor<2x9x11x16xf16>
  %a1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1, %b1 : tensor<2x9x11x16xf32>, tensor<16xf16>) outs(%e16 : tensor<2x9x11x16xf16>) {
    ^bb0(%v: f32, %b: f16, %o: f16):
      %bf = arith.extf %b : f16 to f32
      %s = arith.addf %v, %bf : f32
      %r = arith.maximumf %s, %zero : f32
      %t = arith.truncf %r : f32 to f16
      linalg.yield %t : f16
  } -> tensor<2x9x11x16xf16>
  %p = tensor.pad %a1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero16 : f16
  } : tensor<2x9x11x16xf16> to tensor<2x11x13x16xf16>
  %e2 = tensor.empty() : tensor<2x9x11x32xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x9x11x32xf32>) -> tensor<2x9x11x32xf32>
  %y2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w2 : tensor<2x11x13x16xf16>, tensor<32x3x3x16xf16>) outs(%z2 : tensor<2x9x11x32xf32>) -> tensor<2x9x11x32xf32>
  %e3 = tensor.empty() : tensor<2x9x11x32xf16>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y2 : tensor<2x9x11x32xf32>) outs(%e3 : tensor<2x9x11x32xf16>) {
    ^bb0(%v: f32, %o: f16):
      %t = arith.truncf %v : f32 to f16
      linalg.yield %t : f16
  } -> tensor<2x9x11x32xf16>
  return %r2 : tensor<2x9x11x32xf16>
}
