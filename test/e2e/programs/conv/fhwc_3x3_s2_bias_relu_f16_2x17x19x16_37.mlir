func.func @main(%x: tensor<2x17x19x16xf16>, %w: tensor<37x3x3x16xf16>, %b: tensor<37xf16>) -> tensor<2x8x9x37xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x9x37xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x9x37xf32>) -> tensor<2x8x9x37xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x17x19x16xf16>, tensor<37x3x3x16xf16>) outs(%z : tensor<2x8x9x37xf32>) -> tensor<2x8x9x37xf32>
  %e2 = tensor.empty() : tensor<2x8x9x37xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<2x8x9x37xf32>, tensor<37xf16>) outs(%e2 : tensor<2x8x9x37xf16>) {
    ^bb0(%v: f32, %bb: f16, %out: f16):
      %bf = arith.extf %bb : f16 to f32
      %s = arith.addf %v, %bf : f32
      %q = arith.maximumf %s, %zero : f32
      %o = arith.truncf %q : f32 to f16
      linalg.yield %o : f16
  } -> tensor<2x8x9x37xf16>
  return %res : tensor<2x8x9x37xf16>
}
