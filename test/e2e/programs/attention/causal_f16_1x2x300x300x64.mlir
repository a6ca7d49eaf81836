// Causal by its region, 300 rows and keys: three key tiles of 128 (on sm_90a two warpgroups
// take them in turn, the second skipping its last round), the last row tile ragged.
func.func @main(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<1x2x300x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, f16)
      outs(%e : tensor<1x2x300x64xf16>) {
    ^bb0(%s: f32):
      %i = iree_linalg_ext.index 2 : index
      %j = iree_linalg_ext.index 5 : index
      %c = arith.cmpi ugt, %j, %i : index
      %ninf = arith.constant 0xFF800000 : f32
      %r = arith.select %c, %ninf, %s : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x2x300x64xf16>
  return %o : tensor<1x2x300x64xf16>
}
