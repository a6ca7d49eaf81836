// Decode of 2 query rows with an additive f32 mask per row broadcast over batch and heads; the
// keys split over workgroups (split-KV) on every target. test_attention gives the mask that
// masks whole key chunks and a whole row; random otherwise.
func.func @main(%q: tensor<1x3x2x64xf16>, %k: tensor<1x3x4096x64xf16>, %v: tensor<1x3x4096x64xf16>, %mask: tensor<2x4096xf32>) -> tensor<1x3x2x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<1x3x2x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<1x3x2x64xf16>, tensor<1x3x4096x64xf16>, tensor<1x3x4096x64xf16>, f16, tensor<2x4096xf32>)
      outs(%e : tensor<1x3x2x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x3x2x64xf16>
  return %o : tensor<1x3x2x64xf16>
}
