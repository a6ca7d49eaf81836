// The suite BERT twin's attention as iree-turbine exports it with a dynamic sequence: two
// heads [H, S, D] of one length S, V held keys innermost ([H, D, S]), head dim 16, f32.
func.func @main(%q: tensor<2x?x16xf32>, %k: tensor<2x?x16xf32>, %v: tensor<2x16x?xf32>) -> tensor<2x?x16xf32> {
  %c1 = arith.constant 1 : index
  %s = tensor.dim %q, %c1 : tensor<2x?x16xf32>
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty(%s) : tensor<2x?x16xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(h, m, n, k1, k2) -> (h, m, k1)>,
      affine_map<(h, m, n, k1, k2) -> (h, k2, k1)>,
      affine_map<(h, m, n, k1, k2) -> (h, n, k2)>,
      affine_map<(h, m, n, k1, k2) -> ()>,
      affine_map<(h, m, n, k1, k2) -> (h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<2x?x16xf32>, tensor<2x?x16xf32>, tensor<2x16x?xf32>, f32)
      outs(%e : tensor<2x?x16xf32>) {
    ^bb0(%x: f32):
      iree_linalg_ext.yield %x : f32
  } -> tensor<2x?x16xf32>
  return %o : tensor<2x?x16xf32>
}
