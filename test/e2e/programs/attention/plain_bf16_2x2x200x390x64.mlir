// bf16, 200 rows against 390 keys: four key tiles of 128, the last ragged (on sm_90a two
// warpgroups take two each).
func.func @main(%q: tensor<2x2x200x64xbf16>, %k: tensor<2x2x390x64xbf16>, %v: tensor<2x2x390x64xbf16>) -> tensor<2x2x200x64xbf16> {
  %scale = arith.constant 0.125000 : bf16
  %e = tensor.empty() : tensor<2x2x200x64xbf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<2x2x200x64xbf16>, tensor<2x2x390x64xbf16>, tensor<2x2x390x64xbf16>, bf16)
      outs(%e : tensor<2x2x200x64xbf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x2x200x64xbf16>
  return %o : tensor<2x2x200x64xbf16>
}
