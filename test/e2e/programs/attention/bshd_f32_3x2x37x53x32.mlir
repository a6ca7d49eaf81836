// Batch 3, [B, S, H, D] activations (heads not outermost), f32, head dim 32.
func.func @main(%q: tensor<3x37x2x32xf32>, %k: tensor<3x53x2x32xf32>, %v: tensor<3x53x2x32xf32>) -> tensor<3x37x2x32xf32> {
  %scale = arith.constant 0.176777 : f32
  %e = tensor.empty() : tensor<3x37x2x32xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, m, h, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, m, h, n)>]}>
      ins(%q, %k, %v, %scale : tensor<3x37x2x32xf32>, tensor<3x53x2x32xf32>, tensor<3x53x2x32xf32>, f32)
      outs(%e : tensor<3x37x2x32xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<3x37x2x32xf32>
  return %o : tensor<3x37x2x32xf32>
}
