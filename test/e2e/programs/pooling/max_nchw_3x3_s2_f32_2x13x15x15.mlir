func.func @main(%x: tensor<2x13x15x15xf32>) -> tensor<2x13x8x8xf32> {
  %init = arith.constant 0xFF800000 : f32
  %pv = arith.constant 0xFF800000 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %pv : f32
  } : tensor<2x13x15x15xf32> to tensor<2x13x17x17xf32>
  %e = tensor.empty() : tensor<2x13x8x8xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<2x13x8x8xf32>) -> tensor<2x13x8x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%xp, %win : tensor<2x13x17x17xf32>, tensor<3x3xf32>) outs(%f : tensor<2x13x8x8xf32>) -> tensor<2x13x8x8xf32>
  return %y : tensor<2x13x8x8xf32>
}
