func.func @main(%x: tensor<2x5x9x16xf16>, %w: tensor<12x5x1x1xf16>) -> tensor<2x12x3x4xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x12x3x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x12x3x4xf32>) -> tensor<2x12x3x4xf32>
  %xe = tensor.empty() : tensor<2x5x9x16xf32>
  %x32 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x5x9x16xf16>) outs(%xe : tensor<2x5x9x16xf32>) {
  ^bb0(%i: f16, %o: f32):
    %c = arith.extf %i : f16 to f32
    linalg.yield %c : f32
  } -> tensor<2x5x9x16xf32>
  %we = tensor.empty() : tensor<12x5x1x1xf32>
  %w32 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : tensor<12x5x1x1xf16>) outs(%we : tensor<12x5x1x1xf32>) {
  ^bb0(%i: f16, %o: f32):
    %c = arith.extf %i : f16 to f32
    linalg.yield %c : f32
  } -> tensor<12x5x1x1xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
      ins(%x32, %w32 : tensor<2x5x9x16xf32>, tensor<12x5x1x1xf32>) outs(%z : tensor<2x12x3x4xf32>) -> tensor<2x12x3x4xf32>
  %oe = tensor.empty() : tensor<2x12x3x4xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x12x3x4xf32>) outs(%oe : tensor<2x12x3x4xf16>) {
  ^bb0(%i: f32, %o: f16):
    %c = arith.truncf %i : f32 to f16
    linalg.yield %c : f16
  } -> tensor<2x12x3x4xf16>
  return %o : tensor<2x12x3x4xf16>
}
