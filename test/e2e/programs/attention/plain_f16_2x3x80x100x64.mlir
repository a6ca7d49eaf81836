// Q of 80 rows, 100 keys (neither a multiple of the tiles), head dim 64.
func.func @main(%q: tensor<2x3x80x64xf16>, %k: tensor<2x3x100x64xf16>, %v: tensor<2x3x100x64xf16>) -> tensor<2x3x80x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<2x3x80x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<2x3x80x64xf16>, tensor<2x3x100x64xf16>, tensor<2x3x100x64xf16>, f16)
      outs(%e : tensor<2x3x80x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x80x64xf16>
  return %o : tensor<2x3x80x64xf16>
}
