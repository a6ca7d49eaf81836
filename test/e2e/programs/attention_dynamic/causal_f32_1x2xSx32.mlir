// Causal self-attention over a sequence whose length is read at run time (Q, K and V of one
// length S), f32, head dim 32: the key tiles past each workgroup's last row are skipped.
func.func @main(%q: tensor<1x2x?x32xf32>, %k: tensor<1x2x?x32xf32>, %v: tensor<1x2x?x32xf32>) -> tensor<1x2x?x32xf32> {
  %c2 = arith.constant 2 : index
  %s = tensor.dim %q, %c2 : tensor<1x2x?x32xf32>
  %scale = arith.constant 0.176777 : f32
  %e = tensor.empty(%s) : tensor<1x2x?x32xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x?x32xf32>, tensor<1x2x?x32xf32>, tensor<1x2x?x32xf32>, f32)
      outs(%e : tensor<1x2x?x32xf32>) {
    ^bb0(%x: f32):
      %i = iree_linalg_ext.index 2 : index
      %j = iree_linalg_ext.index 5 : index
      %c = arith.cmpi ugt, %j, %i : index
      %ninf = arith.constant 0xFF800000 : f32
      %r = arith.select %c, %ninf, %x : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x2x?x32xf32>
  return %o : tensor<1x2x?x32xf32>
}
