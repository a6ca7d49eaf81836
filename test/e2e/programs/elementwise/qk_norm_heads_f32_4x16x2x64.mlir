// Qwen3's QK-norm as IREE fuses it with the head split (transformers' Qwen3Attention): each head's
// rows [16 tokens, 4 heads] scaled by rsqrt(s^2 / 128 + eps), s a row statistic, and the norm's weight, the
// result stored heads first. x keeps the fastest dim (its head dim 2 x 64) last, permuted
// outside it; the rows' statistic is read permuted too but not along the fastest dim: one
// scalar per output vector, broadcast.
func.func @main(%x: tensor<16x4x2x64xf32>, %s: tensor<16x4xf32>, %g: tensor<2x64xf32>) -> tensor<4x16x2x64xf32> {
  %k = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<4x16x2x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g, %x, %s : tensor<2x64xf32>, tensor<16x4x2x64xf32>, tensor<16x4xf32>) outs(%e : tensor<4x16x2x64xf32>) {
  ^bb0(%gv: f32, %xv: f32, %sv: f32, %out: f32):
    %sq = arith.mulf %sv, %sv : f32
    %m = arith.divf %sq, %k : f32
    %a = arith.addf %m, %eps : f32
    %rs = math.rsqrt %a : f32
    %y = arith.mulf %xv, %rs : f32
    %z = arith.mulf %gv, %y : f32
    linalg.yield %z : f32
  } -> tensor<4x16x2x64xf32>
  return %r : tensor<4x16x2x64xf32>
}
