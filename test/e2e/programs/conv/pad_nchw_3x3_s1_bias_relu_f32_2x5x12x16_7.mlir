func.func @main(%x: tensor<2x5x12x16xf32>, %w: tensor<7x5x3x3xf32>, %b: tensor<7xf32>) -> tensor<2x7x12x16xf32> {
  %zero = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %pv : f32
  } : tensor<2x5x12x16xf32> to tensor<2x5x14x18xf32>
  %e = tensor.empty() : tensor<2x7x12x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x12x16xf32>) -> tensor<2x7x12x16xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %w : tensor<2x5x14x18xf32>, tensor<7x5x3x3xf32>) outs(%z : tensor<2x7x12x16xf32>) -> tensor<2x7x12x16xf32>
  %e2 = tensor.empty() : tensor<2x7x12x16xf32>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<2x7x12x16xf32>, tensor<7xf32>) outs(%e2 : tensor<2x7x12x16xf32>) {
    ^bb0(%v: f32, %bb: f32, %out: f32):
      %s = arith.addf %v, %bb : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
  } -> tensor<2x7x12x16xf32>
  return %res : tensor<2x7x12x16xf32>
}
