// A stem: a 13x13 image padded by 1 to 15x15 (odd high side kept by a stride-2 3x3 window that
// reads rows 0..14) and one padded by 2 on the high side (rows 0..14 of 16 read): the second
// pad's last row goes. IREE compiles both as written, so the reference is the untrimmed program.
func.func @main(%x: tensor<2x3x13x13xf32>, %w: tensor<5x3x3x3xf32>) -> (tensor<2x5x7x7xf32>, tensor<2x5x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %p1 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3x13x13xf32> to tensor<2x3x15x15xf32>
  %p2 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%n: index, %c: index, %i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3x13x13xf32> to tensor<2x3x16x16xf32>
  %e = tensor.empty() : tensor<2x5x7x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x7x7xf32>) -> tensor<2x5x7x7xf32>
  %y1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p1, %w : tensor<2x3x15x15xf32>, tensor<5x3x3x3xf32>) outs(%f : tensor<2x5x7x7xf32>) -> tensor<2x5x7x7xf32>
  %y2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p2, %w : tensor<2x3x16x16xf32>, tensor<5x3x3x3xf32>) outs(%f : tensor<2x5x7x7xf32>) -> tensor<2x5x7x7xf32>
  return %y1, %y2 : tensor<2x5x7x7xf32>, tensor<2x5x7x7xf32>
}
