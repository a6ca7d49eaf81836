// NCHW 3x3 at dilation 2, unpadded: the image's rows (80 bytes) start 16-byte aligned, but a run
// of output columns starts at `ow + 2 * kw`, 8 bytes off for odd kw. ldsopt-dtl-layout copied it
// by 16-byte cp.async from those starts (`--target cuda`); it leaves the image to the registers now.
func.func @main(%x: tensor<1x8x20x20xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<1x32x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x20x20xf32>, tensor<32x8x3x3xf32>) outs(%z : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  return %y : tensor<1x32x16x16xf32>
}
