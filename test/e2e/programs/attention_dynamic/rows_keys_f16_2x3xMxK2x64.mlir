// Query rows (M) and keys (K2) both read at run time, independently; batch 2, 3 heads, head dim
// 64, f16: a prefill against a cache of another length.
func.func @main(%q: tensor<2x3x?x64xf16>, %k: tensor<2x3x?x64xf16>, %v: tensor<2x3x?x64xf16>) -> tensor<2x3x?x64xf16> {
  %c2 = arith.constant 2 : index
  %m = tensor.dim %q, %c2 : tensor<2x3x?x64xf16>
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty(%m) : tensor<2x3x?x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<2x3x?x64xf16>, tensor<2x3x?x64xf16>, tensor<2x3x?x64xf16>, f16)
      outs(%e : tensor<2x3x?x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x?x64xf16>
  return %o : tensor<2x3x?x64xf16>
}
