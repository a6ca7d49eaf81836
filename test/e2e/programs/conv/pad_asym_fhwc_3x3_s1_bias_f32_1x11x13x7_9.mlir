func.func @main(%x: tensor<1x11x13x7xf32>, %w: tensor<9x3x3x7xf32>, %b: tensor<9xf32>) -> tensor<1x12x13x9xf32> {
  %zero = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 2, 0, 0] high[0, 1, 2, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %pv : f32
  } : tensor<1x11x13x7xf32> to tensor<1x14x15x7xf32>
  %e = tensor.empty() : tensor<1x12x13x9xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x13x9xf32>) -> tensor<1x12x13x9xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %w : tensor<1x14x15x7xf32>, tensor<9x3x3x7xf32>) outs(%z : tensor<1x12x13x9xf32>) -> tensor<1x12x13x9xf32>
  %e2 = tensor.empty() : tensor<1x12x13x9xf32>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<1x12x13x9xf32>, tensor<9xf32>) outs(%e2 : tensor<1x12x13x9xf32>) {
    ^bb0(%v: f32, %bb: f32, %out: f32):
      %s = arith.addf %v, %bb : f32
      linalg.yield %s : f32
  } -> tensor<1x12x13x9xf32>
  return %res : tensor<1x12x13x9xf32>
}
