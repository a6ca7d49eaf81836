// Two results of different types from one elementwise generic over 3x29x40 (29 prime): a
// bias-added f16 value and its square in f32 (a residual stream and its statistics' input);
// the vectors are as wide as the f32 result allows.
func.func @main(%x: tensor<3x29x40xf16>, %b: tensor<40xf16>) -> (tensor<3x29x40xf16>, tensor<3x29x40xf32>) {
  %e = tensor.empty() : tensor<3x29x40xf16>
  %ef = tensor.empty() : tensor<3x29x40xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<3x29x40xf16>, tensor<40xf16>) outs(%e, %ef : tensor<3x29x40xf16>, tensor<3x29x40xf32>) {
  ^bb0(%a: f16, %c: f16, %o: f16, %of: f32):
    %y = arith.addf %a, %c : f16
    %w = arith.extf %y : f16 to f32
    %sq = arith.mulf %w, %w : f32
    linalg.yield %y, %sq : f16, f32
  } -> (tensor<3x29x40xf16>, tensor<3x29x40xf32>)
  return %r#0, %r#1 : tensor<3x29x40xf16>, tensor<3x29x40xf32>
}
