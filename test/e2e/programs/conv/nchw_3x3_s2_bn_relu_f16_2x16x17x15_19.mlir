func.func @main(%x: tensor<2x16x17x15xf16>, %w: tensor<19x16x3x3xf16>, %scale: tensor<19xf16>, %shift: tensor<19xf16>) -> tensor<2x19x8x7xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x19x8x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x19x8x7xf32>) -> tensor<2x19x8x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x16x17x15xf16>, tensor<19x16x3x3xf16>) outs(%z : tensor<2x19x8x7xf32>) -> tensor<2x19x8x7xf32>
  %e2 = tensor.empty() : tensor<2x19x8x7xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %scale, %shift : tensor<2x19x8x7xf32>, tensor<19xf16>, tensor<19xf16>) outs(%e2 : tensor<2x19x8x7xf16>) {
    ^bb0(%v: f32, %sc: f16, %sh: f16, %out: f16):
      %scf = arith.extf %sc : f16 to f32
      %shf = arith.extf %sh : f16 to f32
      %m = arith.mulf %v, %scf : f32
      %s = arith.addf %m, %shf : f32
      %r = arith.maximumf %s, %zero : f32
      %o16 = arith.truncf %r : f32 to f16
      linalg.yield %o16 : f16
  } -> tensor<2x19x8x7xf16>
  return %res : tensor<2x19x8x7xf16>
}
