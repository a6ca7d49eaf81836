func.func @main(%x: tensor<2x17x13x32xf16>, %w: tensor<24x3x3x32xf16>, %b: tensor<24xf16>) -> tensor<2x9x7x24xf16> {
  %zero = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f16
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %pv : f16
  } : tensor<2x17x13x32xf16> to tensor<2x19x15x32xf16>
  %e = tensor.empty() : tensor<2x9x7x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x7x24xf32>) -> tensor<2x9x7x24xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%xp, %w : tensor<2x19x15x32xf16>, tensor<24x3x3x32xf16>) outs(%z : tensor<2x9x7x24xf32>) -> tensor<2x9x7x24xf32>
  %e2 = tensor.empty() : tensor<2x9x7x24xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<2x9x7x24xf32>, tensor<24xf16>) outs(%e2 : tensor<2x9x7x24xf16>) {
    ^bb0(%v: f32, %bb: f16, %out: f16):
      %bf = arith.extf %bb : f16 to f32
      %s = arith.addf %v, %bf : f32
      %r = arith.maximumf %s, %zero : f32
      %o = arith.truncf %r : f32 to f16
      linalg.yield %o : f16
  } -> tensor<2x9x7x24xf16>
  return %res : tensor<2x9x7x24xf16>
}
