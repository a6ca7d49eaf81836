// The ResNet projection shortcut (NCHW f16, 1x1 stride 2, 8x64x56x56 image, 512 filters, f32
// sums rounded to f16) as dispatch 0, as the suite's resnet_cnn model forms it; its output is
// then summed over (oh, ow) (dispatch 1) so that a prepared folder's reference stays small.
func.func @main(%x: tensor<8x64x56x56xf16>, %w: tensor<512x64x1x1xf16>) -> tensor<8x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x512x28x28xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x512x28x28xf32>) -> tensor<8x512x28x28xf32>
  %xe = tensor.empty() : tensor<8x64x56x56xf32>
  %x32 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x64x56x56xf16>) outs(%xe : tensor<8x64x56x56xf32>) {
  ^bb0(%i: f16, %o: f32):
    %c = arith.extf %i : f16 to f32
    linalg.yield %c : f32
  } -> tensor<8x64x56x56xf32>
  %we = tensor.empty() : tensor<512x64x1x1xf32>
  %w32 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : tensor<512x64x1x1xf16>) outs(%we : tensor<512x64x1x1xf32>) {
  ^bb0(%i: f16, %o: f32):
    %c = arith.extf %i : f16 to f32
    linalg.yield %c : f32
  } -> tensor<512x64x1x1xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x32, %w32 : tensor<8x64x56x56xf32>, tensor<512x64x1x1xf32>) outs(%z : tensor<8x512x28x28xf32>) -> tensor<8x512x28x28xf32>
  %oe = tensor.empty() : tensor<8x512x28x28xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<8x512x28x28xf32>) outs(%oe : tensor<8x512x28x28xf16>) {
  ^bb0(%i: f32, %o: f16):
    %c = arith.truncf %i : f32 to f16
    linalg.yield %c : f16
  } -> tensor<8x512x28x28xf16>
  %ze = tensor.empty() : tensor<8x512xf32>
  %zz = linalg.fill ins(%zero : f32) outs(%ze : tensor<8x512xf32>) -> tensor<8x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%o : tensor<8x512x28x28xf16>) outs(%zz : tensor<8x512xf32>) {
  ^bb0(%i: f16, %acc: f32):
    %c = arith.extf %i : f16 to f32
    %s = arith.addf %acc, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x512xf32>
  return %r : tensor<8x512xf32>
}
