// BERT-base attention: 12 heads of 512 queries and keys, head dim 64 (the wgmma kernel on sm_90a: 96 workgroups of 64 rows).
func.func @main(%q: tensor<1x12x512x64xf16>, %k: tensor<1x12x512x64xf16>, %v: tensor<1x12x512x64xf16>) -> tensor<1x12x512x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<1x12x512x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x12x512x64xf16>, tensor<1x12x512x64xf16>, tensor<1x12x512x64xf16>, f16)
      outs(%e : tensor<1x12x512x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x12x512x64xf16>
  return %o : tensor<1x12x512x64xf16>
}
