// Query rows read at run time against 60 static keys, an additive f32 mask [M, 60] broadcast
// over batch and heads, head dim 80.
func.func @main(%q: tensor<1x2x?x80xf32>, %k: tensor<1x2x60x80xf32>, %v: tensor<1x2x60x80xf32>, %mask: tensor<?x60xf32>) -> tensor<1x2x?x80xf32> {
  %c2 = arith.constant 2 : index
  %m = tensor.dim %q, %c2 : tensor<1x2x?x80xf32>
  %scale = arith.constant 0.111803 : f32
  %e = tensor.empty(%m) : tensor<1x2x?x80xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<1x2x?x80xf32>, tensor<1x2x60x80xf32>, tensor<1x2x60x80xf32>, f32, tensor<?x60xf32>)
      outs(%e : tensor<1x2x?x80xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x?x80xf32>
  return %o : tensor<1x2x?x80xf32>
}
