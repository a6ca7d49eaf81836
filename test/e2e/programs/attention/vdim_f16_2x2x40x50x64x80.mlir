// V's head dim (80) other than Q's and K's (64): on gfx942 V's transposed staging takes 320
// chunks of 4 x 4 on 256 threads (a last round of surplus threads).
func.func @main(%q: tensor<2x2x40x64xf16>, %k: tensor<2x2x50x64xf16>, %v: tensor<2x2x50x80xf16>) -> tensor<2x2x40x80xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<2x2x40x80xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<2x2x40x64xf16>, tensor<2x2x50x64xf16>, tensor<2x2x50x80xf16>, f16)
      outs(%e : tensor<2x2x40x80xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x2x40x80xf16>
  return %o : tensor<2x2x40x80xf16>
}
