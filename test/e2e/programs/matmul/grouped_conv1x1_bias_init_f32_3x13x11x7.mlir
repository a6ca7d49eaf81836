// A grouped 1x1 convolution (3 groups of 7 input and 13 output channels, 11 positions) started
// from its bias, as torch-mlir lowers a Conv1d with groups and a bias (SqueezeBERT's): the
// bias of all 39 channels broadcast along the positions, its channels then split into the
// groups, is the convolution's init. IREE keeps that broadcast in the dispatch (it turns a
// broadcast init into a fill and an add only where no reshape stands between them) and runs
// the convolution as a batch of matmuls.
func.func @main(%x: tensor<1x3x7x11x1xf32>, %w: tensor<3x13x7x1x1xf32>, %bias: tensor<39xf32>) -> tensor<1x3x13x11x1xf32> {
  %e = tensor.empty() : tensor<1x39x11x1xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<39xf32>) outs(%e : tensor<1x39x11x1xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x39x11x1xf32>
  %init = tensor.expand_shape %b [[0], [1, 2], [3], [4]] output_shape [1, 3, 13, 11, 1] : tensor<1x39x11x1xf32> into tensor<1x3x13x11x1xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x7x11x1xf32>, tensor<3x13x7x1x1xf32>) outs(%init : tensor<1x3x13x11x1xf32>) -> tensor<1x3x13x11x1xf32>
  return %y : tensor<1x3x13x11x1xf32>
}
