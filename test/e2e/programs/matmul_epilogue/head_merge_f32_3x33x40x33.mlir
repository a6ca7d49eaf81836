// Attention's probabilities times values, per head (batch 3), ragged sizes, the heads merged
// on the way out: the consumer writes (h, s, d) as (s, h, d), with a bias over d.
func.func @main(%p: tensor<3x33x33xf32>, %v: tensor<3x33x40xf32>, %bias: tensor<40xf32>) -> tensor<33x3x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %mm = linalg.batch_matmul ins(%p, %v : tensor<3x33x33xf32>, tensor<3x33x40xf32>) outs(%z : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %t = tensor.empty() : tensor<33x3x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(h, s, d) -> (h, s, d)>, affine_map<(h, s, d) -> (d)>, affine_map<(h, s, d) -> (s, h, d)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<3x33x40xf32>, tensor<40xf32>) outs(%t : tensor<33x3x40xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %y = arith.addf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<33x3x40xf32>
  return %r : tensor<33x3x40xf32>
}
