// Grouped-query attention: 8 query heads over 2 K/V heads, not repeated; the scale a loaded 0-d tensor; head dim 128.
func.func @main(%q: tensor<1x8x33x128xf16>, %k: tensor<1x2x70x128xf16>, %v: tensor<1x2x70x128xf16>, %sc: tensor<f16>) -> tensor<1x8x33x128xf16> {
  %qq = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [1, 2, 4, 33, 128] : tensor<1x8x33x128xf16> into tensor<1x2x4x33x128xf16>
  %scale = tensor.extract %sc[] : tensor<f16>
  %e = tensor.empty() : tensor<1x2x4x33x128xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, r, m, k1)>,
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, r, m, n, k1, k2) -> ()>,
      affine_map<(b, h, r, m, n, k1, k2) -> (b, h, r, m, n)>]}>
      ins(%qq, %k, %v, %scale : tensor<1x2x4x33x128xf16>, tensor<1x2x70x128xf16>, tensor<1x2x70x128xf16>, f16)
      outs(%e : tensor<1x2x4x33x128xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x4x33x128xf16>
  %oo = tensor.collapse_shape %o [[0], [1, 2], [3], [4]] : tensor<1x2x4x33x128xf16> into tensor<1x8x33x128xf16>
  return %oo : tensor<1x8x33x128xf16>
}
