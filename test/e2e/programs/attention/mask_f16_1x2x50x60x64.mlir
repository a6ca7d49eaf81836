// An additive f16 mask broadcast over batch and heads (sm_90a: the mma.sync kernel, not wgmma); head dim 64.
func.func @main(%q: tensor<1x2x50x64xf16>, %k: tensor<1x2x60x64xf16>, %v: tensor<1x2x60x64xf16>, %mask: tensor<50x60xf16>) -> tensor<1x2x50x64xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<1x2x50x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<1x2x50x64xf16>, tensor<1x2x60x64xf16>, tensor<1x2x60x64xf16>, f16, tensor<50x60xf16>)
      outs(%e : tensor<1x2x50x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x50x64xf16>
  return %o : tensor<1x2x50x64xf16>
}
