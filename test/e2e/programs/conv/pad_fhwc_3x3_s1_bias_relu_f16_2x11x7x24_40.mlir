func.func @main(%x: tensor<2x11x7x24xf16>, %w: tensor<40x3x3x24xf16>, %b: tensor<40xf16>) -> tensor<2x11x7x40xf16> {
  %zero = arith.constant 0.0 : f32
  %zp = arith.constant 0.0 : f16
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zp : f16
  } : tensor<2x11x7x24xf16> to tensor<2x13x9x24xf16>
  %e = tensor.empty() : tensor<2x11x7x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x11x7x40xf32>) -> tensor<2x11x7x40xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %w : tensor<2x13x9x24xf16>, tensor<40x3x3x24xf16>) outs(%z : tensor<2x11x7x40xf32>) -> tensor<2x11x7x40xf32>
  %e2 = tensor.empty() : tensor<2x11x7x40xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<2x11x7x40xf32>, tensor<40xf16>) outs(%e2 : tensor<2x11x7x40xf16>) {
    ^bb0(%v: f32, %bb: f16, %out: f16):
      %bf = arith.extf %bb : f16 to f32
      %s = arith.addf %v, %bf : f32
      %q = arith.maximumf %s, %zero : f32
      %o = arith.truncf %q : f32 to f16
      linalg.yield %o : f16
  } -> tensor<2x11x7x40xf16>
  return %res : tensor<2x11x7x40xf16>
}
