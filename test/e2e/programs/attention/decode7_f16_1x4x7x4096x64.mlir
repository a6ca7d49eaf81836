// Decode: 7 query rows of 4 heads in 2 groups against 4096 keys.
func.func @main(%q: tensor<1x4x7x64xf16>, %k: tensor<1x2x4096x64xf16>, %v: tensor<1x2x4096x64xf16>) -> tensor<1x4x7x64xf16> {
  %qq = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 7, 64] : tensor<1x4x7x64xf16> into tensor<1x2x2x7x64xf16>
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<1x2x2x7x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, r, m, k1)>,
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, r, m, n, k1, k2) -> ()>,
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, r, m, n)>]}>
      ins(%qq, %k, %v, %scale : tensor<1x2x2x7x64xf16>, tensor<1x2x4096x64xf16>, tensor<1x2x4096x64xf16>, f16)
      outs(%e : tensor<1x2x2x7x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x2x7x64xf16>
  %oo = tensor.collapse_shape %o [[0], [1, 2], [3], [4]] : tensor<1x2x2x7x64xf16> into tensor<1x4x7x64xf16>
  return %oo : tensor<1x4x7x64xf16>
}
