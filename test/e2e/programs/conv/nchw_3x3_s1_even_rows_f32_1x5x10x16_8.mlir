// NCHW 3x3 stride 1 whose output rows (14) take vectors of 2: each starts at `ow + kw`, off a
// multiple of 2 of the image's row for odd kw. IREE's SPIR-V lowering reads a binding read only
// by vectors of n as vector<n> elements, at the index divided by n (UNet's up path, from PyTorch).
func.func @main(%x: tensor<1x5x10x16xf32>, %w: tensor<8x5x3x3xf32>) -> tensor<1x8x8x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x14xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x14xf32>) -> tensor<1x8x8x14xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x5x10x16xf32>, tensor<8x5x3x3xf32>) outs(%z : tensor<1x8x8x14xf32>) -> tensor<1x8x8x14xf32>
  return %y : tensor<1x8x8x14xf32>
}
