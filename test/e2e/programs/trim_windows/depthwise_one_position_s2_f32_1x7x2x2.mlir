// MobileViT's downsampling depthwise convolution: a 2x2 image padded to 4x4, a 3x3 window at
// stride 2, one output position, then a residual-style add. IREE 3.13 fails to compile it as
// written (its FoldUnitExtentDims), on every backend.
func.func @main(%x: tensor<1x7x2x2xf32>, %w: tensor<7x3x3xf32>, %b: tensor<1x7x1x1xf32>) -> tensor<1x7x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<1x7x2x2xf32> to tensor<1x7x4x4xf32>
  %e = tensor.empty() : tensor<1x7x1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x1x1xf32>) -> tensor<1x7x1x1xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p, %w : tensor<1x7x4x4xf32>, tensor<7x3x3xf32>) outs(%f : tensor<1x7x1x1xf32>) -> tensor<1x7x1x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, i, j) -> (n, c, i, j)>, affine_map<(n, c, i, j) -> (n, c, i, j)>,
                                        affine_map<(n, c, i, j) -> (n, c, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<1x7x1x1xf32>, tensor<1x7x1x1xf32>) outs(%e : tensor<1x7x1x1xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x7x1x1xf32>
  return %s : tensor<1x7x1x1xf32>
}
